import type { ResolvedAccount, Secret } from '../../../jobs/model.js';
import type { EsignatureClient } from '../../../client/esignature-client.js';
import type { NewAccountDefinition } from '../../../client/wire-types.js';
import { SignrunError } from '../../../errors/signrun-error.js';
import { ClientHttpError } from '../../../client/client-errors.js';
import type { OutputFolder } from '../../../output/output-folder.js';
import { readRecord, type AccountRecord } from '../../../output/records.js';
import { itemFile, itemFolder } from '../../../output/output-paths.js';
import type { Journal } from '../../../state/journal.js';
import type { AccountProgress } from '../../../state/journal-progress.js';
import type { AccountDecision, AccountPlan, OrganizationProvision } from '../../plan-types.js';
import type { OrganizationRun } from '../../organization/organization-run.js';
import { closeThroughOrganization, provisionThroughOrganization } from '../../organization/organization-accounts.js';
import type { AccountClient } from '../../../client/esignature-client.js';
import type { ServiceLedger } from '../../envelopes/service-ledger.js';
import { deleteLosingDrafts } from '../../envelopes/envelope-pipeline.js';
import { accountFieldName, claimIdentityOf, identityFieldName, jobFieldName } from '../../identity.js';
import { itemErrorOf } from '../../envelopes/envelope-pipeline.js';
import type { AccountResult } from '../../run-summary.js';
import type { AccountItemProgress } from '../../../state/journal-progress.js';
import { convergeContents } from './account-contents-pipeline.js';
import { accountUserId, peopleOf, readPeople, unusedPeople } from './account-contents-plan.js';
import { resourceKindOf, resourceKinds } from '../resource-kinds.js';
import { keptThroughOrganization, type OrganizationContext } from '../resource-kind.js';
import type { AccountItemResult } from '../../run-results.js';
import { identityOf } from '../../identity.js';

/** What the account pipeline needs from the run. */
export interface AccountContext {
  /** Logged in as the main (distributor) account's user. */
  client: EsignatureClient;
  out: OutputFolder;
  rootUrl: string;
  now: () => Date;
  /** Distributor credentials for account creation (service-api.md 4.3). */
  distributor?: { code: string; password: Secret };
  /** The main account's integrator key: a subsidiary's user logs in with it (service-api.md 5). */
  integratorKey?: string;
  usageOf(tag: string): { calls: number; retries: number };
  /** Where each step is recorded (the single record of progress). */
  journal: Journal;
  /** What the journal of earlier runs says of an account (its userId, to delete it). */
  progressOf?: (id: string) => AccountProgress | undefined;
  /** The service's listing (present when runners may race): accounts are claimed before they are created. */
  ledger?: ServiceLedger;
  /** The main account (claims are drafts there). */
  account?: AccountClient;
  /** What the journal of earlier runs says of the accounts' profiles, groups and users (changed outside signrun). */
  accountItems?: ReadonlyMap<string, AccountItemProgress>;
  /** The organisations' Admin API, for entries with organizationId (organization/organization-run.ts). */
  organizations?: OrganizationRun;
}

/**
 * Claims the account before creating it (docs/exactly-once.md, "Accounts"):
 * a draft envelope carrying `<job>/<key>#account`, confirmed by the batched
 * listing as the earliest claim; later claims are deleted. A claim this
 * state made earlier (a crash before the account was created) counts as its own.
 */
