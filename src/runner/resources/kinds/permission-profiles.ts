import { permissionProfilesEntry } from '../../../jobs/account-entries/permission-profiles.js';
import type { ResolvedAccount, ResolvedPermissionProfile } from '../../../jobs/model.js';
import type { AccountItemPlan, FoundPeople } from '../../plan-types.js';
import { digestOf, earliest, itemDecision, lower, same, settledOutcome, shown, writeCalls } from '../item-decision.js';
import type { AccountResourceKind, ConvergeContext, ResourceImport } from '../resource-kind.js';
import type { RawAccount } from '../../../jobs/raw-job.js';
import {
  accountRoleSettingNames,
  builtInPermissionProfiles,
  sameName,
} from '../../../envelope/account-role-settings.js';

// An account's permission profiles (DocuSign's #/definitions/permissionProfile):
// found by name, compared setting by setting. Converged first: groups and
// users name them.

/** The profile of a name that counts: the earliest (DocuSign's ids grow). */
export const findProfile = (found: FoundPeople, name: string) =>
  earliest(
    found.profiles.filter((p) => same(p.permissionProfileName, name)),
    (p) => p.permissionProfileId,
  );

/** The id of the profile of a name in the account, as far as `found` knows it. */
export const profileIdOf = (found: FoundPeople, name: string | undefined) =>
  name === undefined ? undefined : findProfile(found, name)?.permissionProfileId;

export const profileDigest = (p: ResolvedPermissionProfile) =>
  digestOf({ n: lower(p.permissionProfileName), s: Object.entries(p.settings).sort(([a], [b]) => a.localeCompare(b)) });

/** Whether an entry keeps permission profiles, groups or users: then the account's three are listed, to compare. */
export function keepsPeople(account: ResolvedAccount): boolean {
  const groups = account.organization ? 0 : (account.groups?.length ?? 0);
  return (account.permissionProfiles?.length ?? 0) + groups + (account.users?.length ?? 0) > 0;
}

/**
 * Fails an item whose permission profile (by name) is not in the account; says
 * whether it did. Groups and users name profiles.
 */
export function missingProfile(plan: AccountItemPlan, name: string | undefined, ctx: ConvergeContext): boolean {
  if (name === undefined || profileIdOf(ctx.found, name)) return false;
  ctx.failed(
    plan,
    ctx.refused(`${plan.kind} "${plan.name}"`, `its permission profile "${name}" is not in the account`),
  );
  return true;
}

/** DocuSign's "true"/"false" as YAML booleans (the resolver turns them back into those very strings). */
export const asWritten = (value: string): string | boolean =>
  value === 'true' ? true : value === 'false' ? false : value;

/** `import account`: every profile not DocuSign's own, its settings as DocuSign answers them. */
const profilesImport: ResourceImport = {
  field: 'permissionProfiles',
  async read(found, { people, tag }) {
    found.profiles = await people.listPermissionProfiles({ tag });
  },
  entries(found, ctx) {
    const profiles: NonNullable<RawAccount['permissionProfiles']> = [];
    for (const profile of found.profiles) {
      const name = profile.permissionProfileName;
      if (!name || builtInPermissionProfiles.some((b) => sameName(b, name))) continue;
      if (findProfile(found, name) !== profile) {
        ctx.leaveOut(`permission profile "${name}" (${profile.permissionProfileId}): a second one of that name`);
        continue;
      }
      const settings: Record<string, string | boolean> = {};
      for (const setting of accountRoleSettingNames) {
        const value = profile.settings?.[setting];
        if (typeof value === 'string' && value !== '') settings[setting] = asWritten(value);
      }
      profiles.push({ permissionProfileName: name, ...(Object.keys(settings).length > 0 ? { settings } : {}) });
    }
    return profiles;
  },
};

export const permissionProfiles = {
  kind: 'permissionProfile' as const,
  entry: permissionProfilesEntry,
  words: { one: 'permission profile', summary: 'profiles', alwaysSummarised: true },
  count: (account) => account.permissionProfiles?.length ?? 0,

  async read(account, found, { people, tag }) {
    if (keepsPeople(account)) found.profiles = await people.listPermissionProfiles({ tag });
  },
  readCalls: (account) => (keepsPeople(account) ? 1 : 0),

  decide(account, found, journal) {
    return (account.permissionProfiles ?? []).map((profile) => {
      const there = findProfile(found, profile.permissionProfileName);
      // DocuSign answers every setting as a string; anything else reads as not set.
      const settingOf = (setting: string) => {
        const now = there?.settings?.[setting];
        return typeof now === 'string' ? now : undefined;
      };
      const differences = Object.entries(profile.settings)
        .filter(([setting, value]) => settingOf(setting) !== value)
        .map(([setting, value]) => `settings.${setting}: ${shown(settingOf(setting))} → ${JSON.stringify(value)}`);
      return itemDecision(
        account,
        {
          kind: 'permissionProfile',
          name: profile.permissionProfileName,
          digest: profileDigest(profile),
          id: there?.permissionProfileId,
          differences,
        },
        journal,
      );
    });
  },

  calls: (plans) => writeCalls(plans),

  /** One create per profile, then one listing: the earliest of a name stays, a racing run's duplicate is deleted. */
  async converge(account, plans, ctx) {
    const opts = { tag: ctx.tag };
    const profiles = new Map((account.permissionProfiles ?? []).map((p) => [lower(p.permissionProfileName), p]));
    const creates = plans.filter((p) => p.action === 'create');
    const createErrors = new Map<string, unknown>();
    for (const plan of creates) {
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
    if (creates.length > 0) {
      ctx.found.profiles = await ctx.people.listPermissionProfiles(opts);
      for (const plan of creates) {
        const all = ctx.found.profiles.filter((p) => same(p.permissionProfileName, plan.name));
        const winner = findProfile(ctx.found, plan.name);
        if (!winner) {
          ctx.failed(
            plan,
            createErrors.get(plan.identity) ??
              ctx.refused(`permission profile "${plan.name}"`, 'not listed after its creation'),
          );
          continue;
        }
        for (const loser of all.filter((p) => p !== winner))
          await ctx.people.deletePermissionProfile(loser.permissionProfileId, opts);
        ctx.found.profiles = ctx.found.profiles.filter((p) => !all.includes(p) || p === winner);
        await ctx.done(plan, 'created', winner.permissionProfileId);
      }
    }
    for (const plan of plans.filter((p) => p.action !== 'create')) {
      if (plan.action !== 'update') {
        await ctx.done(plan, settledOutcome(plan.action), plan.id);
        continue;
      }
      const profile = profiles.get(lower(plan.name))!;
      try {
        const there = findProfile(ctx.found, plan.name)!;
        // The account's name is kept as it is written there (DocuSign compares names ignoring case).
        await ctx.people.updatePermissionProfile(
          plan.id!,
          { permissionProfileName: there.permissionProfileName, settings: profile.settings },
          opts,
        );
        await ctx.done(plan, 'updated', plan.id);
      } catch (error) {
        ctx.failed(plan, error);
      }
    }
  },

  import: profilesImport,
} satisfies AccountResourceKind;
