import { createHash } from 'node:crypto';
import type { ResolvedAccount, ResolvedAccountUser, ResolvedGroup, ResolvedPermissionProfile } from '../jobs/model.js';
import { AccountPeople, type UserWire } from '../client/account-people.js';
import { AccountBrands } from '../client/account-brands.js';
import {
  brandDifferences,
  brandDigest,
  connectDifferences,
  connectDigest,
  findBrand,
  findConnect,
  readBrandsAndConnect,
} from './account-brands-plan.js';
import type { AccountClient, EsignatureClient } from '../client/esignature-client.js';
import type { AccountItemProgress, JournalProgress } from '../state/journal-progress.js';
import type {
  AccountContentsPlan,
  AccountDecision,
  AccountItemAction,
  AccountItemKind,
  AccountItemPlan,
  FoundPeople,
} from './plan-types.js';

export type { AccountItemAction, AccountItemKind, AccountItemPlan, FoundPeople } from './plan-types.js';
import { identityOf } from './identity.js';
import { accountTemplateCalls, planAccountTemplates } from './account-templates-plan.js';

/** Whether an account entry keeps anything inside the account. */
export function hasContents(account: ResolvedAccount): boolean {
  return (
    (account.permissionProfiles?.length ?? 0) +
      (account.groups?.length ?? 0) +
      (account.users?.length ?? 0) +
      (account.brands?.length ?? 0) +
      (account.connect?.length ?? 0) +
      (account.templates?.length ?? 0) >
    0
  );
}

/**
 * Three listings (each paged): profiles, groups, users with their groups
 * (none when `account` keeps no people: nothing to compare them with);
 * then, when `account` keeps them, its brands (with their logos' digests)
 * and Connect configurations (account-brands-plan.ts).
 */
export async function readPeople(people: AccountPeople, tag: string, account?: ResolvedAccount): Promise<FoundPeople> {
  // An entry that keeps no people (only brands, Connect or templates) has nothing to compare them with.
  if (account && !keepsPeople(account)) {
    const found: FoundPeople = { profiles: [], groups: [], users: [] };
    await readBrandsAndConnect(account, new AccountBrands(people.account), found, tag);
    return found;
  }
  const profiles = await people.listPermissionProfiles({ tag });
  const groups = await people.listGroups({ tag });
  const users = (await people.listUsers({ tag })).filter((u) => u.userStatus?.toLowerCase() !== 'closed');
  const found: FoundPeople = { profiles, groups, users };
  if (account) await readBrandsAndConnect(account, new AccountBrands(people.account), found, tag);
  return found;
}

/** Whether an account entry keeps permission profiles, groups or users (then the account's are listed). */
export function keepsPeople(account: ResolvedAccount): boolean {
  return (account.permissionProfiles?.length ?? 0) + (account.groups?.length ?? 0) + (account.users?.length ?? 0) > 0;
}

/** The calls `readPeople` made for what it found. */
export function peopleReads(found: FoundPeople, account?: ResolvedAccount): number {
  const logos = (found.brands ?? []).reduce((n, b) => n + Object.keys(b.logoDigests).length, 0);
  return (account && !keepsPeople(account) ? 0 : 3) + (found.brands ? 1 + logos : 0) + (found.connect ? 1 : 0);
}

const lower = (s: string | undefined) => (s ?? '').toLowerCase();
const same = (a: string | undefined, b: string | undefined) => lower(a) === lower(b);

/** The earliest of several that a race made (DocuSign's ids grow; a user's creation time). */
export function earliest<T>(items: T[], order: (item: T) => string): T | undefined {
  return [...items].sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    const [nx, ny] = [Number(x), Number(y)];
    return Number.isFinite(nx) && Number.isFinite(ny) ? nx - ny : x.localeCompare(y);
  })[0];
}

export const findProfile = (found: FoundPeople, name: string) =>
  earliest(
    found.profiles.filter((p) => same(p.permissionProfileName, name)),
    (p) => p.permissionProfileId,
  );
export const findGroup = (found: FoundPeople, name: string) =>
  earliest(
    found.groups.filter((g) => same(g.groupName, name)),
    (g) => g.groupId ?? '',
  );
export const findUser = (found: FoundPeople, email: string) =>
  earliest(
    found.users.filter((u) => same(u.email, email)),
    (u) => u.createdDateTime ?? '',
  );

