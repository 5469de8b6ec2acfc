import { usersEntry } from '../../../jobs/account-entries/users.js';
import type { ResolvedAccountUser } from '../../../jobs/model.js';
import type { UserWire } from '../../../client/account-people.js';
import type { AccountItemPlan, FoundPeople } from '../../plan-types.js';
import { digestOf, earliest, itemDecision, lower, same, shown, writeCalls } from '../item-decision.js';
import { groupIdOf, groups } from './groups.js';
import { keepsPeople, missingProfile, permissionProfiles, profileIdOf } from './permission-profiles.js';
import type { AccountResourceKind, ConvergeContext, ResourceImport } from '../resource-kind.js';
import type { RawAccount } from '../../../jobs/raw-job.js';

// An account's users (DocuSign's #/definitions/userInformation): found by
// email among the open ones (DocuSign keeps closed users; `state: absent`
// closes one), compared by name, permission profile and groups. Converged
// after the profiles and groups they name; added and closed in one call each.

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

export const userDigest = (u: ResolvedAccountUser) =>
  digestOf({
    e: lower(u.email),
    n: u.userName,
    p: lower(u.permissionProfileName),
    g: u.groups?.map(lower).sort(),
    s: u.state,
  });

/** What differs, account → file, for a user the account has. */
function userDifferences(user: ResolvedAccountUser, there: UserWire): string[] {
  const differences: string[] = [];
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
  return differences;
}

/** Fails a user one of whose groups is not in the account; says whether it did. */
function missingGroup(plan: AccountItemPlan, names: string[], ctx: ConvergeContext): boolean {
  const missing = names.find((n) => !groupIdOf(ctx.found, n));
  if (missing === undefined) return false;
  ctx.failed(plan, ctx.refused(`user ${plan.name}`, `their group "${missing}" is not in the account`));
  return true;
}

/** `import account`: every open user with a userName, with their profile and groups. */
const usersImport: ResourceImport = {
  field: 'users',
  async read(found, { people, tag }) {
    found.users = (await people.listUsers({ tag })).filter((u) => u.userStatus?.toLowerCase() !== 'closed');
  },
  entries(found, ctx) {
    const users: NonNullable<RawAccount['users']> = [];
    for (const user of found.users) {
      if (!user.email || user.userStatus?.toLowerCase() === 'closed') continue;
      if (findUser(found, user.email) !== user) {
        ctx.leaveOut(`user ${user.email} (${user.userId ?? 'no id'}): a second one of that email`);
        continue;
      }
      if (!user.userName) {
        ctx.leaveOut(`user ${user.email}: the account gives no userName, which an entry needs`);
        continue;
      }
      users.push({
        userName: user.userName,
        email: user.email,
        ...(user.permissionProfileName ? { permissionProfileName: user.permissionProfileName } : {}),
        groups: userGroupNames(user),
      });
    }
    return users;
  },
};

/** Its name in signrun's records, spelled once: the kind's and each of its items'. */
const kind = 'user' as const;

