import type { ResolvedAccount } from '../jobs/model.js';
import type { AccountPeople, UserWire } from '../client/account-people.js';
import { AccountBrands } from '../client/account-brands.js';
import { convergeBrandsAndConnect } from './account-brands-pipeline.js';
import { convergeAccountTemplates } from './account-templates-pipeline.js';
import type { Journal } from '../state/journal.js';
import type { AccountItemProgress } from '../state/journal-progress.js';
import { SignrunError } from '../errors/signrun-error.js';
import {
  findGroup,
  findProfile,
  findUser,
  userGroupNames,
  wantedGroups,
  type AccountItemPlan,
  type FoundPeople,
} from './account-contents-plan.js';
import { itemErrorOf } from './envelope-pipeline.js';
import type { AccountItemResult } from './run-results.js';

/** What converging an account's people needs. */
export interface ContentsContext {
  /** Logged in as a user of that account who may manage it. */
  people: AccountPeople;
  journal: Journal;
  /** What this state's journal says of the items (an up-to-date item not recorded yet is recorded). */
  journalled?: ReadonlyMap<string, AccountItemProgress>;
  tag: string;
}

const lower = (s: string | undefined) => (s ?? '').toLowerCase();
const same = (a: string | undefined, b: string | undefined) => lower(a) === lower(b);

/**
 * Executes the plan of an account's permission profiles, groups and users
 * (account-contents-plan.ts decided), in dependency order: profiles, then
 * groups (they name profiles), then users (they name both). Exactly once:
 * the account is the record — after creating, the run lists again and keeps
 * the earliest of a name (profiles, groups) or email (users); a duplicate a
 * racing run made is deleted (a user: closed), and a create the service
 * refused because the other run's came first finds that one. Each write is
 * journalled with the digest of the file's declaration, which tells a later
 * plan whether a difference was made outside signrun. Never throws: each
 * item has its outcome.
 */