/** The groups a user is in, by name, besides Everyone (which holds every user). */
export function userGroupNames(user: UserWire): string[] {
  return (user.groupList ?? []).map((g) => g.groupName ?? '').filter((n) => n !== '' && !same(n, 'Everyone'));
}

/** The groups a user entry asks for, besides Everyone. */
export function wantedGroups(user: ResolvedAccountUser): string[] | undefined {
  return user.groups?.filter((g) => !same(g, 'Everyone'));
}

function digestOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 32);
}
export const profileDigest = (p: ResolvedPermissionProfile) =>
  digestOf({ n: lower(p.permissionProfileName), s: Object.entries(p.settings).sort(([a], [b]) => a.localeCompare(b)) });
export const groupDigest = (g: ResolvedGroup) => digestOf({ n: lower(g.groupName), p: lower(g.permissionProfileName) });
export const userDigest = (u: ResolvedAccountUser) =>
  digestOf({
    e: lower(u.email),
    n: u.userName,
    p: lower(u.permissionProfileName),
    g: u.groups?.map(lower).sort(),
    s: u.state,
  });

/** The journal's id of an item of an account: `<job>/<key>#user:ann@example.com`. */
export function itemIdentity(account: ResolvedAccount, kind: AccountItemKind, name: string): string {
  return `${identityOf(account)}#${kind}:${lower(name)}`;
}

const shown = (value: string | undefined) => (value === undefined ? '(not set)' : JSON.stringify(value));

/**
 * The one decision for each profile, group and user of an account entry,
 * from the account's listings (the account is the record: profiles and
 * groups by name, users by email, the earliest when a race made two) and the
 * journal's digests (changed outside signrun). Pure: `readPeople` reads.
 */
export function decideContents(
  account: ResolvedAccount,
  found: FoundPeople,
  journal?: ReadonlyMap<string, AccountItemProgress>,
): AccountItemPlan[] {
  const plans: AccountItemPlan[] = [];
  const profileName = (id: string | undefined) =>
    found.profiles.find((p) => p.permissionProfileId === id)?.permissionProfileName;
  const decide = (
    kind: AccountItemKind,
    name: string,
    digest: string,
    id: string | undefined,
    differences: string[] | undefined,
    state: 'present' | 'absent' = 'present',
  ) => {
    const identity = itemIdentity(account, kind, name);
    let action: AccountItemAction;
    if (state === 'absent') action = id ? 'delete' : 'already-absent';
    else if (!id) action = 'create';
    else action = differences && differences.length > 0 ? 'update' : 'up-to-date';
    const written = journal?.get(identity);
    const outside = action === 'update' && written?.present === true && written.digest === digest;
    plans.push({
      kind,
      name,
      identity,
      action,
      outside,
      differences: action === 'update' ? (differences ?? []) : [],
      ...(id ? { id } : {}),
      digest,
    });
  };

  for (const profile of account.permissionProfiles ?? []) {
    const there = findProfile(found, profile.permissionProfileName);
    // DocuSign answers every setting as a string; anything else reads as not set.
    const settingOf = (setting: string) => {
      const now = there?.settings?.[setting];
      return typeof now === 'string' ? now : undefined;
    };
    const differences = Object.entries(profile.settings)
      .filter(([setting, value]) => settingOf(setting) !== value)
      .map(([setting, value]) => `settings.${setting}: ${shown(settingOf(setting))} → ${JSON.stringify(value)}`);
    decide(
      'permissionProfile',
      profile.permissionProfileName,
      profileDigest(profile),
      there?.permissionProfileId,
      differences,
    );
  }
  for (const group of account.groups ?? []) {
    const there = findGroup(found, group.groupName);
    const differences: string[] = [];
    const now = profileName(there?.permissionProfileId);
    if (group.permissionProfileName !== undefined && !same(now, group.permissionProfileName))
      differences.push(`permissionProfileName: ${shown(now)} → ${JSON.stringify(group.permissionProfileName)}`);
    decide('group', group.groupName, groupDigest(group), there?.groupId, differences);
  }
  for (const user of account.users ?? []) {
    const there = findUser(found, user.email);
    const differences: string[] = [];
    if (there) {
      if (user.userName !== undefined && there.userName !== user.userName)
        differences.push(`userName: ${shown(there.userName)} → ${JSON.stringify(user.userName)}`);
      if (user.permissionProfileName !== undefined && !same(there.permissionProfileName, user.permissionProfileName))
        differences.push(
          `permissionProfileName: ${shown(there.permissionProfileName)} → ${JSON.stringify(user.permissionProfileName)}`,
        );
      const wanted = wantedGroups(user);
      if (wanted) {
        const have = userGroupNames(there);
        const add = wanted.filter((g) => !have.some((h) => same(h, g)));
        const remove = have.filter((h) => !wanted.some((g) => same(h, g)));
        if (add.length + remove.length > 0)
          differences.push(`groups: ${[...add.map((g) => `+${g}`), ...remove.map((g) => `-${g}`)].join(', ')}`);
      }
    }
    decide('user', user.email, userDigest(user), there?.userId, differences, user.state);
  }
  for (const brand of account.brands ?? []) {
    const there = findBrand(found.brands, brand.brandName);
    decide(
      'brand',
      brand.brandName,
      brandDigest(brand),
      there?.brandId,
      there ? brandDifferences(brand, there) : [],
      brand.state,
    );
  }
  for (const config of account.connect ?? []) {
    const there = findConnect(found.connect, config.name);
    const written = journal?.get(itemIdentity(account, 'connect', config.name));
    decide(
      'connect',
      config.name,
      connectDigest(config),
      there?.connectId,
      there ? connectDifferences(config, there, written) : [],
      config.state,
    );
  }
  return plans;
}

