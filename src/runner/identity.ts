import { identityOf as identityOfParts, transactionIdOf as transactionIdOfParts } from '../state/envelope-identity.js';

// One definition of identity for the runner and the exactly-once state (src/state): the custom field names,
// the `<job>/<key>` identity and the transactionId all come from there.
export {
  identityFieldName,
  digestFieldName,
  jobFieldName,
  accountFieldName,
  claimIdentityOf,
  templateIdentityOf,
  bulkModelIdentityOf,
} from '../state/envelope-identity.js';

/** `<job>/<key>`: the identity of an envelope or account, forever. */
export function identityOf(item: { job: string; key: string }): string {
  return identityOfParts(item.job, item.key);
}

/** The envelope's `transactionId` (Swagger envelopeDefinition.transactionId), stable across runs. */
export function transactionIdOf(item: { job: string; key: string }): string {
  return transactionIdOfParts(item.job, item.key);
}
