/**
 * The widget's two styles. Zero-specificity rules (:where), so any rule the
 * shop writes for the .wpwl-* classes wins. Adopted as a constructed
 * stylesheet, which a strict Content-Security-Policy allows without style-src.
 * Logical properties (margin-inline-start, inline-size …), so a right-to-left
 * form (`dir="rtl"`, e.g. locale `ar`) mirrors without rules of its own.
 */

export const PLAIN_CSS = `
:where(.wpwl-group) { margin-block-end: .75em; }
:where(.wpwl-label) { display: block; margin-block-end: .25em; }
:where(.wpwl-hint), :where(.wpwl-message) { color: #b3261e; font-size: .875em; margin-block-start: .25em; }
:where(.wpwl-message) { margin-block: 0 .75em; margin-inline: 0; }
:where(.wpwl-button-pay:disabled) { cursor: progress; opacity: .6; }
`;

export const CARD_CSS = `${PLAIN_CSS}
:where(.wpwl-form-card) { max-inline-size: 26em; padding: 1em; border: 1px solid #c4c7cc; border-radius: .5em; background: #f7f8fa; }
:where(.wpwl-control) { box-sizing: border-box; inline-size: 100%; padding: .5em; font: inherit; border: 1px solid #8a8f98; border-radius: .25em; background: #fff; }
:where(.wpwl-control.wpwl-has-error) { border-color: #b3261e; }
:where(.wpwl-group-expiry, .wpwl-group-cvv) { display: inline-block; vertical-align: top; inline-size: 48%; }
:where(.wpwl-group-cvv) { margin-inline-start: 4%; }
:where(.wpwl-button-pay) { padding: .6em 1.4em; font: inherit; border: 0; border-radius: .25em; background: #1f5fbf; color: #fff; cursor: pointer; }
`;
