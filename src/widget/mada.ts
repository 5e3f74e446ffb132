/**
 * MADA in the card form, as integrators configure the platform's widget
 * (`brandDetection: true, brandDetectionType: 'binlist',
 * brandDetectionPriority: ['MADA', 'VISA', 'MASTER']`): a number with a MADA
 * BIN is detected as MADA although it is also a VISA or MASTER number. A form
 * that lists MADA switches to it; a VISA/MASTER form without MADA refuses the
 * card and steers the shopper to the MADA form, as the platform's official
 * shop plugin does (a KSA merchant's MADA payments go to the MADA entity).
 */
import { brandOfCard, isMadaNumber, type FormCardBrand } from '../contract/brands.js';
import { brandOfCardNumber } from '../contract/card.js';
import type { WpwlOptions } from '../browser/widget-contract.js';

/** Whether the options put MADA before VISA and MASTER in a BIN-list detection. */
export function madaFirst(options: WpwlOptions): boolean {
  if (options.brandDetection === false || options.brandDetectionType !== 'binlist') return false;
  const priority = Array.isArray(options.brandDetectionPriority) ? options.brandDetectionPriority : [];
  const mada = priority.indexOf('MADA');
  const schemes = ['VISA', 'MASTER'].map((brand) => priority.indexOf(brand as 'VISA')).filter((index) => index >= 0);
  return mada >= 0 && schemes.every((index) => mada < index);
}

/** The brand the widget detects for a number: MADA first when the options say so, else by prefix. */
export const detectedBrandOf = (digits: string, options: WpwlOptions): FormCardBrand | undefined =>
  madaFirst(options) ? brandOfCard(digits) : brandOfCardNumber(digits);

/** Whether a number must be steered away from a form: a MADA card, detected as MADA, on a form that does not list MADA. */
export const steeredToMada = (digits: string, brands: readonly FormCardBrand[], options: WpwlOptions): boolean =>
  !brands.includes('MADA') && madaFirst(options) && isMadaNumber(digits);
