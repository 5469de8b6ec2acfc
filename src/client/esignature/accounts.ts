import type { CallOptions } from '../call-options.js';
import { inVersion } from '../api-version.js';
import type { AccountInformation, LoginInformation, NewAccountDefinition, NewAccountSummary } from '../wire-types.js';
import { requiredString, type Transport } from './account-scope.js';
import { esignatureEndpoints } from './endpoints.js';

/** The address of an account-level operation under the client's root (`…/restapi/v2.1`), in its own version if it has one. */
function rootUrlOf(
  client: Transport,
  operation: 'loginInformation' | 'getAccount' | 'createAccount' | 'deleteAccount',
  accountId?: string,
): string {
  const endpoint: { path: string; version?: 'v2' | 'v2.1' } = esignatureEndpoints[operation];
  const root = endpoint.version ? inVersion(client.rootUrl, endpoint.version) : client.rootUrl;
  return `${root}${endpoint.path.replace('{accountId}', encodeURIComponent(accountId ?? ''))}`;
}

/**
 * GET /v2/login_information (service-api.md 4.1). v2.1 has no such call: a
 * v2.1 client asks v2's, on the same server.
 */
export async function loginInformation(client: Transport, options: CallOptions = {}): Promise<LoginInformation> {
  const url = rootUrlOf(client, 'loginInformation');
  const response = await client.request({ method: 'GET', url, operation: 'loginInformation' }, options);
  return response.json as LoginInformation;
}

/** GET /v2/accounts/{accountId} (4.2). */
export async function getAccount(
  client: Transport,
  accountId: string,
  options: CallOptions = {},
): Promise<AccountInformation> {
  const url = rootUrlOf(client, 'getAccount', accountId);
  const response = await client.request({ method: 'GET', url, operation: 'getAccount' }, options);
  return response.json as AccountInformation;
}

/**
 * POST /v2/accounts (4.3). Not idempotent: never retried after the service
 * may have acted. In v2.1 the account's and the user's settings are objects
 * (accountSettingsInformation, userSettingsInformation), not v2's lists of
 * name/value pairs: the client sends each version its shape.
 */
export async function createAccount(
  client: Transport,
  definition: NewAccountDefinition,
  options: CallOptions = {},
): Promise<NewAccountSummary> {
  const request = { method: 'POST' as const, url: rootUrlOf(client, 'createAccount'), operation: 'createAccount' };
  const body = client.apiVersion === 'v2' ? definition : newAccountDefinitionV21(definition);
  const response = await client.request({ ...request, body, idempotent: false }, options);
  const summary = response.json as NewAccountSummary | undefined;
  // A missing body is the same bad answer as a body without the id.
  requiredString(summary ?? {}, 'accountId', request);
  return summary as NewAccountSummary;
}

/**
 * DELETE /v2/accounts/{accountId} (4.4): the client must be logged in as an
 * admin of that account. `once`: never sent again after a failure the
 * service may have acted on (closing is final: a second close is refused;
 * the caller reads its record instead).
 */
export async function deleteAccount(
  client: Transport,
  accountId: string,
  options: CallOptions & { once?: boolean } = {},
): Promise<void> {
  const { once, ...call } = options;
  await client.request(
    {
      method: 'DELETE',
      url: rootUrlOf(client, 'deleteAccount', accountId),
      operation: 'deleteAccount',
      ...(once ? { idempotent: false } : {}),
    },
    call,
  );
}

/** v2's name/value settings as v2.1's settings object. */
function settingsObject(settings: unknown): unknown {
  if (!Array.isArray(settings)) return settings;
  const out: Record<string, unknown> = {};
  for (const item of settings as Array<{ name?: unknown; value?: unknown }>) {
    if (item && typeof item.name === 'string') out[item.name] = item.value;
  }
  return out;
}

/**
 * The v2.1 shape of an account definition written in v2's: settings as
 * objects, and the unused objects left out rather than sent as the nulls of
 * service-api.md 4.3 (v2.1's Swagger types them as objects).
 */
export function newAccountDefinitionV21(definition: NewAccountDefinition): unknown {
  const kept = Object.fromEntries(Object.entries(definition).filter(([, value]) => value !== null));
  return {
    ...kept,
    accountSettings: settingsObject(definition.accountSettings),
    initialUser: { ...definition.initialUser, userSettings: settingsObject(definition.initialUser.userSettings) },
  };
}
