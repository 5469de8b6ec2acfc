import type { ResolvedAccount } from '../../jobs/model.js';
import type { AdminClient } from '../../client/admin/admin-client.js';
import type { EsignatureClient } from '../../client/esignature-client.js';
import type { AssetGroupAccountClone, SubAccountCreateWorker } from '../../client/admin/admin-wire.js';
import type { AccountProgress } from '../../state/journal-progress.js';
import { isSignrunError, SignrunError } from '../../errors/signrun-error.js';
import type { AccountDecision, OrganizationProvision } from '../plan-types.js';
import { workState, type OrganizationRecord, type WorkInFlight } from './organization-record.js';

// An account entry with `organizationId`: provisioned through DocuSign's
// Admin API (DESIGN.md, "Organisations as code") — created from the
// organisation's plan item, or cloned (`cloneOf`) — exactly once: the
// organisation's asset-group accounts are the record (by the account's
// name), and its creations and clones still running are followed, never
// asked again. The one place that decides and provisions such an account;
// the account's pipeline (resources/account/account-pipeline.ts) calls it instead of
// the distributor path.

/** Whether an entry is provisioned through its organisation. */
export function provisionedByOrganization(account: ResolvedAccount): boolean {
  return account.organization !== undefined;
}

/** How the entry's clone source is written: an entry's key, or an accountId. */
function cloneSourceOf(account: ResolvedAccount): string | undefined {
  const from = account.organization?.cloneOf;
  return from === undefined ? undefined : 'key' in from ? from.key : from.accountId;
}

/**
 * The decision for an entry of the organisation, from what the organisation
 * lists (`record`; absent: offline, from the journal alone) and the journal.
 * The calls a create or clone costs: the request, about two looks at its
 * status, and one listing of the new account's users (its administrator's id).
 */
export function decideOrganizationAccount(
  account: ResolvedAccount,
  record: OrganizationRecord | undefined,
  journalled: AccountProgress | undefined,
): { decision: AccountDecision; apiCalls: number } {
  const known = account.accountId ?? (journalled?.present ? journalled.accountId : undefined);
  const named = record?.accountNamed(account.accountName);
  const provision = (follow?: WorkInFlight): { decision: AccountDecision; apiCalls: number } => {
    const cloneOf = cloneSourceOf(account);
    const organization: OrganizationProvision = { ...(cloneOf ? { cloneOf } : {}), ...(follow ? { follow } : {}) };
    return { decision: { action: 'create', organization }, apiCalls: follow ? 3 : 4 };
  };
  if (account.state === 'absent') {
    // `state: absent` closes the account as DocuSign does: its Admin API has no close, so eSignature's
    // DELETE /v2.1/accounts/{accountId} with the run's own token — the organisation's administrator,
    // whom DocuSign lets close the accounts the organisation made ("you must be an account admin").
    // One call. The organisation's asset-group accounts are the record: an account they no longer
    // list is closed (or never was) — already absent, no call — so a run killed after the close
    // finds it so and never closes twice. The journal's (or the entry's) accountId names the account;
    // else its name. Offline (no record): the journal alone.
    const id = record ? (known ? record.accountById(known) : named)?.accountId : known;
    return id
      ? {
          decision: { action: 'delete', accountId: id, organizationId: account.organization!.id },
          apiCalls: closeCalls,
        }
      : { decision: { action: 'already-absent' }, apiCalls: 0 };
  }
  if (!record) return known ? { decision: { action: 'up-to-date', accountId: known }, apiCalls: 0 } : provision();
  if (known && record.accountById(known)) return { decision: { action: 'up-to-date', accountId: known }, apiCalls: 0 };
  if (named?.accountId)
    return journalled?.present && journalled.accountId === named.accountId
      ? { decision: { action: 'up-to-date', accountId: named.accountId }, apiCalls: 0 }
      : { decision: { action: 'adopt', accountId: named.accountId }, apiCalls: 0 };
  return provision(record.workFor(account.accountName));
}

/** The calls closing an organisation's account costs: the DELETE alone. */
const closeCalls = 1;

/**
 * What `plan` says of an organisation's entry it creates or closes: `create account (through organisation …)`,
 * `clone account (of …)`, `close account (DELETE /v2.1/accounts/…, as the organisation's administrator)`.
 */