async function claimAccount(
  account: ResolvedAccount,
  ctx: AccountContext,
  tag: string,
): Promise<{ claimId: string; winner: string; accountId?: string }> {
  const ledger = ctx.ledger!;
  const main = ctx.account!;
  const claimIdentity = claimIdentityOf(account.job, account.key);
  const summary = await main.createEnvelope(
    {
      emailSubject: `signrun: claim of account ${account.accountName}`,
      status: 'created',
      customFields: {
        textCustomFields: [
          { name: identityFieldName, value: claimIdentity, show: 'false' },
          { name: jobFieldName, value: account.job, show: 'false' },
        ],
      },
    },
    // A duplicate claim is harmless: it loses to the earlier one and is deleted.
    { tag, repeatable: true },
  );
  await ledger.refresh(account.job);
  const winner = ledger.winnerOf(claimIdentity);
  if (!winner)
    throw new SignrunError('SR_ACCOUNT_FAILED', `${tag}: the claim ${summary.envelopeId} is not listed by the service`);
  const losers = ledger.losersOf(claimIdentity, winner);
  if (losers.length > 0) {
    await deleteLosingDrafts(
      main,
      losers.map((l) => l.envelopeId),
      tag,
    );
    for (const loser of losers) ledger.note(claimIdentity, loser.envelopeId, 'deleted');
  }
  const ownEarlier = ctx.progressOf?.(tag)?.claims.includes(winner.envelopeId) === true;
  // An earlier claim of this state won (the run stopped before creating the account): it is this run's.
  const claimId = ownEarlier ? winner.envelopeId : summary.envelopeId;
  return {
    claimId,
    winner: winner.envelopeId,
    ...(winner.accountId ? { accountId: winner.accountId } : {}),
  };
}

/** One account's run as its steps share it: the plan, the result they fill in, where account.json goes. */
interface AccountStep {
  plan: AccountPlan & { account: ResolvedAccount };
  account: ResolvedAccount;
  ctx: AccountContext;
  /** `<job>/<key>`: the journal's id and the request log's tag. */
  tag: string;
  result: AccountResult;
  /** The account's folder in the output (account.json). */
  folder: string;
}

/**
 * Whether carrying out the decision claims the account first (a draft in the
 * main account, confirmed by the service's listing, when runners may race):
 * a new subsidiary does; a recreation, and an organisation's account (its
 * Admin API is the record), do not. The run counts these among a job's
 * drafts to confirm (run.ts).
 */
export function claimsFirst(decision: AccountDecision): boolean {
  return decision.action === 'create' && !decision.organization;
}

/**
 * Executes the plan of one subsidiary account (decide.ts decided; service-api.md
 * 4.12 sequence 3): `create`/`recreate` creates it — a new account awaits
 * activation by its user, which is reported, not failed; `delete` logs in as
 * the account's own user (username = userId, its password, the main
 * integrator key) and deletes it. Each step is journalled; account.json is
 * an output, never read back. Never throws.
 */
export async function runAccount(
  plan: AccountPlan & { account: ResolvedAccount },
  ctx: AccountContext,
): Promise<AccountResult> {
  const { account, decision } = plan;
  const tag = plan.identity;
  const startedAt = ctx.now();
  const result: AccountResult = {
    job: account.job,
    key: account.key,
    source: account.source,
    state: account.state,
    outcome: 'failed',
    files: [],
    apiCalls: 0,
    retries: 0,
  };
  const step: AccountStep = { plan, account, ctx, tag, result, folder: itemFolder(account.job, account.key) };
  try {
    ctx.out.join(account.job, account.key);
    if ('accountId' in decision) result.accountId = decision.accountId;
    const userId = account.userId ?? ctx.progressOf?.(tag)?.userId;
    if (userId) result.userId = userId;
    switch (decision.action) {
      case 'up-to-date':
        await keepAccount(step, decision.accountId, userId);
        break;
      case 'already-absent':
        result.outcome = 'already-absent';
        break;
      case 'adopt':
        // Created by another run (its claim, or its organisation, names it): journalled here as found.
        await ctx.journal.append({
          kind: 'account',
          id: tag,
          step: 'created',
          accountId: decision.accountId,
          adopted: true,
        });
        result.outcome = 'up-to-date';
        await convergeAccountContents(plan, decision.accountId, ctx, result);
        break;
      case 'create':
      case 'recreate':
        if (decision.action === 'create' && decision.organization)
          await createThroughOrganization(plan, decision.organization, ctx, result);
        else await createSubsidiary(step, claimsFirst(decision));
        break;
      case 'delete':
        await deleteSubsidiary(step, decision.accountId, userId);
        break;
    }
    return result;
  } catch (error) {
    // An account made before the failure (its contents failed) is known all the same: a clone of it may go on.
    if (!result.accountId) ctx.organizations?.failed(tag, error);
    result.outcome = 'failed';
    result.error = itemErrorOf(error, decision.action);
    return result;
  } finally {
    const usage = ctx.usageOf(tag);
    result.apiCalls = usage.calls;
    result.retries = usage.retries;
    result.startedAt = startedAt.toISOString();
    result.durationMs = ctx.now().getTime() - startedAt.getTime();
  }
}

