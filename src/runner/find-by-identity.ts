import type { AccountClient } from '../client/esignature-client.js';
import type { FoundEnvelope } from '../state/create-once.js';
import { digestFieldName, identityFieldName } from './identity.js';

/** Lookups go back this far: an envelope sent by any earlier run must be found. */
const lookupFromDate = '2000-01-01T00:00:00Z';

/**
 * The envelope carrying this identity on the service: one status-changes
 * listing (GET …/envelopes, `#/paths/~1v2~1accounts~1{accountId}~1envelopes/get`)
 * with the `custom_field=signrun=<identity>` filter; undefined when there is
 * none. Read-only: the runner's create step and `signrun plan` both use it.
 */
export async function findByIdentity(
  account: AccountClient,
  identity: string,
  options: { tag?: string } = {},
): Promise<FoundEnvelope | undefined> {
  const listed = await account.listEnvelopeStatusChanges(
    { fromDate: lookupFromDate, customField: { name: identityFieldName, value: identity } },
    options.tag !== undefined ? { tag: options.tag } : {},
  );
  const found = (listed.envelopes ?? []).find((e) => e.envelopeId);
  if (!found) return undefined;
  const digest = found.customFields?.textCustomFields?.find((f) => f.name === digestFieldName)?.value;
  return { envelopeId: found.envelopeId, ...(digest !== undefined ? { digest } : {}) };
}
