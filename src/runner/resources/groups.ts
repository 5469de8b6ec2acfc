import type { ResolvedGroup } from '../../jobs/model.js';
import type { FoundPeople } from '../plan-types.js';
import { digestOf, earliest, itemDecision, lower, same, shown, writeCalls } from './item-decision.js';
import { keepsPeople, missingProfile, profileIdOf } from './permission-profiles.js';
import type { AccountResourceKind } from './resource-kind.js';

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

export const groups = {
  kind: 'group' as const,
  words: { one: 'group', summary: 'profiles, groups and users', alwaysSummarised: true },
  count: (account) => account.groups?.length ?? 0,

  async read(account, found, { people, tag }) {
    if (keepsPeople(account)) found.groups = await people.listGroups({ tag });
  },
  readCalls: (account) => (keepsPeople(account) ? 1 : 0),

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

  calls: (plans) => writeCalls(plans, { batchedCreates: true }),

  /** One batch of creates, then one listing: the earliest of a name stays, the others are deleted in one call. */
  async converge(account, plans, ctx) {
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
} satisfies AccountResourceKind;
