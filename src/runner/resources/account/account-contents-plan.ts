import type { ResolvedAccount } from '../../../jobs/model.js';
import { AccountPeople } from '../../../client/account-people.js';
import { AccountClient, type EsignatureClient } from '../../../client/esignature-client.js';
import { realTiming } from '../../../client/timing.js';
import type { OrganizationAccess } from '../../organization/admin-access.js';
import { keptThroughOrganization, type AccountResourceKind, type OrganizationContext } from '../resource-kind.js';
import type { AccountItemProgress, JournalProgress } from '../../../state/journal-progress.js';
import type { AccountContentsPlan, AccountDecision, AccountItemPlan, FoundPeople } from '../../plan-types.js';
import { identityOf } from '../../identity.js';
import { resourceKinds } from '../resource-kinds.js';

export type { AccountItemAction, AccountItemKind, AccountItemPlan, FoundPeople } from '../../plan-types.js';

// The plan of what an account entry keeps inside the account: the catalogue
// of resource kinds (resources/resource-kinds.ts) walked in its order; each
// kind reads, compares and counts its calls itself. The walkers take the
// catalogue they walk (`kinds`, by default the one catalogue), so a test can
// walk a kind of its own through them.

/** The catalogue a walker walks: resource-kinds.ts's, unless one is given. */
type Kinds = readonly AccountResourceKind[];

/** Whether an account entry keeps anything inside the account. */
export function hasContents(account: ResolvedAccount): boolean {
  return resourceKinds.some((kind) => kind.count(account) > 0);
}

/**
 * What the account holds of the kinds the entry keeps, each kind's listings
 * in the catalogue's order (profiles, groups and users — all three when the
 * entry keeps any of them: they name each other —, brands with their logos'
 * digests, Connect configurations). Kinds that read themselves (templates)
 * are read as they are planned.
 */
export async function readPeople(
  people: AccountPeople,
  tag: string,
  account: ResolvedAccount,
  organization?: OrganizationContext,
  kinds: Kinds = resourceKinds,
): Promise<FoundPeople> {
  const found: FoundPeople = { profiles: [], groups: [], users: [] };
  for (const kind of kinds)
    if (kind.read) await kind.read(account, found, { people, tag, ...(organization ? { organization } : {}) });
  return found;
}

/** Whether the entry keeps anything its account's own user must read and write (not only what its organisation keeps). */
export function needsAccountLogin(account: ResolvedAccount): boolean {
  return resourceKinds.some((kind) => !keptThroughOrganization(kind, account) && kind.count(account) > 0);
}

/** The account's people, addressed with the main login's credentials without logging in: for kinds kept through the organisation, which never call it. */
export function unusedPeople(client: EsignatureClient, accountId: string): AccountPeople {
  return new AccountPeople(new AccountClient(client, { accountId }));
}

/** The calls `readPeople` made for what it found. */
export function peopleReads(found: FoundPeople, account: ResolvedAccount, kinds: Kinds = resourceKinds): number {
  return kinds.reduce((n, kind) => n + (kind.readCalls ? kind.readCalls(account, found) : 0), 0);
}

/**
 * The one decision for each entry of the kinds read with the account's
 * listings (profiles, groups, users, brands, Connect), in the catalogue's
 * order, from what they found (the account is the record: by name or email,
 * the earliest when a race made two) and the journal's digests (changed
 * outside signrun). Pure: `readPeople` reads.
 */
export function decideContents(
  account: ResolvedAccount,
  found: FoundPeople,
  journal?: ReadonlyMap<string, AccountItemProgress>,
  kinds: Kinds = resourceKinds,
): AccountItemPlan[] {
  return kinds.flatMap((kind) => (kind.decide ? kind.decide(account, found, journal) : []));
}

/** The calls a run makes for these decisions: each kind's writes and the listings that confirm its creations. */
export function contentsCalls(
  plans: readonly AccountItemPlan[],
  account: ResolvedAccount,
  kinds: Kinds = resourceKinds,
): number {
  return kinds.reduce((n, kind) => {
    const own = plans.filter((p) => p.kind === kind.kind);
    return n + (own.length > 0 ? kind.calls(own, account) : 0);
  }, 0);
}

/** What planning an account's people reads. */
export interface ContentsPlanSources {
  /** Logged in to the main account (absent: offline, or the run's own empty sandbox). */
  main?: AccountClient;
  journal?: JournalProgress;
  /** The main account's integrator key (a subsidiary's user logs in with it, legacy header). */
  integratorKey?: string;
  /** The organisations' Admin API (entries with organizationId: their settings). */
  organizations?: OrganizationAccess;
}

/** The id of the user signrun logs in as to manage an account: the job file's, else the one this state created it with. */
export function accountUserId(account: ResolvedAccount, journal?: JournalProgress): string | undefined {
  return account.userId ?? journal?.accounts.get(identityOf(account))?.userId;
}

