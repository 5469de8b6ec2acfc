import { groupsEntry } from '../../../jobs/account-entries/groups.js';
import type { ResolvedGroup } from '../../../jobs/model.js';
import type { GroupWire } from '../../../client/account-people.js';
import type { AccountItemPlan, FoundPeople } from '../../plan-types.js';
import { digestOf, earliest, itemDecision, lower, same, settledOutcome, shown, writeCalls } from '../item-decision.js';
import { keepsPeople, missingProfile, permissionProfiles, profileIdOf } from './permission-profiles.js';
import type { AccountResourceKind, ConvergeContext, OrganizationContext, ResourceImport } from '../resource-kind.js';
import type { RawAccount } from '../../../jobs/raw-job.js';
import { builtInGroups, sameName } from '../../../envelope/account-role-settings.js';

// An account's groups (DocuSign's #/definitions/group): found by name,
// compared by their permission profile. Converged after the profiles they
// name, before the users who join them; created and updated in one call each.

export const findGroup = (found: FoundPeople, name: string) =>
  earliest(
    found.groups.filter((g) => same(g.groupName, name)),
    (g) => g.groupId ?? '',
  );

/** The id of the group of a name in the account, as far as `found` knows it. */
export const groupIdOf = (found: FoundPeople, name: string) => findGroup(found, name)?.groupId;

export const groupDigest = (g: ResolvedGroup) => digestOf({ n: lower(g.groupName), p: lower(g.permissionProfileName) });

/** An organisation's account's groups, as its Admin API lists them (DocuSign's DS groups: a name, no permission profile). */
async function organizationGroups(organization: OrganizationContext, tag: string): Promise<GroupWire[]> {
  const listed = await organization.admin.accountGroups(organization.accountId, { tag });
  return listed.flatMap((g) => (g.name && g.id !== undefined ? [{ groupId: String(g.id), groupName: g.name }] : []));
}

/**
 * An organisation's account's groups to create, through its Admin API (its
 * new account's only user is an invited administrator: nobody signrun can
 * log in as): each one its listing (`ctx.found`, read by the plan, or by the
 * run once the account exists — a clone brings its source's groups, and a run
 * stopped after a creation left it) lacks is created, one call each, and the
 * listing read again to confirm them: {@link organizationGroupCalls}.
 */
async function convergeThroughOrganization(
  plans: readonly AccountItemPlan[],
  organization: OrganizationContext,
  ctx: ConvergeContext,
): Promise<void> {
  const creates = plans.filter((p) => p.action === 'create');
  for (const plan of plans.filter((p) => !creates.includes(p)))
    if (plan.action === 'up-to-date' || plan.action === 'already-absent')
      await ctx.done(plan, settledOutcome(plan.action), plan.id);
    // DocuSign's DS groups have a name only: a permission profile, or a deletion, is not signrun's to make through them yet.
    else
      ctx.failed(
        plan,
        ctx.refused(
          `group "${plan.name}"`,
          `an organisation's account's groups are kept by name through its Admin API; ${plan.action === 'update' ? 'their permission profile' : 'their deletion'} is not`,
        ),
      );
  if (creates.length === 0) return;
  try {
    const missing = creates.filter((p) => !findGroup(ctx.found, p.name));
    for (const plan of missing)
      await organization.admin.createDsGroup(organization.accountId, plan.name, { tag: ctx.tag });
    if (missing.length > 0) ctx.found.groups = await organizationGroups(organization, ctx.tag);
    for (const plan of creates) {
      const there = findGroup(ctx.found, plan.name);
      if (!there?.groupId) ctx.failed(plan, ctx.refused(`group "${plan.name}"`, 'not listed after its creation'));
      else await ctx.done(plan, missing.includes(plan) ? 'created' : 'up-to-date', there.groupId);
    }
  } catch (error) {
    for (const plan of creates) if (!ctx.hasOutcome(plan)) ctx.failed(plan, error);
  }
}

/** The calls of an organisation's account's groups: one creation each (DS groups are made one by one), one listing to confirm them; nothing else is written. */
function organizationGroupCalls(plans: readonly AccountItemPlan[]): number {
  const creates = plans.filter((p) => p.action === 'create').length;
  return creates > 0 ? creates + 1 : 0;
}

/** `import account`: every group not DocuSign's own (Administrators, Everyone), with its profile's name. */
const groupsImport: ResourceImport = {
  field: 'groups',
  async read(found, { people, tag }) {
    found.groups = await people.listGroups({ tag });
  },
  entries(found, ctx) {
    const profileName = (id: string | undefined) =>
      id === undefined ? undefined : found.profiles.find((p) => p.permissionProfileId === id)?.permissionProfileName;
    const groups: NonNullable<RawAccount['groups']> = [];
    for (const group of found.groups) {
      const name = group.groupName;
      const builtIn = /^(adminGroup|everyoneGroup)$/i.test(group.groupType ?? '');
      if (!name || builtIn || builtInGroups.some((b) => sameName(b, name))) continue;
      if (findGroup(found, name) !== group) {
        ctx.leaveOut(`group "${name}" (${group.groupId ?? 'no id'}): a second one of that name`);
        continue;
      }
      const profile = profileName(group.permissionProfileId);
      groups.push({ groupName: name, ...(profile ? { permissionProfileName: profile } : {}) });
    }
    return groups;
  },
};

