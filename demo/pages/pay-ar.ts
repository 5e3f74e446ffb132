/**
 * The Arabic payment page's module. The shop's server renders the page right
 * to left with its checkout in the HTML (demo/server/payment-pages/pay-arabic.ts);
 * the page's inline script loads this module once the widget is ready. It
 * fills the shop's frame and defines `<gw-checkout>` with its Arabic texts.
 */
import 'gw-elements/checkout/translations/ar';
import 'gw-elements/checkout';
import { mountPage } from '../lib/layout.js';

mountPage();