/**
 * Logs in as the account's own user (its userId; the JWT grant, or the
 * legacy header with initialUser.password) and returns what manages its
 * people: login_information's account of that user.
 */
export async function peopleOf(
  client: EsignatureClient,
  account: ResolvedAccount,
  accountId: string,
  userId: string,
  integratorKey: string | undefined,
  tag: string,
): Promise<AccountPeople> {
  const asUser = client.asUser(
    { userId, accountId, ...(account.initialUser?.password ? { password: account.initialUser.password } : {}) },
    integratorKey,
  );
  return new AccountPeople(await asUser.login({ tag }));
}

/**
 * Every kind's decisions in the catalogue's order: those read with the
 * account's listings from `found`, those that read themselves (templates)
 * with `subsidiary` (absent: not read, every present entry `create`).
 */
async function decideEveryKind(
  account: ResolvedAccount,
  found: FoundPeople,
  journal: ReadonlyMap<string, AccountItemProgress> | undefined,
  subsidiary: AccountClient | undefined,
  tag: string,
): Promise<{ items: AccountItemPlan[]; reads: number }> {
  const items: AccountItemPlan[] = [];
  let reads = 0;
  for (const kind of resourceKinds) {
    if ('decide' in kind) items.push(...kind.decide(account, found, journal));
    else {
      const planned = await kind.plan(account, { ...(subsidiary ? { subsidiary } : {}), journal, tag });
      items.push(...planned.items);
      reads += planned.reads;
    }
  }
  return { items, reads };
}

/**
 * What `plan` says of the contents of an organisation's account the run
 * creates: what the organisation keeps (settings, groups, its users) is
 * converged in the same run, once the account exists; what the account's own
 * user keeps waits for its invited administrator, and a run after it
 * (resources/account/account-pipeline.ts).
 */
function newOrganizationAccountNote(account: ResolvedAccount): string {
  const kept = resourceKinds.filter((kind) => kind.count(account) > 0);
  const through = kept.some((kind) => keptThroughOrganization(kind, account));
  const own = kept.some((kind) => !keptThroughOrganization(kind, account));
  const start = 'the account is created by this run through its organisation';
  if (!own) return `${start}: these are converged once it exists, in the same run`;
  const later = 'its administrator is invited, and a run after they sign in converges';
  return through
    ? `${start}: what the organisation keeps (settings, groups, its users) is converged once it exists, in the same run; ${later} the rest`
    : `${start}: ${later} these`;
}

/**
 * The plan of an account entry's contents: read from the account when it
 * exists (a login as its user and each kind's listings), else every item
 * `create` with the reason it was not read. Never throws: an account that
 * cannot be read yet (awaiting activation) is said so in `unread`.
 */
export async function planAccountContents(
  account: ResolvedAccount,
  decision: AccountDecision,
  sources: ContentsPlanSources,
): Promise<{ contents: AccountContentsPlan; reads: number }> {
  const empty: FoundPeople = { profiles: [], groups: [], users: [] };
  const tag = identityOf(account);
  const journalled = sources.journal?.accountItems;
  // Unread: every item as if the account had none (its templates too: each present one `create`).
  const offline = async (unread?: string) => ({
    contents: {
      items: (await decideEveryKind(account, empty, journalled, undefined, tag)).items,
      ...(unread ? { unread } : {}),
    },
    reads: 0,
  });
  if (account.state === 'absent') return { contents: { items: [] }, reads: 0 };
  if (decision.action === 'create' && decision.organization) return offline(newOrganizationAccountNote(account));
  if (decision.action === 'create' || decision.action === 'recreate')
    return offline('the account is created by this run and awaits its activation: a run after it converges these');
  if (!sources.main || !('accountId' in decision)) return offline();
  const organization =
    account.organization && sources.organizations
      ? {
          admin: await sources.organizations.admin(account.organization.id),
          accountId: decision.accountId,
          delay: realTiming.delay,
        }
      : undefined;
  const login = needsAccountLogin(account);
  const userId = accountUserId(account, sources.journal);
  if (login && !userId) return offline("the account's userId is not known (give userId in the job file): not read");
  let reads = 0;
  try {
    const people = login
      ? await peopleOf(sources.main.client, account, decision.accountId, userId!, sources.integratorKey, tag)
      : unusedPeople(sources.main.client, decision.accountId);
    if (login) reads += 1;
    const found = await readPeople(people, tag, account, organization);
    reads += peopleReads(found, account);
    const decided = await decideEveryKind(account, found, journalled, people.account, tag);
    reads += decided.reads;
    return { contents: { items: decided.items, found }, reads };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ...(await offline(`the account's people could not be read: ${why}`)), reads };
  }
}
