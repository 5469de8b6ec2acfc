import { resolve } from 'node:path';
import { accountSettingNames } from '../envelope/account-setting-names.js';
import { didYouMean } from '../errors/did-you-mean.js';
import { confinedPath } from './confined-path.js';
import { readCsvRows } from './csv-rows.js';
import { placeOf, type JobContext } from './job-context.js';
import type { ResolvedAccount, ResolvedOrganization, ResolvedOrganizationUser } from './model.js';
import type { RawAccount, RawJobFile, RawOrganizationUser } from './raw-job.js';
import { substituteReferences } from './references.js';
import { fieldName } from './schema-check.js';
import { emailProblem } from './value-rules.js';

// The organisation's half of a job file (DESIGN.md, "Organisations as
// code"): an account entry provisioned through DocuSign's Admin API
// (`organizationId`, `cloneOf`, `admin`, `settings`) and the organisation's
// users (`organization:`), checked offline before any call.

/** DocuSign's account ids are GUIDs (the sandbox's too). */
const accountIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Users to add beyond which the run sends one bulk import (`organization.bulkImportAbove`). */
export const defaultBulkImportAbove = 20;

type Say = (code: Parameters<JobContext['sink']['add']>[0], message: string, path: Array<string | number>) => void;

function sayer(ctx: JobContext, base: Array<string | number>): Say {
  return (code, message, path) =>
    ctx.sink.add(code, message, placeOf(ctx, [...base, ...path]), { field: fieldName([...base, ...path]) });
}

/**
 * An account entry's organisation fields: `cloneOf` names another entry of
 * the same organisation in this file or an accountId (SR_ACCOUNT_CLONE_UNKNOWN),
 * every `settings` name is DocuSign's (SR_ACCOUNT_SETTING_UNKNOWN), a present
 * entry names its administrator.
 */
export function resolveAccountOrganization(
  raw: RawAccount,
  base: Array<string | number>,
  ctx: JobContext,
  sub: (value: string) => string,
  entries: readonly RawAccount[],
): Pick<ResolvedAccount, 'organization' | 'settings'> {
  const say = sayer(ctx, base);
  const out: Pick<ResolvedAccount, 'organization' | 'settings'> = {};
  if (raw.settings) {
    const settings: Record<string, string> = {};
    for (const [name, value] of Object.entries(raw.settings)) {
      if (!accountSettingNames.includes(name)) {
        const near = didYouMean(name, accountSettingNames);
        say(
          'SR_ACCOUNT_SETTING_UNKNOWN',
          `setting "${name}" is not one of DocuSign's account settings (accountSettingsInformation)${near ? `; did you mean "${near}"?` : ''}`,
          ['settings', name],
        );
      }
      settings[name] = typeof value === 'boolean' ? String(value) : sub(value);
    }
    if (raw.organizationId === undefined && Object.keys(settings).length > 0)
      say('SR_SCHEMA_VALUE', "settings are kept for an account with organizationId (DocuSign's Admin API)", [
        'settings',
      ]);
    out.settings = settings;
  }
  if (raw.organizationId === undefined) return out;
  const id = sub(raw.organizationId);
  const organization: NonNullable<ResolvedAccount['organization']> = { id };
  const namesake = sameNameBefore(raw, id, entries, sub);
  if (namesake)
    say(
      'SR_ACCOUNT_NAME_DUPLICATE',
      `accountName "${sub(raw.accountName)}" is also entry ${namesake.key}'s ("${sub(namesake.accountName)}"): organisation ${id} finds its accounts by name, ignoring case, so both entries would keep the one account`,
      ['accountName'],
    );
  if (raw.cloneOf !== undefined) {
    const named = sub(raw.cloneOf);
    const entry = entries.find((e) => e.key === named);
    if (entry && entry !== raw && entry.organizationId !== undefined && sub(entry.organizationId) === id)
      organization.cloneOf = { key: named };
    else if (!entry && accountIdPattern.test(named)) organization.cloneOf = { accountId: named };
    else {
      const keys = entries.filter((e) => e !== raw && e.organizationId !== undefined).map((e) => e.key);
      const near = didYouMean(named, keys);
      const why =
        entry === raw
          ? 'the entry itself'
          : entry
            ? `entry ${named}, which is not an account of organisation ${id}`
            : 'no account entry of this job file, nor an accountId';
      say(
        'SR_ACCOUNT_CLONE_UNKNOWN',
        `cloneOf "${named}" names ${why}${near ? ` (did you mean "${near}"?)` : ''}; the accounts of the organisation here are: ${keys.join(', ') || '(none)'}`,
        ['cloneOf'],
      );
    }
  }
  const circle = cloneCircle(raw, entries);
  if (circle && raw.cloneOf !== raw.key)
    say(
      'SR_ACCOUNT_CLONE_CYCLE',
      `cloneOf "${raw.cloneOf}" goes round in a circle (${[...circle, circle[0]].join(' → ')}): a clone's source is created first, so none of them could be`,
      ['cloneOf'],
    );
  // DocuSign's DS groups have a name only: a permission profile on one could never be kept.
  for (const [i, group] of (raw.groups ?? []).entries())
    if (group.permissionProfileName !== undefined)
      say(
        'SR_ORG_GROUP_UNSUPPORTED',
        `group "${group.groupName}" of an account with organizationId has permissionProfileName "${group.permissionProfileName}": the organisation keeps its groups by name (DocuSign's DS groups), with no permission profile`,
        ['groups', i, 'permissionProfileName'],
      );
  if (raw.countryCode !== undefined) organization.countryCode = sub(raw.countryCode);
  if (raw.admin) {
    const email = sub(raw.admin.email);
    const problem = emailProblem(email);
    if (problem) say('SR_EMAIL_INVALID', problem, ['admin', 'email']);
    organization.admin = { email };
    for (const field of ['firstName', 'lastName', 'locale'] as const) {
      const value = raw.admin[field];
      if (value !== undefined) organization.admin[field] = sub(value);
    }
  } else if ((raw.state ?? 'present') === 'present' && raw.accountId === undefined)
    say(
      'SR_ACCOUNT_FIELD_MISSING',
      `account ${raw.key} (organizationId, state: present) needs admin (its administrator's email) to be created or cloned`,
      ['key'],
    );
  out.organization = organization;
  return out;
}