export const users = {
  kind,
  // A user names a permission profile and groups.
  after: [permissionProfiles.kind, groups.kind],
  entry: usersEntry,
  words: { one: 'user', summary: 'users', alwaysSummarised: true },
  count: (account) => account.users?.length ?? 0,

  async read(account, found, { people, tag }) {
    if (keepsPeople(account))
      found.users = (await people.listUsers({ tag })).filter((u) => u.userStatus?.toLowerCase() !== 'closed');
  },
  readCalls: (account) => (keepsPeople(account) ? 1 : 0),

  decide(account, found, journal) {
    return (account.users ?? []).map((user) => {
      const there = findUser(found, user.email);
      return itemDecision(
        account,
        {
          kind,
          name: user.email,
          digest: userDigest(user),
          id: there?.userId,
          differences: there ? userDifferences(user, there) : [],
          state: user.state,
        },
        journal,
      );
    });
  },

  calls: (plans) => writeCalls(plans, { batchedCreates: true, callPerDifference: true }),

  /**
   * Added in one call, then one listing: the earliest of an email stays, the
   * others are closed. Updates: name and profile per user, group memberships
   * batched per group. `state: absent` closes the user.
   */
  async converge(account, plans, ctx) {
    const opts = { tag: ctx.tag };
    const entries = new Map((account.users ?? []).map((u) => [lower(u.email), u]));
    const entryOf = (plan: AccountItemPlan) => entries.get(lower(plan.name))!;
    const creates = plans.filter(
      (p) =>
        p.action === 'create' &&
        !missingProfile(p, entryOf(p).permissionProfileName, ctx) &&
        !missingGroup(p, wantedGroups(entryOf(p)) ?? [], ctx),
    );
    if (creates.length > 0) {
      let error: unknown;
      let answered: UserWire[] = [];
      try {
        answered = await ctx.people.createUsers(
          creates.map((p) => {
            const u = entryOf(p);
            const id = profileIdOf(ctx.found, u.permissionProfileName);
            const groupList = (wantedGroups(u) ?? []).map((n) => ({ groupId: groupIdOf(ctx.found, n)! }));
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
      ctx.found.users = (await ctx.people.listUsers(opts)).filter((u) => lower(u.userStatus) !== 'closed');
      const losers: string[] = [];
      for (const plan of creates) {
        const winner = findUser(ctx.found, plan.name);
        if (!winner?.userId) {
          const item = answered.find((u) => same(u.email, plan.name));
          ctx.failed(
            plan,
            error ?? ctx.refused(`user ${plan.name}`, item?.errorDetails?.message ?? 'not listed after being added'),
          );
          continue;
        }
        losers.push(
          ...ctx.found.users.filter((u) => same(u.email, plan.name) && u !== winner).map((u) => u.userId ?? ''),
        );
        await ctx.done(plan, 'created', winner.userId);
      }
      if (losers.length > 0) {
        await ctx.people.closeUsers(losers, opts);
        ctx.found.users = ctx.found.users.filter((u) => !losers.includes(u.userId ?? ''));
      }
    }
    // Updates: name and profile per user; group memberships batched per group.
    const joins = new Map<string, string[]>();
    const leaves = new Map<string, string[]>();
    const updated: AccountItemPlan[] = [];
    for (const plan of plans.filter((p) => p.action === 'update')) {
      const u = entryOf(plan);
      const there = findUser(ctx.found, plan.name);
      const wanted = wantedGroups(u);
      if (
        !there?.userId ||
        missingProfile(plan, u.permissionProfileName, ctx) ||
        missingGroup(plan, wanted ?? [], ctx)
      ) {
        if (!ctx.hasOutcome(plan)) ctx.failed(plan, ctx.refused(`user ${plan.name}`, 'no longer in the account'));
        continue;
      }
      try {
        const changes: { userName?: string; permissionProfileId?: string } = {};
        if (u.userName !== undefined && u.userName !== there.userName) changes.userName = u.userName;
        if (u.permissionProfileName !== undefined && !same(u.permissionProfileName, there.permissionProfileName))
          changes.permissionProfileId = profileIdOf(ctx.found, u.permissionProfileName)!;
        if (Object.keys(changes).length > 0) await ctx.people.updateUser(there.userId, changes, opts);
      } catch (error) {
        ctx.failed(plan, error);
        continue;
      }
      if (wanted) {
        const have = userGroupNames(there);
        for (const g of wanted.filter((g) => !have.some((h) => same(h, g)))) {
          const id = groupIdOf(ctx.found, g)!;
          joins.set(id, [...(joins.get(id) ?? []), there.userId]);
        }
        for (const g of have.filter((h) => !wanted.some((w) => same(h, w)))) {
          const id = groupIdOf(ctx.found, g);
          if (id) leaves.set(id, [...(leaves.get(id) ?? []), there.userId]);
        }
      }
      updated.push(plan);
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
    for (const plan of updated) {
      const error = plan.id ? membershipFailures.get(plan.id) : undefined;
      if (error) ctx.failed(plan, error);
      else await ctx.done(plan, 'updated', plan.id);
    }
    const closes = plans.filter((p) => p.action === 'delete');
    if (closes.length > 0) {
      try {
        const answered = await ctx.people.closeUsers(
          closes.map((p) => p.id!),
          opts,
        );
        for (const plan of closes) {
          const item = answered.find((u) => u.userId === plan.id);
          if (item?.errorDetails) ctx.failed(plan, ctx.refused(`user ${plan.name}`, item.errorDetails.message));
          else await ctx.done(plan, 'deleted', plan.id);
        }
      } catch (error) {
        for (const plan of closes) ctx.failed(plan, error);
      }
    }
    for (const plan of plans.filter((p) => p.action === 'up-to-date' || p.action === 'already-absent'))
      await ctx.done(plan, plan.action === 'up-to-date' ? 'up-to-date' : 'already-absent', plan.id);
  },

  import: usersImport,
} satisfies AccountResourceKind;
