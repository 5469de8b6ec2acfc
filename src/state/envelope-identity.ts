import { createHash } from 'node:crypto';

/**
 * Name of the envelope custom field (a text custom field,
 * `#/definitions/textCustomField`) that carries the envelope's identity
 * `<job>/<key>`. The runner writes it when it creates an envelope and searches
 * for it (status-changes listing with the custom-field filter) before creating
 * one, so that an envelope whose creation answer was lost is adopted, not
 * sent again.
 */
export const identityFieldName = 'signrun';

/**
 * Name of the custom field carrying the envelope's job: the status-changes
 * listing filtered by it answers, in one paged call per job, every envelope
 * of the job (the plan's batched look-up, and each draft's confirmation).
 */
export const jobFieldName = 'signrunJob';

/** Name of the custom field on an account's claim draft that names the account the claim's winner created. */
export const accountFieldName = 'signrunAccountId';

/** The identity a subsidiary account's claim draft carries (docs/exactly-once.md, "Accounts"). */
export function claimIdentityOf(job: string, key: string): string {
  return `${identityOf(job, key)}#account`;
}

/** The identity a template kept as code carries in its `signrun` custom field: `<job>/<key>#template`. */
export function templateIdentityOf(job: string, key: string): string {
  return `${identityOf(job, key)}#template`;
}

/**
 * The identity a Bulk Send model carries (`<job>#bulk-model`): the draft a
 * batch's copies are made from. Each copy gets its own `<job>/<key>` from
 * its bulk send list; the model's never names an envelope of the job, so
 * the plan never takes a model for an envelope.
 */
export function bulkModelIdentityOf(job: string): string {
  return `${job}#bulk-model`;
}

/** Name of the custom field holding the digest of the envelope's content (`envelopeDigest` in src/jobs/envelope-digest.ts), used to report drift. */
export const digestFieldName = 'signrunDigest';

/**
 * Longest `transactionId` DocuSign accepts (its envelope documentation: 100
 * characters). `#/definitions/envelopeDefinition` adds that the id is only
 * valid for 7 days: after that only the custom-field search finds the envelope,
 * which is why the identity custom field, not the transactionId, is the primary
 * key for adoption.
 */
export const transactionIdMaxLength = 100;

/** The identity of an envelope or account: `<job>/<key>`, stable forever for the same job file entry. */
export function identityOf(job: string, key: string): string {
  return `${job}/${key}`;
}

/**
 * The envelope's `transactionId`: `sr-` and 40 hex characters of the sha256 of
 * the identity. Short (43 characters, within DocuSign's 100) and stable, so a
 * re-run computes the same one; a hash rather than the identity itself because
 * job and key may together be longer than the field allows.
 */
export function transactionIdOf(job: string, key: string): string {
  return `sr-${createHash('sha256').update(identityOf(job, key), 'utf8').digest('hex').slice(0, 40)}`;
}