/**
 * An account that is there: its contents converged, and account.json made
 * true again — written when the journal's `created` promised it and it is
 * gone (issue 25: the plan has just read the account, it is there), and no
 * longer saying it awaits activation once it is active.
 */
async function keepAccount(step: AccountStep, accountId: string, userId: string | undefined): Promise<void> {
  const { plan, account, ctx, tag, result } = step;
  result.outcome = 'up-to-date';
  await convergeAccountContents(plan, accountId, ctx, result);
  const path = itemFile(step.folder, 'account');
  const written = await readRecord<AccountRecord>(ctx.out.root, path).catch(() => undefined);
  // Activated: its user logged in to keep its contents, or its distributor reads it so.
  if (written?.state === 'awaiting-activation' && !result.awaitingActivation) {
    const activated = result.contents !== undefined || (await activationOf(ctx, accountId, tag)) === 'done';
    if (activated)
      result.files.push(await ctx.out.writeJson(path, { ...written, state: 'present' } satisfies AccountRecord));
  }
  if (ctx.progressOf?.(tag)?.present && userId && !written) {
    result.files.push(
      await ctx.out.writeJson(path, {
        job: account.job,
        key: account.key,
        accountName: account.accountName,
        accountId,
        userId,
        rootUrl: ctx.rootUrl,
        state: 'present',
      } satisfies AccountRecord),
    );
  }
}

/**
 * Creates the account through the distributor path: claimed first when
 * runners may race (`claim`: a create, not a recreate; another run's
 * earlier claim makes the account its), its intent and its creation
 * journalled, account.json written. It then awaits its user's activation:
 * its contents are `not-started`, kept by a run after it.
 */
async function createSubsidiary(step: AccountStep, claim: boolean): Promise<void> {
  const { plan, account, ctx, tag, result } = step;
  let claimId: string | undefined;
  if (ctx.ledger && claim) {
    const claimed = await claimAccount(account, ctx, tag);
    if (claimed.winner !== claimed.claimId) {
      // Another run claimed it first: it creates the account, this one does not.
      if (claimed.accountId) {
        result.accountId = claimed.accountId;
        await ctx.journal.append({
          kind: 'account',
          id: tag,
          step: 'created',
          accountId: claimed.accountId,
          adopted: true,
        });
      }
      result.outcome = 'up-to-date';
      return;
    }
    claimId = claimed.claimId;
  }
  await ctx.journal.append({ kind: 'account', id: tag, step: 'create-intent', ...(claimId ? { claimId } : {}) });
  const created = await createAccount(account, ctx, tag);
  if (claimId)
    await ctx.account?.addTextCustomFields(claimId, [{ name: accountFieldName, value: created.accountId }], { tag });
  await recordCreated(account, tag, ctx, result, created, 'awaiting-activation');
  result.awaitingActivation = true;
  // Its people wait for the activation: its user cannot log in before (a run after it converges them).
  if (plan.contents && plan.contents.items.length > 0)
    result.contents = plan.contents.items.map((i) => ({ kind: i.kind, name: i.name, outcome: 'not-started' }));
}