export const groups = {
  kind: 'group' as const,
  // A group names its permission profile.
  after: [permissionProfiles.kind],
  entry: groupsEntry,
  words: { one: 'group', summary: 'groups', alwaysSummarised: true },
  // An organisation's account's groups are kept through its Admin API (DS groups), as its settings and users are.
  through: (account) => (account.organization ? 'organization' : undefined),
  count: (account) => account.groups?.length ?? 0,

  async read(account, found, { people, tag, organization }) {
    if (account.organization) {
      if (organization && (account.groups?.length ?? 0) > 0) found.groups = await organizationGroups(organization, tag);
    } else if (keepsPeople(account)) found.groups = await people.listGroups({ tag });
  },
  readCalls: (account) => (keepsPeople(account) || (account.organization && account.groups?.length) ? 1 : 0),

  decide(account, found, journal) {
    const profileName = (id: string | undefined) =>
      found.profiles.find((p) => p.permissionProfileId === id)?.permissionProfileName;
    return (account.groups ?? []).map((group) => {
      const there = findGroup(found, group.groupName);
      const differences: string[] = [];
      const now = profileName(there?.permissionProfileId);
      if (group.permissionProfileName !== undefined && !same(now, group.permissionProfileName))
        differences.push(`permissionProfileName: ${shown(now)} → ${JSON.stringify(group.permissionProfileName)}`);
      return itemDecision(
        account,
        { kind: 'group', name: group.groupName, digest: groupDigest(group), id: there?.groupId, differences },
        journal,
      );
    });
  },

  calls: (plans, account) =>
    account.organization ? organizationGroupCalls(plans) : writeCalls(plans, { batchedCreates: true }),

  /** One batch of creates, then one listing: the earliest of a name stays, the others are deleted in one call. */
  async converge(account, plans, ctx) {
    if (account.organization) {
      if (ctx.organization) await convergeThroughOrganization(plans, ctx.organization, ctx);
      else
        for (const p of plans)
          ctx.failed(p, ctx.refused(`group ${p.name}`, 'the account has no organisation to keep it through'));
      return;
    }
    const opts = { tag: ctx.tag };
    const entries = new Map((account.groups ?? []).map((g) => [lower(g.groupName), g]));
    const profileOf = (name: string) => entries.get(lower(name))!.permissionProfileName;
    const creates = plans.filter((p) => p.action === 'create' && !missingProfile(p, profileOf(p.name), ctx));
    if (creates.length > 0) {
      let error: unknown;
      try {
        await ctx.people.createGroups(
          creates.map((p) => {
            const g = entries.get(lower(p.name))!;
            const id = profileIdOf(ctx.found, g.permissionProfileName);
            return { groupName: g.groupName, ...(id ? { permissionProfileId: id } : {}) };
          }),
          opts,
        );
      } catch (e) {
        error = e;
      }
      ctx.found.groups = await ctx.people.listGroups(opts);
      const losers: string[] = [];
      for (const plan of creates) {
        const winner = findGroup(ctx.found, plan.name);
        if (!winner?.groupId) {
          ctx.failed(plan, error ?? ctx.refused(`group "${plan.name}"`, 'not listed after its creation'));
          continue;
        }
        losers.push(
          ...ctx.found.groups.filter((g) => same(g.groupName, plan.name) && g !== winner).map((g) => g.groupId ?? ''),
        );
        await ctx.done(plan, 'created', winner.groupId);
      }
      if (losers.length > 0) {
        await ctx.people.deleteGroups(losers, opts);
        ctx.found.groups = ctx.found.groups.filter((g) => !losers.includes(g.groupId ?? ''));
      }
    }
    const updates = plans.filter((p) => p.action === 'update' && !missingProfile(p, profileOf(p.name), ctx));
    if (updates.length > 0) {
      try {
        const answered = await ctx.people.updateGroups(
          updates.map((p) => ({ groupId: p.id!, permissionProfileId: profileIdOf(ctx.found, profileOf(p.name))! })),
          opts,
        );
        for (const plan of updates) {
          const item = answered.find((g) => g.groupId === plan.id);
          if (item?.errorDetails) ctx.failed(plan, ctx.refused(`group "${plan.name}"`, item.errorDetails.message));
          else await ctx.done(plan, 'updated', plan.id);
        }
      } catch (error) {
        for (const plan of updates) ctx.failed(plan, error);
      }
    }
    for (const plan of plans.filter((p) => p.action === 'up-to-date')) await ctx.done(plan, 'up-to-date', plan.id);
  },

  import: groupsImport,
} satisfies AccountResourceKind;