export function organizationActionWords(
  account: ResolvedAccount | undefined,
  decision: AccountDecision,
): string | undefined {
  if (decision.action === 'delete' && decision.organizationId)
    return `close account (DELETE /v2.1/accounts/${decision.accountId}, as organisation ${decision.organizationId}'s administrator)`;
  if (decision.action !== 'create' || !decision.organization) return undefined;
  const { cloneOf, follow } = decision.organization;
  const what = cloneOf
    ? `clone account (of ${cloneOf})`
    : `create account (through organisation ${account?.organization?.id ?? ''})`.replace(' )', ')');
  return follow ? `${what}, following the ${follow.kind} the organisation is working on` : what;
}

/** What provisioning an account through its organisation needs from the run. */
export interface ProvisionContext {
  admin: AdminClient;
  record: OrganizationRecord;
  tag: string;
  /** The accountId of another entry of the run (a clone's source), once it exists. */
  accountIdOf(key: string): Promise<string>;
  /** Waits between two looks at the work's status (the run's clock). */
  delay: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
}

/**
 * Closes an organisation's account (the decision above): one DELETE, never
 * sent again (`once`). When it fails, the organisation's asset-group accounts
 * say what happened: an account they no longer list is closed (the close went
 * through and its answer was lost, or someone closed it meanwhile); else the
 * failure is the account's.
 */
export async function closeThroughOrganization(
  accountId: string,
  client: Pick<EsignatureClient, 'deleteAccount'>,
  admin: AdminClient,
  tag: string,
): Promise<void> {
  try {
    await client.deleteAccount(accountId, { tag, once: true });
  } catch (error) {
    const listed = await admin.assetGroupAccounts({ tag }).catch(() => undefined);
    if (listed && !listed.some((a) => a.accountId?.toLowerCase() === accountId.toLowerCase())) return;
    throw error;
  }
}

/** The first wait before looking at a work again, ms; it doubles up to {@link maxPollMs}. */
const firstPollMs = 250;
const maxPollMs = 5_000;

/**
 * Creates or clones the account (or follows the work a stopped run left
 * running) and follows the work to its end: the new account's id, and its
 * administrator's user id when the organisation lists them. Throws
 * SR_ACCOUNT_FAILED when the organisation says the work failed, and
 * SR_ACCOUNT_CLONE_UNKNOWN, before asking anything, for a source the
 * organisation does not hold.
 */
export async function provisionThroughOrganization(
  account: ResolvedAccount,
  provision: OrganizationProvision,
  ctx: ProvisionContext,
): Promise<{ accountId: string; userId?: string }> {
  const work = provision.follow ?? (await askForWork(account, provision, ctx));
  const accountId = await followWork(account, work, ctx);
  const admin = account.organization?.admin?.email.toLowerCase();
  const users = admin ? await ctx.admin.users(accountId, { tag: ctx.tag }) : [];
  const userId = users.find((u) => u.email?.toLowerCase() === admin)?.id;
  return { accountId, ...(userId ? { userId } : {}) };
}

async function askForWork(
  account: ResolvedAccount,
  provision: OrganizationProvision,
  ctx: ProvisionContext,
): Promise<WorkInFlight> {
  const organization = account.organization!;
  const admin = organization.admin ?? { email: '' };
  const target = {
    name: account.accountName,
    ...(organization.countryCode ? { countryCode: organization.countryCode } : {}),
    admin,
  };
  const from = organization.cloneOf;
  if (from) {
    const sourceId = 'key' in from ? await sourceAccountId(account, from.key, ctx) : from.accountId;
    // A source outside the organisation is refused here, before the clone is asked for.
    if ('accountId' in from && !ctx.record.accountById(sourceId))
      throw new SignrunError(
        'SR_ACCOUNT_CLONE_UNKNOWN',
        `${ctx.tag}: cloneOf ${sourceId} is not an account of organisation ${organization.id} (its asset-group accounts do not list it)`,
        { location: account.source },
      );
    const asked: AssetGroupAccountClone = await ctx.admin.cloneAccount(
      { sourceAccount: { id: sourceId }, targetAccount: target },
      { tag: ctx.tag },
    );
    return { kind: 'clone', assetGroupId: asked.assetGroupId!, workId: asked.assetGroupWorkId! };
  }
  const items = await ctx.admin.planItems({ tag: ctx.tag });
  const wanted = account.planInformation?.planId;
  const item = wanted ? items.find((i) => i.plan_id === wanted) : items.length === 1 ? items[0] : undefined;
  if (!item?.plan_id)
    throw new SignrunError(
      'SR_ACCOUNT_FAILED',
      `${ctx.tag}: organisation ${organization.id} has ${wanted ? `no plan item of plan ${wanted}` : `${items.length} plan items`}: give planInformation.planId (one of ${items.map((i) => i.plan_id).join(', ') || 'none'})`,
      { location: account.source },
    );
  const created = await ctx.admin.createAccount(
    {
      subscriptionDetails: {
        planId: item.plan_id,
        ...(item.subscription_id ? { id: item.subscription_id } : {}),
        modules: [],
      },
      targetAccount: target,
    },
    { tag: ctx.tag },
  );
  const w = created.AssetGroupWork!;
  return { kind: 'create', assetGroupId: w.AssetGroupId!, workId: w.AssetGroupWorkId! };
}

