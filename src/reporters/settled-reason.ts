import type { EnvelopeResult } from '../runner/run-summary.js';

/**
 * Why a settled envelope ended, as every report says it: "declined: <the
 * signer's reason>" or "voided: <the sender's reason>"; undefined when the
 * envelope was neither declined nor voided, or the service gave no reason.
 */
export function settledReasonOf(
  e: Pick<EnvelopeResult, 'status' | 'declinedReason' | 'voidedReason'>,
): string | undefined {
  const status = e.status?.toLowerCase();
  if (status === 'declined' && e.declinedReason) return `declined: ${e.declinedReason}`;
  if (status === 'voided' && e.voidedReason) return `voided: ${e.voidedReason}`;
  return undefined;
}
