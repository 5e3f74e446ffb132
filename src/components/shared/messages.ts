/**
 * Developer messages as the elements ship them: the gist, and a link to its
 * full explanation in docs/messages.md (what went wrong, why, what to do), as
 * React's production errors link theirs. A page pays for a few words per
 * message, not for paragraphs it shows only to a developer; the explanations
 * are kept in step by test/components/messages.test.ts.
 */

const EXPLANATIONS = 'https://github.com/gw-elements/gw-elements/blob/main/docs/messages.md#';

/** `gist` and where message `id` is explained, e.g. `base-url must be https (…/messages.md#checkout-base-url)`. */
export const explained = (id: string, gist: string): string => `${gist} (${EXPLANATIONS}${id})`;