/** The calls a run makes for these decisions: writes, and the listing that confirms creations (one per kind). */
export function contentsCalls(plans: readonly AccountItemPlan[]): number {
  let calls = 0;
  const creates = new Set<AccountItemKind>();
  for (const p of plans) {
    // A template: its create confirmed by a listing of its own (account-templates-plan.ts).
    if (p.kind === 'template') calls += accountTemplateCalls(p);
    else if (p.action === 'create') {
      // Profiles, brands and Connect configurations are made one by one; groups and users in one call each.
      if (p.kind !== 'group' && p.kind !== 'user') calls += 1;
      else if (!creates.has(p.kind)) calls += 1;
      creates.add(p.kind);
    } else if (p.action === 'update')
      // A user: one call per difference at most; a brand: the brand and each logo that differs.
      calls += p.kind === 'user' || p.kind === 'brand' ? Math.max(1, p.differences.length) : 1;
    else if (p.action === 'delete') calls += 1;
  }
  return calls + creates.size;
}

/** What planning an account's people reads. */
export interface ContentsPlanSources {
  /** Logged in to the main account (absent: offline, or the run's own empty sandbox). */
  main?: AccountClient;
  journal?: JournalProgress;
  /** The main account's integrator key (a subsidiary's user logs in with it, legacy header). */
  integratorKey?: string;
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
 * The plan of an account entry's people: read from the account when it
 * exists (a login as its user and three listings), else every item
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
      items: [
        ...decideContents(account, empty, journalled),
        ...(await planAccountTemplates(account, undefined, journalled, tag)).items,
      ],
      ...(unread ? { unread } : {}),
    },
    reads: 0,
  });
  if (account.state === 'absent') return { contents: { items: [] }, reads: 0 };
  if (decision.action === 'create' || decision.action === 'recreate')
    return offline('the account is created by this run and awaits its activation: a run after it converges these');
  if (!sources.main || !('accountId' in decision)) return offline();
  const userId = accountUserId(account, sources.journal);
  if (!userId) return offline("the account's userId is not known (give userId in the job file): not read");
  let reads = 0;
  try {
    const people = await peopleOf(sources.main.client, account, decision.accountId, userId, sources.integratorKey, tag);
    reads += 1;
    const found = await readPeople(people, tag, account);
    reads += peopleReads(found, account);
    // Its templates: the account's listing of them, then one read of each found (the same code as the main account's).
    const templates = await planAccountTemplates(account, people.account, journalled, tag);
    reads += templates.reads;
    return {
      contents: { items: [...decideContents(account, found, journalled), ...templates.items], found },
      reads,
    };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ...(await offline(`the account's people could not be read: ${why}`)), reads };
  }
}