/**
 * An earlier entry of the same organisation whose accountName is `raw`'s,
 * ignoring case: the organisation's record finds an account by its name
 * (organization-record.ts), so the two would adopt and converge one account.
 * Entries that both give their accountId are found by it, not by name.
 */
function sameNameBefore(
  raw: RawAccount,
  id: string,
  entries: readonly RawAccount[],
  sub: (value: string) => string,
): RawAccount | undefined {
  const name = sub(raw.accountName).toLowerCase();
  for (const entry of entries) {
    if (entry === raw) return undefined;
    if (entry.organizationId === undefined || sub(entry.organizationId) !== id) continue;
    if (raw.accountId !== undefined && entry.accountId !== undefined) continue;
    if (sub(entry.accountName).toLowerCase() === name) return entry;
  }
  return undefined;
}

/** The keys of a circle of `cloneOf` (by entry key) that `raw` is in; undefined when its sources end. */
function cloneCircle(raw: RawAccount, entries: readonly RawAccount[]): string[] | undefined {
  const path: RawAccount[] = [];
  for (let at: RawAccount | undefined = raw; at?.cloneOf !== undefined;) {
    path.push(at);
    at = entries.find((e) => e.key === at!.cloneOf);
    if (at === raw) return path.map((e) => e.key);
    if (at && path.includes(at)) return undefined; // a circle further on: reported at its own entries
  }
  return undefined;
}

/** One user as written (YAML or a CSV row), before its accounts are checked. */
interface WrittenUser {
  user: RawOrganizationUser;
  path: Array<string | number>;
  csvLine?: number;
  place?: { file: string; line: number; column: number };
}

/**
 * `organization:`: its users from the YAML and `usersCsv` (one row per user
 * and account, rows of one email joined), each account a key of an entry of
 * this organisation or an accountId (SR_ORG_USER_ACCOUNT_UNKNOWN, at the
 * YAML line or the CSV line).
 */
export async function resolveOrganization(
  raw: RawJobFile,
  ctx: JobContext,
  folderReal: string,
): Promise<ResolvedOrganization | undefined> {
  const org = raw.organization;
  if (!org) return undefined;
  const sub = (value: string): string => substituteReferences(value, (_kind, name) => ctx.env(name) ?? '');
  const say = sayer(ctx, ['organization']);
  const id = sub(org.id);
  const written: WrittenUser[] = (org.users ?? []).map((user, i) => ({ user, path: ['users', i] }));
  if (org.usersCsv !== undefined) written.push(...(await csvUsers(org.usersCsv, ctx, folderReal)));
  const ownKeys = (raw.accounts ?? []).filter((a) => a.organizationId !== undefined && sub(a.organizationId) === id);
  const keys = ownKeys.map((a) => a.key);
  const byEmail = new Map<string, ResolvedOrganizationUser>();
  for (const w of written) {
    const email = sub(w.user.email).trim();
    const report = (
      code: 'SR_ORG_USER_ACCOUNT_UNKNOWN' | 'SR_EMAIL_INVALID',
      message: string,
      field: Array<string | number>,
    ) =>
      w.place
        ? ctx.sink.add(code, message, w.place, { field: `organization.usersCsv line ${w.csvLine}` })
        : say(code, message, [...w.path, ...field]);
    const problem = emailProblem(email);
    if (problem) {
      report('SR_EMAIL_INVALID', problem, ['email']);
      continue;
    }
    const user = byEmail.get(email.toLowerCase()) ?? {
      email,
      userName: w.user.userName
        ? sub(w.user.userName)
        : [w.user.firstName, w.user.lastName].filter(Boolean).join(' ') || email,
      ...(w.user.firstName ? { firstName: sub(w.user.firstName) } : {}),
      ...(w.user.lastName ? { lastName: sub(w.user.lastName) } : {}),
      accounts: [],
      source: w.place ?? { file: ctx.file, ...ctx.locator.locate(['organization', ...w.path]) },
      ...(w.csvLine ? { csvLine: w.csvLine } : {}),
    };
    for (const [a, membership] of w.user.accounts.entries()) {
      const named = sub(membership.account);
      const account = keys.includes(named)
        ? { key: named }
        : accountIdPattern.test(named) && !(raw.accounts ?? []).some((e) => e.key === named)
          ? { accountId: named }
          : undefined;
      if (!account) {
        const near = didYouMean(named, keys);
        report(
          'SR_ORG_USER_ACCOUNT_UNKNOWN',
          `user ${email} is assigned to account "${named}", which is not in organisation ${id}${near ? ` (did you mean "${near}"?)` : ''}; its accounts here are: ${keys.join(', ') || '(none)'}`,
          ['accounts', a, 'account'],
        );
        continue;
      }
      user.accounts.push({
        account,
        ...(membership.permissionProfile ? { permissionProfile: sub(membership.permissionProfile) } : {}),
        groups: (membership.groups ?? []).map(sub),
      });
    }
    byEmail.set(email.toLowerCase(), user);
  }
  return {
    id,
    users: [...byEmail.values()],
    bulkImportAbove: org.bulkImportAbove ?? defaultBulkImportAbove,
    source: { file: ctx.file, ...ctx.locator.locate(['organization']) },
  };
}