/**
 * The account of the entry a clone copies, once the run has it. When the
 * run could not make it, the clone is not asked for, and the error says
 * so in this entry's words (not the source's message alone, which names
 * the source as if it were this entry).
 */
async function sourceAccountId(account: ResolvedAccount, key: string, ctx: ProvisionContext): Promise<string> {
  try {
    return await ctx.accountIdOf(key);
  } catch (error) {
    if (ctx.signal?.aborted)
      throw new SignrunError(
        'SR_INTERRUPTED',
        `${ctx.tag}: interrupted (Ctrl-C or SIGTERM) before the account it clones (entry ${key}) existed: its clone was not asked for; run the same command again`,
        { location: account.source },
      );
    throw new SignrunError(
      'SR_ACCOUNT_FAILED',
      `${ctx.tag}: the account it clones (entry ${key}) could not be made, so its clone was not asked for (${error instanceof Error ? error.message : String(error)})`,
      { location: account.source },
    );
  }
}

/**
 * Looks at the work until it is over, waiting longer each time: the new
 * account's id. Stopped by the run's signal (Ctrl-C, SIGTERM), it leaves the
 * work to the organisation (SR_INTERRUPTED): the next run finds it running
 * or done and follows it, never asking again.
 */
async function followWork(account: ResolvedAccount, work: WorkInFlight, ctx: ProvisionContext): Promise<string> {
  try {
    return await followWorkToItsEnd(account, work, ctx);
  } catch (error) {
    if (!ctx.signal?.aborted || isSignrunError(error)) throw error;
    throw new SignrunError(
      'SR_INTERRUPTED',
      `${ctx.tag}: interrupted (Ctrl-C or SIGTERM) while the organisation ${work.kind === 'create' ? 'creates' : 'clones'} account "${account.accountName}" (its work ${work.workId}): the organisation goes on with it; run the same command again to follow it to its end (it is not asked for again)`,
      { location: account.source },
    );
  }
}

async function followWorkToItsEnd(
  account: ResolvedAccount,
  work: WorkInFlight,
  ctx: ProvisionContext,
): Promise<string> {
  let wait = firstPollMs;
  for (;;) {
    const status: SubAccountCreateWorker | AssetGroupAccountClone =
      work.kind === 'create'
        ? await ctx.admin.accountCreation(work.assetGroupId, work.workId, { tag: ctx.tag })
        : await ctx.admin.accountClone(work.assetGroupId, work.workId, { tag: ctx.tag });
    const state = workState(status.status);
    if (state === 'done') {
      const id =
        status.targetAccount?.id ??
        (await ctx.admin.assetGroupAccounts({ tag: ctx.tag })).find(
          (a) => a.accountName?.toLowerCase() === account.accountName.toLowerCase(),
        )?.accountId;
      if (!id)
        throw new SignrunError(
          'SR_ACCOUNT_FAILED',
          `${ctx.tag}: the organisation's ${work.kind} ${work.workId} completed without naming the account`,
          {
            location: account.source,
          },
        );
      return id;
    }
    if (state === 'failed') {
      const failure =
        'createAccountProcessingFailureDetails' in status
          ? status.createAccountProcessingFailureDetails
          : 'cloneProcessingFailureDetails' in status
            ? status.cloneProcessingFailureDetails
            : undefined;
      throw new SignrunError(
        'SR_ACCOUNT_FAILED',
        `${ctx.tag}: the organisation's ${work.kind} of account "${account.accountName}" failed (${status.status}${failure?.errorDescription ? `: ${failure.errorDescription}` : status.message ? `: ${status.message}` : ''})`,
        { location: account.source },
      );
    }
    await ctx.delay(wait, ctx.signal);
    wait = Math.min(wait * 2, maxPollMs);
  }
}
