/** How a result kind (`classifyResult`) reads at a glance in the demo's badges: approved, waiting, or not. */
export function toneOf(kind: string): 'ok' | 'wait' | 'bad' {
  if (kind === 'approved' || kind === 'approved_review' || kind === 'checkout_created') return 'ok';
  return kind.startsWith('pending') ? 'wait' : 'bad';
}