/**
 * Each account entry of the organisation with the users that belong to it
 * (a membership naming an accountId rather than an entry is the
 * organisation's own account: not kept by an entry).
 */
export function withMemberships(
  accounts: ResolvedAccount[],
  organization: ResolvedOrganization | undefined,
): ResolvedAccount[] {
  if (!organization) return accounts;
  return accounts.map((account) => {
    if (account.organization?.id !== organization.id) return account;
    const members = organization.users.flatMap((user) =>
      user.accounts
        .filter((m) => 'key' in m.account && m.account.key === account.key)
        .map((m) => ({
          email: user.email,
          userName: user.userName,
          ...(user.firstName ? { firstName: user.firstName } : {}),
          ...(user.lastName ? { lastName: user.lastName } : {}),
          ...(m.permissionProfile ? { permissionProfile: m.permissionProfile } : {}),
          groups: m.groups,
          source: user.source,
          ...(user.csvLine ? { csvLine: user.csvLine } : {}),
        })),
    );
    return members.length > 0
      ? { ...account, organizationUsers: members, bulkImportAbove: organization.bulkImportAbove }
      : account;
  });
}

/** The users of `usersCsv`: one per row, with its line. */
async function csvUsers(file: string, ctx: JobContext, folderReal: string): Promise<WrittenUser[]> {
  const path = ['organization', 'usersCsv'];
  const absolute = resolve(ctx.folder, file);
  const confined = confinedPath(ctx.folder, folderReal, absolute);
  if (!confined.ok) {
    const code =
      confined.problem === 'missing' || confined.problem === 'not-a-file'
        ? 'SR_CSV_NOT_FOUND'
        : 'SR_CSV_OUTSIDE_JOB_FOLDER';
    ctx.sink.add(code, `CSV file ${file} cannot be read (${confined.problem})`, placeOf(ctx, path), {
      field: fieldName(path),
    });
    return [];
  }
  const shown = ctx.show(absolute);
  const csv = await readCsvRows(confined.real, shown);
  if (csv.source) ctx.sink.addSource(shown, csv.source);
  if (!csv.ok) {
    ctx.sink.add(csv.code, csv.message, { file: shown, line: csv.line, column: csv.column });
    return [];
  }
  for (const column of ['email', 'account'])
    if (!csv.columns.includes(column)) {
      ctx.sink.add(
        'SR_ROW_COLUMN_MISSING',
        `${shown} has no column "${column}" (organization.usersCsv)`,
        placeOf(ctx, path),
        {
          field: fieldName(path),
        },
      );
      return [];
    }
  return Array.from({ length: csv.rows.length }, (_, i) => {
    const row = csv.rows.take(i);
    const v = row.values;
    const cell = (name: string) => (v[name] ?? '').trim();
    const user: RawOrganizationUser = {
      email: cell('email'),
      ...(cell('userName') ? { userName: cell('userName') } : {}),
      ...(cell('firstName') ? { firstName: cell('firstName') } : {}),
      ...(cell('lastName') ? { lastName: cell('lastName') } : {}),
      accounts: [
        {
          account: cell('account'),
          ...(cell('permissionProfile') ? { permissionProfile: cell('permissionProfile') } : {}),
          groups: cell('groups')
            .split(';')
            .map((g) => g.trim())
            .filter(Boolean),
        },
      ],
    };
    return { user, path, csvLine: row.line, place: { file: shown, line: row.line, column: 1 } };
  });
}