export async function convergeContents(
  account: ResolvedAccount,
  plans: readonly AccountItemPlan[],
  found: FoundPeople,
  ctx: ContentsContext,
): Promise<AccountItemResult[]> {
  const results = new Map<string, AccountItemResult>();
  const opts = { tag: ctx.tag };
  const ofKind = (kind: AccountItemPlan['kind']) => plans.filter((p) => p.kind === kind);
  const done = async (plan: AccountItemPlan, outcome: AccountItemResult['outcome'], id: string | undefined) => {
    results.set(plan.identity, {
      kind: plan.kind,
      name: plan.name,
      outcome,
      ...(id ? { id } : {}),
      ...(outcome === 'updated' ? { outside: plan.outside, differences: plan.differences } : {}),
    });
    if (outcome === 'deleted' && id)
      await ctx.journal.append({ kind: 'account-item', id: plan.identity, step: 'deleted', itemId: id });
    else if (id && outcome !== 'already-absent') {
      const known = ctx.journalled?.get(plan.identity);
      // An item already as the file says, and recorded so: nothing to write.
      if (outcome === 'up-to-date' && known?.present && known.digest === plan.digest && known.itemId === id) return;
      await ctx.journal.append({
        kind: 'account-item',
        id: plan.identity,
        step: 'written',
        itemId: id,
        digest: plan.digest,
        ...(plan.outside ? { outside: true } : {}),
      });
    }
  };
  const failed = (plan: AccountItemPlan, error: unknown) =>
    results.set(plan.identity, {
      kind: plan.kind,
      name: plan.name,
      outcome: 'failed',
      error: itemErrorOf(error, plan.action),
    });
  const refused = (what: string, message: string | undefined) =>
    new SignrunError('SR_ACCOUNT_FAILED', `${ctx.tag}: ${what}: ${message ?? 'refused by the service'}`);

  // --- Permission profiles ---------------------------------------------------------------------------------------
  const profiles = new Map((account.permissionProfiles ?? []).map((p) => [lower(p.permissionProfileName), p]));
  const profilePlans = ofKind('permissionProfile');
  const createErrors = new Map<string, unknown>();
  for (const plan of profilePlans.filter((p) => p.action === 'create')) {
    const profile = profiles.get(lower(plan.name))!;
    try {
      await ctx.people.createPermissionProfile(
        { permissionProfileName: profile.permissionProfileName, settings: profile.settings },
        opts,
      );
    } catch (error) {
      // A racing run's profile of this name may have come first: the listing below says.
      createErrors.set(plan.identity, error);
    }
  }
  if (profilePlans.some((p) => p.action === 'create')) {
    found.profiles = await ctx.people.listPermissionProfiles(opts);
    for (const plan of profilePlans.filter((p) => p.action === 'create')) {
      const all = found.profiles.filter((p) => same(p.permissionProfileName, plan.name));
      const winner = findProfile(found, plan.name);
      if (!winner) {
        failed(
          plan,
          createErrors.get(plan.identity) ??
            refused(`permission profile "${plan.name}"`, 'not listed after its creation'),
        );
        continue;
      }
      for (const loser of all.filter((p) => p !== winner))
        await ctx.people.deletePermissionProfile(loser.permissionProfileId, opts);
      found.profiles = found.profiles.filter((p) => !all.includes(p) || p === winner);
      await done(plan, 'created', winner.permissionProfileId);
    }
  }
  for (const plan of profilePlans.filter((p) => p.action !== 'create')) {
    if (plan.action !== 'update') {
      await done(
        plan,
        plan.action === 'up-to-date' ? 'up-to-date' : plan.action === 'delete' ? 'deleted' : 'already-absent',
        plan.id,
      );
      continue;
    }
    const profile = profiles.get(lower(plan.name))!;
    try {
      const there = findProfile(found, plan.name)!;
      // The account's name is kept as it is written there (DocuSign compares names ignoring case).
      await ctx.people.updatePermissionProfile(
        plan.id!,
        { permissionProfileName: there.permissionProfileName, settings: profile.settings },
        opts,
      );
      await done(plan, 'updated', plan.id);
    } catch (error) {
      failed(plan, error);
    }
  }
  const profileId = (name: string | undefined) =>
    name === undefined ? undefined : findProfile(found, name)?.permissionProfileId;

  // --- Groups ------------------------------------------------------------------------------------------------------
  const groups = new Map((account.groups ?? []).map((g) => [lower(g.groupName), g]));
  const groupPlans = ofKind('group');
  const missingProfile = (plan: AccountItemPlan, name: string | undefined) => {
    if (name === undefined || profileId(name)) return false;
    failed(plan, refused(`${plan.kind} "${plan.name}"`, `its permission profile "${name}" is not in the account`));
    return true;
  };
  const groupCreates = groupPlans.filter(
    (p) => p.action === 'create' && !missingProfile(p, groups.get(lower(p.name))!.permissionProfileName),
  );
  if (groupCreates.length > 0) {
    let error: unknown;
    try {
      await ctx.people.createGroups(
        groupCreates.map((p) => {
          const g = groups.get(lower(p.name))!;
          const id = profileId(g.permissionProfileName);
          return { groupName: g.groupName, ...(id ? { permissionProfileId: id } : {}) };
        }),
        opts,
      );
    } catch (e) {
      error = e;
    }
    found.groups = await ctx.people.listGroups(opts);
    const losers: string[] = [];
    for (const plan of groupCreates) {
      const winner = findGroup(found, plan.name);
      if (!winner?.groupId) {
        failed(plan, error ?? refused(`group "${plan.name}"`, 'not listed after its creation'));
        continue;
      }
      losers.push(
        ...found.groups.filter((g) => same(g.groupName, plan.name) && g !== winner).map((g) => g.groupId ?? ''),
      );
      await done(plan, 'created', winner.groupId);
    }
    if (losers.length > 0) {
      await ctx.people.deleteGroups(losers, opts);
      found.groups = found.groups.filter((g) => !losers.includes(g.groupId ?? ''));
    }
  }
  const groupUpdates = groupPlans.filter(
    (p) => p.action === 'update' && !missingProfile(p, groups.get(lower(p.name))!.permissionProfileName),
  );
  if (groupUpdates.length > 0) {
    try {
      const answered = await ctx.people.updateGroups(
        groupUpdates.map((p) => ({
          groupId: p.id!,
          permissionProfileId: profileId(groups.get(lower(p.name))!.permissionProfileName)!,
        })),
        opts,
      );
      for (const plan of groupUpdates) {
        const item = answered.find((g) => g.groupId === plan.id);
        if (item?.errorDetails) failed(plan, refused(`group "${plan.name}"`, item.errorDetails.message));
        else await done(plan, 'updated', plan.id);
      }
    } catch (error) {
      for (const plan of groupUpdates) failed(plan, error);
    }
  }
  for (const plan of groupPlans.filter((p) => p.action === 'up-to-date')) await done(plan, 'up-to-date', plan.id);
  const groupId = (name: string) => findGroup(found, name)?.groupId;

  // --- Users -------------------------------------------------------------------------------------------------------
  const users = new Map((account.users ?? []).map((u) => [lower(u.email), u]));
  const userPlans = ofKind('user');
  const userCreates = userPlans.filter(
    (p) =>
      p.action === 'create' &&
      !missingProfile(p, users.get(lower(p.name))!.permissionProfileName) &&
      !missingGroup(p, wantedGroups(users.get(lower(p.name))!) ?? []),
  );
  function missingGroup(plan: AccountItemPlan, names: string[]): boolean {
    const missing = names.find((n) => !groupId(n));
    if (missing === undefined) return false;
    failed(plan, refused(`user ${plan.name}`, `their group "${missing}" is not in the account`));
    return true;
  }
  if (userCreates.length > 0) {
    let error: unknown;
    let answered: UserWire[] = [];
    try {
      answered = await ctx.people.createUsers(
        userCreates.map((p) => {
          const u = users.get(lower(p.name))!;
          const id = profileId(u.permissionProfileName);
          const groupList = (wantedGroups(u) ?? []).map((n) => ({ groupId: groupId(n)! }));
          return {
            userName: u.userName ?? u.email,
            email: u.email,
            ...(id ? { permissionProfileId: id } : {}),
            ...(groupList.length > 0 ? { groupList } : {}),
          };
        }),
        opts,
      );
    } catch (e) {
      error = e;
    }
    found.users = (await ctx.people.listUsers(opts)).filter((u) => lower(u.userStatus) !== 'closed');
    const losers: string[] = [];
    for (const plan of userCreates) {
      const winner = findUser(found, plan.name);
      if (!winner?.userId) {
        const item = answered.find((u) => same(u.email, plan.name));
        failed(
          plan,
          error ?? refused(`user ${plan.name}`, item?.errorDetails?.message ?? 'not listed after being added'),
        );
        continue;
      }
      losers.push(...found.users.filter((u) => same(u.email, plan.name) && u !== winner).map((u) => u.userId ?? ''));
      await done(plan, 'created', winner.userId);
    }
    if (losers.length > 0) {
      await ctx.people.closeUsers(losers, opts);
      found.users = found.users.filter((u) => !losers.includes(u.userId ?? ''));
    }
  }
  // Updates: name and profile per user; group memberships batched per group.
  const joins = new Map<string, string[]>();
  const leaves = new Map<string, string[]>();
  const userUpdates: AccountItemPlan[] = [];
  for (const plan of userPlans.filter((p) => p.action === 'update')) {
    const u = users.get(lower(plan.name))!;
    const there = findUser(found, plan.name);
    const wanted = wantedGroups(u);
    if (!there?.userId || missingProfile(plan, u.permissionProfileName) || missingGroup(plan, wanted ?? [])) {
      if (!results.has(plan.identity)) failed(plan, refused(`user ${plan.name}`, 'no longer in the account'));
      continue;
    }
    try {
      const changes: { userName?: string; permissionProfileId?: string } = {};
      if (u.userName !== undefined && u.userName !== there.userName) changes.userName = u.userName;
      if (u.permissionProfileName !== undefined && !same(u.permissionProfileName, there.permissionProfileName))
        changes.permissionProfileId = profileId(u.permissionProfileName)!;
      if (Object.keys(changes).length > 0) await ctx.people.updateUser(there.userId, changes, opts);
    } catch (error) {
      failed(plan, error);
      continue;
    }
    if (wanted) {
      const have = userGroupNames(there);
      for (const g of wanted.filter((g) => !have.some((h) => same(h, g))))
        joins.set(groupId(g)!, [...(joins.get(groupId(g)!) ?? []), there.userId]);
      for (const g of have.filter((h) => !wanted.some((w) => same(h, w)))) {
        const id = groupId(g);
        if (id) leaves.set(id, [...(leaves.get(id) ?? []), there.userId]);
      }
    }
    userUpdates.push(plan);
  }
  const membershipFailures = new Map<string, unknown>();
  for (const [changes, add] of [
    [joins, true],
    [leaves, false],
  ] as const)
    for (const [group, ids] of changes) {
      try {
        await ctx.people.changeGroupUsers(group, ids, add, opts);
      } catch (error) {
        for (const id of ids) membershipFailures.set(id, error);
      }
    }
  for (const plan of userUpdates) {
    const error = plan.id ? membershipFailures.get(plan.id) : undefined;
    if (error) failed(plan, error);
    else await done(plan, 'updated', plan.id);
  }
  const closes = userPlans.filter((p) => p.action === 'delete');
  if (closes.length > 0) {
    try {
      const answered = await ctx.people.closeUsers(
        closes.map((p) => p.id!),
        opts,
      );
      for (const plan of closes) {
        const item = answered.find((u) => u.userId === plan.id);
        if (item?.errorDetails) failed(plan, refused(`user ${plan.name}`, item.errorDetails.message));
        else await done(plan, 'deleted', plan.id);
      }
    } catch (error) {
      for (const plan of closes) failed(plan, error);
    }
  }
  for (const plan of userPlans.filter((p) => p.action === 'up-to-date' || p.action === 'already-absent'))
    await done(plan, plan.action === 'up-to-date' ? 'up-to-date' : 'already-absent', plan.id);

  // --- Brands and Connect configurations (account-brands-pipeline.ts), with this pipeline's bookkeeping ---------------
  if (plans.some((p) => p.kind === 'brand' || p.kind === 'connect'))
    await convergeBrandsAndConnect(account, plans, found, {
      brands: new AccountBrands(ctx.people.account),
      tag: ctx.tag,
      done,
      failed: (plan, error) => {
        failed(plan, error);
      },
      refused,
    });

  // --- Templates of the job file installed in the account (account-templates-pipeline.ts), after Connect ----------
  if (plans.some((p) => p.kind === 'template'))
    await convergeAccountTemplates(account, plans, {
      account: ctx.people.account,
      tag: ctx.tag,
      done,
      failed: (plan, error) => {
        failed(plan, error);
      },
    });

  // In the plan's order (profiles, groups, users, brands, Connect, templates), as the report lists them.
  return plans.map((p) => results.get(p.identity) ?? { kind: p.kind, name: p.name, outcome: 'not-started' as const });
}
