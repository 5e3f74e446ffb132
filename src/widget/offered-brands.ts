/**
 * The brands a merchant's `form.paymentWidgets` lists in `data-brands`, card
 * brands and wallets apart, and what the merchant is told of those the widget
 * does not offer (the entity has no contract for them: contract/brands.ts).
 */
import { isFormCardBrand, isWalletBrand, type FormCardBrand, type WalletBrand } from '../contract/brands.js';
import type { Widget } from './widget.js';

/** Each brand once, in its first place: a brand listed twice gets one button or block, and the ids within it stay unique. */
const brandsOf = (form: HTMLFormElement): string[] => [...new Set((form.dataset.brands ?? '').split(/\s+/))];

/** The wallet brands a form lists, in its order. */
export const walletBrandsOf = (form: HTMLFormElement): WalletBrand[] => brandsOf(form).filter(isWalletBrand);

/** The card brands a form lists, in its order. */
export const cardBrandsOf = (form: HTMLFormElement): FormCardBrand[] => brandsOf(form).filter(isFormCardBrand);

/** Tells the merchant which of a form's brands are not offered because the checkout's entity has no contract for them. */
export function reportNotOffered(widget: Widget, listed: readonly string[], offered: readonly string[]): void {
  const missing = listed.filter((brand) => !offered.includes(brand));
  if (missing.length) widget.report('WidgetError', `Not offered: the checkout's entity has no contract for ${missing.join(', ')}.`);
}
