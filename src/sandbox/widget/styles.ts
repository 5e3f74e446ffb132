/**
 * The widget's two styles. Zero-specificity rules (:where), so any rule the
 * shop writes for the .wpwl-* classes wins. Adopted as a constructed
 * stylesheet, which a strict Content-Security-Policy allows without style-src.
 */

export const PLAIN_CSS = `
:where(.wpwl-group) { margin-bottom: .75em; }
:where(.wpwl-label) { display: block; margin-bottom: .25em; }
:where(.wpwl-hint), :where(.wpwl-message) { color: #b3261e; font-size: .875em; margin-top: .25em; }
:where(.wpwl-message) { margin: 0 0 .75em; }
:where(.wpwl-button-pay:disabled) { cursor: progress; opacity: .6; }
`;

export const CARD_CSS = `${PLAIN_CSS}
:where(.wpwl-form-card) { max-width: 26em; padding: 1em; border: 1px solid #c4c7cc; border-radius: .5em; background: #f7f8fa; }
:where(.wpwl-control) { box-sizing: border-box; width: 100%; padding: .5em; font: inherit; border: 1px solid #8a8f98; border-radius: .25em; background: #fff; }
:where(.wpwl-control.wpwl-has-error) { border-color: #b3261e; }
:where(.wpwl-group-expiry, .wpwl-group-cvv) { display: inline-block; vertical-align: top; width: 48%; }
:where(.wpwl-group-cvv) { margin-left: 4%; }
:where(.wpwl-button-pay) { padding: .6em 1.4em; font: inherit; border: 0; border-radius: .25em; background: #1f5fbf; color: #fff; cursor: pointer; }
`;
