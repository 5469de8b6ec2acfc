import { verifyPassword } from '../platform/password-hash.js';
import type { EnvelopesRepository, RecipientRecord } from '../esignature/envelopes/repository.js';

/**
 * Wrong access codes a recipient may enter before it is locked out. DocuSign
 * locks a recipient after a few failed access-code attempts and the sender
 * must correct the envelope; the sandbox locks at the third.
 */
export const accessCodeAttempts = 3;

/** Where a recipient stands with its access code. */
export type AccessCodeState = 'none' | 'required' | 'locked';

/** Whether the recipient must enter an access code before the documents show, or can no longer. */
export function accessCodeState(recipient: RecipientRecord): AccessCodeState {
  if (recipient.accessCodeHash === null) return 'none';
  return recipient.accessCodeFailures >= accessCodeAttempts ? 'locked' : 'required';
}

/** What an attempt gave: passed, wrong (with the attempts left), or locked (no attempt left). */
export type AccessCodeAttempt = { outcome: 'passed' } | { outcome: 'wrong'; left: number } | { outcome: 'locked' };

/**
 * Checks an entered access code against the stored hash (the code itself is
 * kept nowhere); a wrong one is counted on the recipient, not on the
 * session, so opening a new signing link gives no fresh attempts.
 */
export async function tryAccessCode(
  envelopes: EnvelopesRepository,
  recipient: RecipientRecord,
  entered: string,
): Promise<AccessCodeAttempt> {
  if (accessCodeState(recipient) === 'locked' || recipient.accessCodeHash === null) return { outcome: 'locked' };
  if (await verifyPassword(entered, recipient.accessCodeHash)) return { outcome: 'passed' };
  const failures = envelopes.countAccessCodeFailure(recipient.envelopeId, recipient.recipientId);
  return failures >= accessCodeAttempts
    ? { outcome: 'locked' }
    : { outcome: 'wrong', left: accessCodeAttempts - failures };
}
