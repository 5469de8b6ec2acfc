import type { Auth } from '../../client/auth.js';
import type { EsignatureClient } from '../../client/esignature-client.js';
import { adminBaseOf } from '../../client/admin/admin-base.js';
import type { AdminClient } from '../../client/admin/admin-client.js';
import { realTiming } from '../../client/timing.js';
import { accountSettingNames } from '../../envelope/account-setting-names.js';
import { builtInGroups, sameName } from '../../envelope/account-role-settings.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { organizationAccess } from '../organization/admin-access.js';
import { exportedSettings } from '../resources/kinds/account-settings.js';

// `signrun import account --organization <id>`: what an account of an
// organisation is to its organisation (DocuSign's Admin API) — its name
// among the organisation's asset-group accounts, and its settings as the
// organisation's settings export gives them (the read resources/kinds/account-settings.ts
// makes for `plan`, so `plan` of the written entry compares like with like),
// and its groups as the organisation lists them (resources/kinds/groups.ts).

/** An account of an organisation, as its Admin API reads it. */
export interface OrganizationAccountReading {
  organizationId: string;
  accountId: string;
  accountName: string;
  /** Its settings that signrun keeps as code (DocuSign's "true"/"false" as booleans, as the example writes them). */
  settings: Record<string, string | boolean>;
  /** Its groups (DocuSign's DS groups, by name; the built-in ones left out, as for any account). */
  groups: string[];
  /** Settings the export gave whose names a job file cannot hold (not accountSettingsInformation's). */
  unknownSettings: string[];
}

const tag = 'import-account';

/**
 * An account the organisation made (its creations and clones name it, by id
 * or name) that its asset-group accounts no longer list was closed
 * (organization/organization-accounts.ts): SR_IMPORT_ACCOUNT_CLOSED.
 */
async function refuseClosed(
  admin: AdminClient,
  organizationId: string,
  reference: string,
  shown: string,
): Promise<void> {
  const [creations, clones] = await Promise.all([admin.accountCreations({ tag }), admin.accountClones({ tag })]);
  const made = [...creations, ...clones]
    .map((w) => w.targetAccount)
    .find((t) => t?.id && (t.id.toLowerCase() === reference.toLowerCase() || t.name === reference));
  if (made?.id)
    throw new SignrunError(
      'SR_IMPORT_ACCOUNT_CLOSED',
      `account "${made.name ?? reference}" (${made.id}) of organisation ${organizationId} is closed: the organisation made it, but its asset-group accounts no longer list it; its accounts: ${shown}`,
      { details: { reference, organizationId, accountId: made.id } },
    );
}

/**
 * Reads the account of `organizationId` whose accountId, or exact name, is
 * `reference` (SR_IMPORT_ACCOUNT_NOT_FOUND, listing the organisation's
 * accounts, when none is; a name two accounts share is refused as
 * SR_IMPORT_ACCOUNT_AMBIGUOUS). Logged in as `plan` logs in to the Admin API.
 */
export async function readOrganizationAccount(
  client: EsignatureClient,
  target: { rootUrl: string; auth: Auth; adminBase?: string },
  organizationId: string,
  reference: string | undefined,
): Promise<OrganizationAccountReading> {
  const main = await client.login({ tag });
  const access = organizationAccess({
    client,
    auth: target.auth,
    base: target.adminBase ?? adminBaseOf({ rootUrl: target.rootUrl }),
    userId: main.userId,
    integratorKey: target.auth.kind === 'legacy' ? target.auth.integratorKey : undefined,
  });
  const admin = await access.admin(organizationId);
  const accounts = await admin.assetGroupAccounts({ tag });
  const shown = accounts.map((a) => `"${a.accountName ?? '(no name)'}" (${a.accountId})`).join(', ') || 'none';
  if (reference === undefined)
    throw new SignrunError(
      'SR_IMPORT_ACCOUNT_NOT_FOUND',
      `with --organization, name the account to import (its accountId or exact name); organisation ${organizationId} has ${shown}`,
      { details: { organizationId } },
    );
  const byId = accounts.filter((a) => a.accountId?.toLowerCase() === reference.toLowerCase());
  const chosen = byId.length > 0 ? byId : accounts.filter((a) => a.accountName === reference);
  if (chosen.length > 1)
    throw new SignrunError(
      'SR_IMPORT_ACCOUNT_AMBIGUOUS',
      `${chosen.length} accounts of organisation ${organizationId} are named "${reference}": import one by its accountId (npx signrun import account ${chosen[0]!.accountId} --organization ${organizationId})`,
      { details: { reference, accountIds: chosen.map((a) => a.accountId) } },
    );
  const account = chosen[0];
  if (!account?.accountId) await refuseClosed(admin, organizationId, reference, shown);
  if (!account?.accountId)
    throw new SignrunError(
      'SR_IMPORT_ACCOUNT_NOT_FOUND',
      `organisation ${organizationId} has no account with accountId or name "${reference}"; its accounts: ${shown}`,
      { details: { reference, organizationId } },
    );
  const exported = await exportedSettings({ admin, accountId: account.accountId, delay: realTiming.delay }, tag);
  const settings: Record<string, string | boolean> = {};
  const unknownSettings: string[] = [];
  for (const [name, value] of Object.entries(exported).sort(([a], [b]) => a.localeCompare(b))) {
    if (!accountSettingNames.includes(name)) unknownSettings.push(name);
    else settings[name] = value === 'true' ? true : value === 'false' ? false : value;
  }
  const groups = (await admin.accountGroups(account.accountId, { tag }))
    .flatMap((g) => (g.name && !builtInGroups.some((b) => sameName(b, g.name!)) ? [g.name] : []))
    .sort((a, b) => a.localeCompare(b));
  return {
    organizationId,
    groups,
    accountId: account.accountId,
    accountName: account.accountName ?? account.accountId,
    settings,
    unknownSettings,
  };
}
