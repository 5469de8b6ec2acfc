import { createHash } from 'node:crypto';

/** Name of the envelope custom field that carries `<job>/<key>` (show=false), for finding it again (issue 6). */
export const identityFieldName = 'signrun';
/** Name of the envelope custom field that carries the envelope's content digest (drift detection). */
export const digestFieldName = 'signrunDigest';

/** `<job>/<key>`: the identity of an envelope or account, forever. */
export function identityOf(item: { job: string; key: string }): string {
  return `${item.job}/${item.key}`;
}

/**
 * The envelope's `transactionId` (Swagger envelopeDefinition.transactionId,
 * DocuSign's own field for finding an envelope whose creation answer was
 * lost): 32 hex characters of sha256(job/key), stable across runs.
 */
export function transactionIdOf(item: { job: string; key: string }): string {
  return createHash('sha256').update(identityOf(item)).digest('hex').slice(0, 32);
}
