import { placeOf, type JobContext } from './job-context.js';
import type { ResolvedAccount, ResolvedAccountUser, ResolvedGroup, ResolvedPermissionProfile } from './model.js';
import type { RawAccount } from './raw-job.js';
import { resolveBrands, resolveConnect } from './resolve-account-brands.js';
import { fieldName } from './schema-check.js';
import { emailProblem } from './value-rules.js';
import { didYouMean } from '../errors/did-you-mean.js';
import { builtInGroups, builtInPermissionProfiles } from '../envelope/account-role-settings.js';

type Contents = Pick<ResolvedAccount, 'permissionProfiles' | 'groups' | 'users' | 'brands' | 'connect'>;

/**
 * The permission profiles, groups and users of one account entry, checked
 * offline: names unique as DocuSign keeps them (ignoring case; users by
 * email), every profile and group a group or user names defined in the
 * entry or given by DocuSign to every account, a present user with a
 * userName, emails well formed. `${env.*}` substituted by `sub`; booleans of
 * settings become DocuSign's strings. Reports at the line of the field.
 */
export function resolveAccountContents(
  raw: RawAccount,
  base: Array<string | number>,
  ctx: JobContext,
  sub: (value: string) => string,
): Contents {
  const say = (
    code: Parameters<JobContext['sink']['add']>[0],
    message: string,
    path: Array<string | number>,
    hint?: string,
  ) =>
    ctx.sink.add(code, message, placeOf(ctx, [...base, ...path]), {
      field: fieldName([...base, ...path]),
      ...(hint ? { hint } : {}),
    });
  const sourceOf = (path: Array<string | number>) => ({ file: ctx.file, ...ctx.locator.locate([...base, ...path]) });

  /** Keeps the first of each name (lower-cased), reporting the later ones. */
  function unique<T>(items: T[], nameOf: (item: T) => string, what: string, field: string, list: string) {
    const seen = new Map<string, number>();
    for (const [i, item] of items.entries()) {
      const name = nameOf(item).toLowerCase();
      const first = seen.get(name);
      if (first !== undefined)
        say(
          'SR_ACCOUNT_NAME_DUPLICATE',
          `${what} "${nameOf(item)}" is given twice in this account (also ${list}[${first}])${what === 'user' ? '' : what === 'permission profile' || what === 'group' ? ': DocuSign keeps one per name, ignoring case' : ': signrun finds it by name, ignoring case, and keeps one per name'}`,
          [list, i, field],
        );
      else seen.set(name, i);
    }
  }

  const profiles: ResolvedPermissionProfile[] = (raw.permissionProfiles ?? []).map((p, i) => ({
    permissionProfileName: sub(p.permissionProfileName),
    settings: Object.fromEntries(
      Object.entries(p.settings ?? {}).map(([name, value]) => [
        name,
        typeof value === 'boolean' ? String(value) : sub(value),
      ]),
    ),
    source: sourceOf(['permissionProfiles', i]),
  }));
  unique(profiles, (p) => p.permissionProfileName, 'permission profile', 'permissionProfileName', 'permissionProfiles');
  const profileNames = [...builtInPermissionProfiles, ...profiles.map((p) => p.permissionProfileName)];
  const knownProfile = (name: string, path: Array<string | number>) => {
    if (profileNames.some((n) => n.toLowerCase() === name.toLowerCase())) return;
    const near = didYouMean(name, profileNames);
    say(
      'SR_ACCOUNT_NAME_UNKNOWN',
      `permission profile "${name}" is neither in this account's permissionProfiles nor one DocuSign gives every account${near ? ` (did you mean "${near}"?)` : ''}`,
      path,
      `Known here: ${profileNames.map((n) => `"${n}"`).join(', ')}.`,
    );
  };

  const groups: ResolvedGroup[] = (raw.groups ?? []).map((g, i) => {
    const group: ResolvedGroup = { groupName: sub(g.groupName), source: sourceOf(['groups', i]) };
    if (g.permissionProfileName !== undefined) {
      group.permissionProfileName = sub(g.permissionProfileName);
      knownProfile(group.permissionProfileName, ['groups', i, 'permissionProfileName']);
    }
    return group;
  });
  unique(groups, (g) => g.groupName, 'group', 'groupName', 'groups');
  const groupNames = [...builtInGroups, ...groups.map((g) => g.groupName)];

  const users: ResolvedAccountUser[] = (raw.users ?? []).map((u, i) => {
    const user: ResolvedAccountUser = {
      email: sub(u.email),
      state: u.state ?? 'present',
      source: sourceOf(['users', i]),
    };
    const problem = emailProblem(user.email);
    if (problem) say('SR_EMAIL_INVALID', problem, ['users', i, 'email']);
    if (u.userName !== undefined) user.userName = sub(u.userName);
    else if (user.state === 'present')
      say('SR_ACCOUNT_FIELD_MISSING', `user ${user.email} (state: present) needs a userName to be added`, [
        'users',
        i,
        'email',
      ]);
    if (u.permissionProfileName !== undefined) {
      user.permissionProfileName = sub(u.permissionProfileName);
      knownProfile(user.permissionProfileName, ['users', i, 'permissionProfileName']);
    }
    if (u.groups !== undefined) {
      user.groups = u.groups.map((name, j) => {
        const group = sub(name);
        if (!groupNames.some((n) => n.toLowerCase() === group.toLowerCase())) {
          const near = didYouMean(group, groupNames);
          say(
            'SR_ACCOUNT_NAME_UNKNOWN',
            `group "${group}" is neither in this account's groups nor one DocuSign gives every account${near ? ` (did you mean "${near}"?)` : ''}`,
            ['users', i, 'groups', j],
            `Known here: ${groupNames.map((n) => `"${n}"`).join(', ')}.`,
          );
        }
        return group;
      });
      const seen = new Set<string>();
      for (const [j, g] of user.groups.entries()) {
        if (seen.has(g.toLowerCase()))
          say('SR_ACCOUNT_NAME_DUPLICATE', `group "${g}" is listed twice for user ${user.email}`, [
            'users',
            i,
            'groups',
            j,
          ]);
        seen.add(g.toLowerCase());
      }
    }
    return user;
  });
  unique(users, (u) => u.email, 'user', 'email', 'users');

  const contents: Contents = {};
  if (profiles.length > 0) contents.permissionProfiles = profiles;
  if (groups.length > 0) contents.groups = groups;
  if (users.length > 0) contents.users = users;
  const brands = resolveBrands(raw, base, ctx, sub);
  if (brands.length > 0) contents.brands = brands;
  unique(brands, (b) => b.brandName, 'brand', 'brandName', 'brands');
  const connect = resolveConnect(raw, base, ctx, sub);
  if (connect.length > 0) contents.connect = connect;
  unique(connect, (c) => c.name, 'Connect configuration', 'name', 'connect');
  return contents;
}
