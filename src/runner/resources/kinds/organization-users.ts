import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { ResolvedAccount, ResolvedMembership } from '../../../jobs/model.js';
import type { AccountItemPlan } from '../../plan-types.js';
import { followWork } from '../../organization/follow-work.js';
import { digestOf, itemDecision, lower, settledOutcome } from '../item-decision.js';
import type { AccountResourceKind, ConvergeContext, OrganizationContext } from '../resource-kind.js';
import { connectConfigurations } from './connect-configurations.js';
import { groups } from './groups.js';
import { permissionProfiles } from './permission-profiles.js';

// The users of the job's `organization:` who belong to an account entry
// (DocuSign's Admin API: the organisation's users and their memberships):
// each user an item of the account, found by email among the account's
// users as the organisation lists them. Users to add are added one call each
// (POST …/accounts/{id}/users, their groups by id), or — past the
// organisation's `bulkImportAbove` — in one bulk import (CSV), whose results
// CSV says what became of each row: a rejected row fails its user, named at
// its line of the import and of the job's CSV.

declare module '../../plan-types.js' {
  interface FoundPeople {
    /** The account's users as its organisation lists them (email, membership id), read only when the entry keeps some. */
    organizationUsers?: Array<{ email: string; id: string }>;
  }
}

/** Users to add beyond which one bulk import goes instead (`organization.bulkImportAbove`'s default). */
const defaultBulkAbove = 20;

const membersOf = (account: ResolvedAccount): ResolvedMembership[] => account.organizationUsers ?? [];
const goesInBulk = (account: ResolvedAccount, adds: number) => adds > (account.bulkImportAbove ?? defaultBulkAbove);

/** The bulk import's CSV (DocuSign's columns: AccountID, UserName, FirstName, LastName, UserEmail, PermissionSet, Groups). */
function importCsv(accountId: string, users: readonly ResolvedMembership[]): string {
  return stringify([
    ['AccountID', 'UserName', 'FirstName', 'LastName', 'UserEmail', 'PermissionSet', 'Groups'],
    ...users.map((u) => [
      accountId,
      u.userName,
      u.firstName ?? '',
      u.lastName ?? '',
      u.email,
      u.permissionProfile ?? '',
      u.groups.join(';'),
    ]),
  ]);
}

/** Where a user came from, for a rejected row's message: the job's CSV line, else its YAML line. */
const placeOf = (u: ResolvedMembership) => `${u.source.file}:${u.source.line}`;

async function addOneByOne(
  account: ResolvedAccount,
  adds: readonly AccountItemPlan[],
  organization: OrganizationContext,
  ctx: ConvergeContext,
): Promise<void> {
  const { admin, accountId } = organization;
  const groups = adds.some((p) => (userOf(account, p)?.groups.length ?? 0) > 0)
    ? await admin.accountGroups(accountId, { tag: ctx.tag })
    : [];
  for (const plan of adds) {
    const user = userOf(account, plan)!;
    try {
      const ids = user.groups.map((name) => {
        const group = groups.find((g) => lower(g.name) === lower(name));
        if (group?.id === undefined) throw ctx.refused(`user ${user.email}`, `the account has no group "${name}"`);
        return { id: group.id };
      });
      const added = await admin.addAccountUser(
        accountId,
        {
          email: user.email,
          user_name: user.userName,
          ...(user.firstName ? { first_name: user.firstName } : {}),
          ...(user.lastName ? { last_name: user.lastName } : {}),
          ...(user.permissionProfile ? { permission_profile: { name: user.permissionProfile } } : {}),
          ...(ids.length > 0 ? { groups: ids } : {}),
        },
        { tag: ctx.tag },
      );
      await ctx.done(plan, 'created', added.id ?? user.email);
    } catch (error) {
      ctx.failed(plan, error);
    }
  }
}