/** Deletes the account, logged in as its own user (the configured login acting as that user); account.json says so. */
async function deleteSubsidiary(step: AccountStep, accountId: string, userId: string | undefined): Promise<void> {
  const { account, ctx, tag, result } = step;
  if (account.organization) {
    await closeThroughOrganization(
      accountId,
      ctx.client,
      await organizationsOf(ctx, account).admin(account.organization.id),
      tag,
    );
    await ctx.journal.append({ kind: 'account', id: tag, step: 'deleted', accountId });
    result.files.push(
      await ctx.out.writeJson(itemFile(step.folder, 'account'), deletedRecord(account, accountId, userId, ctx)),
    );
    result.outcome = 'deleted';
    return;
  }
  if (!userId) {
    throw new SignrunError(
      'SR_ACCOUNT_IDS_UNKNOWN',
      `${tag}: to delete account ${accountId} signrun logs in as its user, but the userId is not known`,
      { location: account.source },
    );
  }
  const asUser = ctx.client.asUser(
    { userId, accountId, ...(account.initialUser?.password ? { password: account.initialUser.password } : {}) },
    ctx.integratorKey,
  );
  const session = await asUser.login({ tag });
  await asUser.deleteAccount(session.accountId === accountId ? session.accountId : accountId, { tag });
  await ctx.journal.append({ kind: 'account', id: tag, step: 'deleted', accountId });
  result.files.push(
    await ctx.out.writeJson(itemFile(step.folder, 'account'), deletedRecord(account, accountId, userId, ctx)),
  );
  result.outcome = 'deleted';
}

/**
 * Converges the account's users, groups, permission profiles, brands, Connect configurations and templates (the plan's
 * `contents`), logged in as the account's own user; a failed item fails
 * the account (SR_ACCOUNT_FAILED) with the others' outcomes kept.
 */
async function convergeAccountContents(
  plan: AccountPlan & { account: ResolvedAccount },
  accountId: string,
  ctx: AccountContext | (Omit<AccountContext, 'organizations'> & { organizations: undefined }),
  result: AccountResult,
  /** The organisation's items, already converged: only the account's own are left (its user's login). */
  before?: AccountItemResult[],
): Promise<void> {
  const contents = plan.contents;
  if (!contents || contents.items.length === 0) return;
  const tag = plan.identity;
  const account = plan.account;
  // What the organisation keeps (settings) first, without logging in to the account: then the account's own.
  if (account.organization && before === undefined) {
    const organization = await organizationContextOf(account, accountId, ctx);
    const own = contents.items.filter((i) => keptThroughOrganization(resourceKindOf(i.kind), account));
    // Unread by the plan (the account is new): only the organisation's kinds are read here, as the run's own
    // login; the account's own listings (profiles, users …) answer that login USER_LACKS_MEMBERSHIP.
    const ownKinds = resourceKinds.filter((kind) => keptThroughOrganization(kind, account));
    const converged = await convergeContents(
      account,
      own,
      contents.found ?? (await readPeople(unusedPeople(ctx.client, accountId), tag, account, organization, ownKinds)),
      {
        people: unusedPeople(ctx.client, accountId),
        journal: ctx.journal,
        ...(ctx.accountItems ? { journalled: ctx.accountItems } : {}),
        tag,
        organization,
      },
    );
    const rest = contents.items.filter((i) => !own.includes(i));
    result.contents = converged;
    if (rest.length > 0 && plan.decision.action === 'create') {
      // Made by this run: its administrator is invited and has not signed in, so nobody can log in
      // to it yet; what its own user keeps waits for a run after it (docs/job-files.md, "Organisations").
      result.contents = [
        ...converged,
        ...rest.map((i) => ({ kind: i.kind, name: i.name, outcome: 'not-started' as const })),
      ];
    } else if (rest.length > 0) {
      const others = { ...plan, contents: { ...contents, items: rest } };
      await convergeAccountContents(others, accountId, { ...ctx, organizations: undefined }, result, converged);
    }
    failIfAnyFailed(result, account, tag);
    return;
  }
  const userId = account.userId ?? ctx.progressOf?.(tag)?.userId ?? accountUserId(account);
  if (!userId)
    throw new SignrunError(
      'SR_ACCOUNT_IDS_UNKNOWN',
      `${tag}: to keep its users, groups, permission profiles, brands, Connect configurations and templates signrun logs in as the account's user, but the userId is not known`,
      { location: account.source },
    );
  let people;
  try {
    people = await peopleOf(ctx.client, account, accountId, userId, ctx.integratorKey, tag);
  } catch (error) {
    // Its user cannot log in: if the account still awaits activation (as its distributor reads it),
    // its people wait for it, as a new account does; otherwise the login failure is the account's.
    // An organisation's new account: its administrator has not chosen a password yet (invited), as a distributor's awaits activation.
    if (
      !(error instanceof ClientHttpError && error.status === 401) ||
      !(plan.account.organization !== undefined || (await awaitsActivation(ctx, accountId, tag)))
    )
      throw error;
    result.awaitingActivation = true;
    result.contents = [
      ...(before ?? []),
      ...contents.items.map((i) => ({ kind: i.kind, name: i.name, outcome: 'not-started' as const })),
    ];
    return;
  }
  const found = contents.found ?? (await readPeople(people, tag, account));
  result.contents = [
    ...(before ?? []),
    ...(await convergeContents(account, contents.items, found, {
      people,
      journal: ctx.journal,
      ...(ctx.accountItems ? { journalled: ctx.accountItems } : {}),
      tag,
    })),
  ];
  failIfAnyFailed(result, account, tag);
}

