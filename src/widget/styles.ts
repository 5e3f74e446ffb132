/**
 * The widget's two styles. Zero-specificity rules (:where), so any rule the
 * shop writes for the .wpwl-* classes wins. Adopted as a constructed
 * stylesheet, which a strict Content-Security-Policy allows without style-src.
 * Logical properties (margin-inline-start, inline-size …), so a right-to-left
 * form (`dir="rtl"`, e.g. locale `ar`) mirrors without rules of its own.
 * Wallet buttons look like the wallet's own in both styles, as the platform's
 * widget draws them: black, rounded, the wallet's name on them.
 */

export const PLAIN_CSS = `
:where(.wpwl-group) { margin-block-end: .75em; }
:where(.wpwl-label) { display: block; margin-block-end: .25em; }
:where(.wpwl-hint), :where(.wpwl-message) { color: #b3261e; font-size: .875em; margin-block-start: .25em; }
:where(.wpwl-message) { margin-block: 0 .75em; margin-inline: 0; }
:where(.wpwl-button-pay:disabled) { cursor: progress; opacity: .6; }
:where(.wpwl-group-registration) { margin: 0 0 .75em; padding: 0; border: 0; min-inline-size: 0; }
:where(.wpwl-wrapper-registration) { display: flex; align-items: center; gap: .5em; margin-block: .4em; }
:where(.wpwl-group-submit) { margin-block-start: 1em; }
:where(.wpwl-button-another) { margin-block-start: .75em; }
:where(.wpwl-button-brand) { display: block; box-sizing: border-box; inline-size: 100%; max-inline-size: 26em; min-block-size: 2.75em; margin-block-end: .5em; padding: .6em 1em; font: 500 1em/1.2 -apple-system, system-ui, sans-serif; border: 0; border-radius: .5em; background: #000; color: #fff; cursor: pointer; }
:where(.wpwl-google-pay-button) { border-radius: 1.4em; background: #202124; font-family: Roboto, system-ui, sans-serif; }
`;

export const CARD_CSS = `${PLAIN_CSS}
:where(.wpwl-form-card) { max-inline-size: 26em; padding: 1em; border: 1px solid #c4c7cc; border-radius: .5em; background: #f7f8fa; }
:where(.wpwl-control) { box-sizing: border-box; inline-size: 100%; padding: .5em; font: inherit; border: 1px solid #8a8f98; border-radius: .25em; background: #fff; }
:where(.wpwl-control.wpwl-has-error) { border-color: #b3261e; }
:where(.wpwl-group-expiry, .wpwl-group-cvv) { display: inline-block; vertical-align: top; inline-size: 48%; }
:where(.wpwl-group-cvv) { margin-inline-start: 4%; }
:where(.wpwl-control-registration) { inline-size: auto; flex: none; margin: 0; padding: 0; }
:where(.wpwl-button-pay, .wpwl-button-stcPaySendCode, .wpwl-button-stcPayConfirm, .wpwl-button-another) { padding: .6em 1.4em; font: inherit; border: 0; border-radius: .25em; background: #1f5fbf; color: #fff; cursor: pointer; }
:where(.wpwl-button-another) { background: #fff; color: #1f5fbf; box-shadow: inset 0 0 0 1px #1f5fbf; }
:where(.wpwl-form-registrations) { max-inline-size: 26em; margin-block-end: 1em; padding: 1em; border: 1px solid #c4c7cc; border-radius: .5em; background: #f7f8fa; }
:where(.wpwl-stcPay) { margin: 0 0 1em; padding: 1em; border: 1px solid #c4c7cc; border-radius: .5em; max-inline-size: 26em; }
`;