/** One bulk import of the users to add, followed to its end; each row's result read back from its results CSV. */
async function addInBulk(
  account: ResolvedAccount,
  adds: readonly AccountItemPlan[],
  organization: OrganizationContext,
  ctx: ConvergeContext,
): Promise<void> {
  const { admin, accountId } = organization;
  const users = adds.map((p) => userOf(account, p)!);
  try {
    const started = await admin.importUsers(importCsv(accountId, users), { tag: ctx.tag });
    const done = await followWork(
      `${ctx.tag}: the organisation's bulk user import`,
      () => admin.userImport(started.id!, { tag: ctx.tag }),
      organization.delay,
    );
    const rows: string[][] = parse(await admin.userImportResults(done.id ?? started.id!, { tag: ctx.tag }), {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
    });
    const header = rows[0] ?? [];
    const result = header.findIndex((h) => h.trim().toLowerCase() === 'processingresults');
    const email = header.findIndex((h) => h.trim().toLowerCase() === 'useremail');
    // Row i of the import is at line i + 2 of its CSV (the header is line 1).
    for (const [i, plan] of adds.entries()) {
      const row = rows[i + 1];
      const outcome = row && result >= 0 ? (row[result] ?? '') : '';
      if (!row || lower(row[email]) !== lower(users[i]!.email)) {
        ctx.failed(
          plan,
          ctx.refused(`user ${users[i]!.email}`, `the import's results CSV has no line ${i + 2} for it`),
        );
        continue;
      }
      if (/^(user_added|user_updated|no_action_taken)/.test(outcome))
        await ctx.done(plan, outcome.startsWith('user_added') ? 'created' : 'up-to-date', users[i]!.email);
      else
        ctx.failed(
          plan,
          ctx.refused(
            `user ${users[i]!.email} (${placeOf(users[i]!)})`,
            `rejected at line ${i + 2} of the import CSV: ${outcome || 'no result'}`,
          ),
        );
    }
  } catch (error) {
    for (const plan of adds) ctx.failed(plan, error);
  }
}

function userOf(account: ResolvedAccount, plan: AccountItemPlan): ResolvedMembership | undefined {
  return membersOf(account).find((u) => lower(u.email) === lower(plan.name));
}

/** Its name in signrun's records, spelled once: the kind's and each of its items'. */
const kind = 'organizationUser' as const;

export const organizationUsers = {
  kind,
  // Its users name their profile and groups (by id); after Connect: the order plans, journals and imports keep.
  after: [permissionProfiles.kind, groups.kind, connectConfigurations.kind],
  words: { one: 'organisation user', summary: 'organisation users' },
  through: 'organization' as const,
  count: (account) => membersOf(account).length,
  async read(account, found, { organization, tag }) {
    if (organization && membersOf(account).length > 0)
      found.organizationUsers = (await organization.admin.users(organization.accountId, { tag })).flatMap((u) =>
        u.email && u.id && !/closed/i.test(u.membership_status ?? '') ? [{ email: u.email, id: u.id }] : [],
      );
  },
  // Pages of 250 users.
  readCalls: (_account, found) => (found.organizationUsers ? Math.floor(found.organizationUsers.length / 250) + 1 : 0),
  decide: (account, found, journal) =>
    membersOf(account).map((user) =>
      itemDecision(
        account,
        {
          kind,
          name: user.email,
          digest: digestOf({ email: lower(user.email), profile: user.permissionProfile ?? null, groups: user.groups }),
          id: found.organizationUsers?.find((u) => lower(u.email) === lower(user.email))?.id,
          differences: [],
        },
        journal,
      ),
    ),
  calls(plans) {
    const adds = plans.filter((p) => p.action === 'create').length;
    if (adds === 0) return 0;
    // In bulk: the import, about one look at its status, its results CSV; else one call each and the account's groups.
    return adds > defaultBulkAbove ? 3 : adds + 1;
  },
  async converge(account, plans, ctx) {
    const adds = plans.filter((p) => p.action === 'create');
    for (const p of plans) if (!adds.includes(p)) await ctx.done(p, settledOutcome(p.action), p.id);
    if (adds.length === 0) return;
    if (!ctx.organization) {
      for (const p of adds)
        ctx.failed(p, ctx.refused(`user ${p.name}`, 'the account has no organisation to add it through'));
      return;
    }
    if (goesInBulk(account, adds.length)) await addInBulk(account, adds, ctx.organization, ctx);
    else await addOneByOne(account, adds, ctx.organization, ctx);
  },
} satisfies AccountResourceKind;