/** account.json of a deleted (closed) account. */
function deletedRecord(
  account: ResolvedAccount,
  accountId: string,
  userId: string | undefined,
  ctx: AccountContext,
): AccountRecord {
  return {
    job: account.job,
    key: account.key,
    accountName: account.accountName,
    accountId,
    userId: userId ?? '',
    rootUrl: ctx.rootUrl,
    state: 'deleted',
    deletedAt: ctx.now().toISOString(),
  };
}

/** The run's organisations, for an entry of one; SR_ACCOUNT_FAILED when the run has no Admin API. */
function organizationsOf(ctx: AccountContext, account: ResolvedAccount): OrganizationRun {
  if (!ctx.organizations)
    throw new SignrunError(
      'SR_ACCOUNT_FAILED',
      `${identityOf(account)}: organisation ${account.organization?.id} cannot be reached (no Admin API)`,
      { location: account.source },
    );
  return ctx.organizations;
}

/** The account's organisation as what it keeps through it reads and writes it. */
async function organizationContextOf(
  account: ResolvedAccount,
  accountId: string,
  ctx: AccountContext,
): Promise<OrganizationContext> {
  if (!ctx.organizations)
    throw new SignrunError(
      'SR_ACCOUNT_FAILED',
      `${identityOf(account)}: organisation ${account.organization?.id} cannot be reached (no Admin API)`,
      {
        location: account.source,
      },
    );
  return { admin: await ctx.organizations.admin(account.organization!.id), accountId, delay: ctx.organizations.delay };
}

/** A failed item fails the account (SR_ACCOUNT_FAILED), the others' outcomes kept. */
function failIfAnyFailed(result: AccountResult, account: ResolvedAccount, tag: string): void {
  const failed = (result.contents ?? []).filter((c) => c.outcome === 'failed');
  if (failed.length > 0)
    throw new SignrunError(
      'SR_ACCOUNT_FAILED',
      `${tag}: ${failed.length} of its permission profiles, groups, users, brands, Connect configurations and templates could not be converged (${failed
        .map((f) => `${f.kind} ${f.name}: ${f.error?.message ?? 'failed'}`)
        .join('; ')})`,
      { location: account.source },
    );
}

/** Whether the distributor reads the account as awaiting its activation (DocuSign's suspensionStatus). */
/** Whether the account still awaits its activation, as its distributor reads it; undefined when it cannot be read. */
async function activationOf(
  ctx: AccountContext,
  accountId: string,
  tag: string,
): Promise<'awaiting' | 'done' | undefined> {
  try {
    const info = await ctx.client.getAccount(accountId, { tag });
    return typeof info['suspensionStatus'] === 'string' && /activation/i.test(info['suspensionStatus'])
      ? 'awaiting'
      : 'done';
  } catch {
    return undefined;
  }
}

async function awaitsActivation(ctx: AccountContext, accountId: string, tag: string): Promise<boolean> {
  return (await activationOf(ctx, accountId, tag)) === 'awaiting';
}

async function createAccount(account: ResolvedAccount, ctx: AccountContext, tag: string) {
  if (!ctx.distributor) {
    throw new SignrunError(
      'SR_DISTRIBUTOR_MISSING',
      `${tag}: creating account "${account.accountName}" needs a distributor code and password`,
      {
        location: account.source,
      },
    );
  }
  const user = account.initialUser;
  if (!user) {
    throw new SignrunError(
      'SR_ACCOUNT_FAILED',
      `${tag}: creating account "${account.accountName}" needs an initialUser`,
      { location: account.source },
    );
  }
  const address = account.addressInformation ?? {};
  // The payload shape of service-api.md 4.3 (Swagger newAccountDefinition):
  // empty strings for unused address fields, nulls for unused objects.
  const definition: NewAccountDefinition = {
    accountName: account.accountName,
    accountSettings: [],
    addressInformation: {
      address1: address.address1 ?? '',
      address2: address.address2 ?? '',
      city: address.city ?? '',
      country: address.country ?? '',
      fax: address.fax ?? '',
      phone: address.phone ?? '',
      postalCode: address.postalCode ?? '',
      state: address.state ?? '',
    },
    creditCardInformation: null,
    distributorCode: ctx.distributor.code,
    distributorPassword: ctx.distributor.password.reveal(),
    initialUser: {
      email: user.email,
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      middleName: user.middleName ?? '',
      password: user.password.reveal(),
      suffixName: user.suffixName ?? '',
      title: user.title ?? '',
      userName: user.userName ?? user.email,
      userSettings: [],
    },
    planInformation: { planId: account.planInformation?.planId ?? '' },
    referralInformation: null,
    socialAccountInformation: null,
  };
  return ctx.client.createAccount(definition, { tag });
}

/**
 * An entry of an organisation created or cloned through its Admin API
 * (organization/organization-accounts.ts), exactly once: journalled before
 * the request; the organisation lists the account (or the work still
 * running) to a later plan. Its account.json says `present` (DocuSign's Admin
 * API makes an active account; its administrator is invited), and what it
 * keeps through the organisation (settings) is converged at once.
 */
async function createThroughOrganization(
  plan: AccountPlan & { account: ResolvedAccount },
  provision: OrganizationProvision,
  ctx: AccountContext,
  result: AccountResult,
): Promise<void> {
  const { account } = plan;
  const tag = plan.identity;
  if (!ctx.organizations)
    throw new SignrunError(
      'SR_ACCOUNT_FAILED',
      `${tag}: organisation ${account.organization?.id} cannot be reached (no Admin API)`,
      {
        location: account.source,
      },
    );
  await ctx.journal.append({ kind: 'account', id: tag, step: 'create-intent' });
  const created = await provisionThroughOrganization(
    account,
    provision,
    await ctx.organizations.contextOf(account, tag),
  );
  ctx.organizations.learned(tag, created.accountId);
  await recordCreated(account, tag, ctx, result, created, 'present');
  await convergeAccountContents(plan, created.accountId, ctx, result);
}

/**
 * What a created account leaves, whichever way it was made: the journal's
 * `created` (a later run adopts the account, never creates it again), its ids
 * on the result, and account.json. A user id the service did not give is left
 * out of the journal and the result, and written empty in account.json.
 */
async function recordCreated(
  account: ResolvedAccount,
  tag: string,
  ctx: AccountContext,
  result: AccountResult,
  created: { accountId: string; userId?: string },
  state: AccountRecord['state'],
): Promise<void> {
  await ctx.journal.append({
    kind: 'account',
    id: tag,
    step: 'created',
    accountId: created.accountId,
    ...(created.userId ? { userId: created.userId } : {}),
  });
  result.accountId = created.accountId;
  if (created.userId) result.userId = created.userId;
  const record: AccountRecord = {
    job: account.job,
    key: account.key,
    accountName: account.accountName,
    accountId: created.accountId,
    userId: created.userId ?? '',
    rootUrl: ctx.rootUrl,
    state,
    createdAt: ctx.now().toISOString(),
  };
  result.files.push(await ctx.out.writeJson(itemFile(itemFolder(account.job, account.key), 'account'), record));
  result.outcome = 'created';
}
