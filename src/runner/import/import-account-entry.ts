import type { BrandWire, ConnectConfigurationWire } from '../../client/account-brands.js';
import { brandLogoTypes, type BrandLogoType } from '../../envelope/brand-logo.js';
import type { GroupWire, PermissionProfileWire, UserWire } from '../../client/account-people.js';
import {
  accountRoleSettingNames,
  builtInGroups,
  builtInPermissionProfiles,
  sameName,
} from '../../envelope/account-role-settings.js';
import type { RawAccount, RawBrand, RawConnect } from '../../jobs/raw-job.js';
import { slugOf } from '../../jobs/template-job-file.js';
import { findBrand } from '../resources/brands.js';
import { findConnect } from '../resources/connect-configurations.js';
import { findGroup } from '../resources/groups.js';
import { findProfile } from '../resources/permission-profiles.js';
import { findUser, userGroupNames } from '../resources/users.js';

// What `signrun import account` writes of an account's people, brands and
// Connect configurations: the `accounts:` entry that `signrun plan` compares
// with that very account and finds equal (each kind's module
// under resources/ decides; every field written here is one they compare
// as the account answers it). Pure: no call, no file.

/** An account entry as the import writes it: the job schema's account, with the templates it lists. */
export type ImportedAccountEntry = RawAccount & { templates?: string[] };

/** What the account holds, as its listings answered (closed users included or not: they are left out). */
export interface AccountReading {
  accountId: string;
  accountName: string;
  /** The account's plan (GET …/accounts/{accountId}: currentPlanId), when the service says it. */
  planId?: string;
  /** The user signrun logs in as to manage the account: the one logged in now. */
  userId?: string;
  /** That user's email, when the login gave it (found among the users otherwise). */
  email?: string;
  profiles: PermissionProfileWire[];
  groups: GroupWire[];
  users: UserWire[];
  brands: BrandWire[];
  connect: ConnectConfigurationWire[];
  /** Each logo read, by brandId and type: its bytes' file extension (png, jpg, gif), or undefined when not an image. */
  logos: ReadonlyMap<string, Partial<Record<BrandLogoType, string | undefined>>>;
}

/** A `${env.NAME}` the written file needs set, and what for (said after the import, and in a comment). */
export interface NeededVariable {
  name: string;
  purpose: string;
}

/** The entry and what goes with it. */
export interface AccountEntryImport {
  key: string;
  entry: ImportedAccountEntry;
  /** Logos to write: brandId and type, and the file relative to the job file (forward slashes). */
  logos: Array<{ brandId: string; type: BrandLogoType; file: string }>;
  variables: NeededVariable[];
  /** What the account holds that the entry leaves out, and why (each one line, for people). */
  leftOut: string[];
  /** Comments to attach to fields of the entry: path inside the entry → text. */
  comments: Array<{ path: Array<string | number>; comment: string }>;
}

/** A name as an environment variable's tail: upper-case letters, digits and `_`. */
export function variableTail(name: string): string {
  return slugOf(name).toUpperCase().replace(/-/g, '_').slice(0, 60);
}

const flagPattern = /^(true|false)$/i;
/** DocuSign's "true"/"false" as YAML booleans (the resolver turns them back into those very strings). */
const asWritten = (value: string): string | boolean => (value === 'true' ? true : value === 'false' ? false : value);

/** Connect fields the job schema has that are flags (boolean or DocuSign's string), in the schema's order. */
const connectFlags = [
  'allowEnvelopePublish',
  'allUsers',
  'includeHMAC',
  'requireMutualTls',
  'requiresAcknowledgement',
  'enableLog',
  'includeDocuments',
  'includeCertificateOfCompletion',
  'includeDocumentFields',
  'includeEnvelopeVoidReason',
  'includeTimeZoneInformation',
] as const;
const connectLists = ['userIds', 'events', 'envelopeEvents', 'recipientEvents'] as const;
const eventDataFields = new Set(['version', 'format', 'includeData']);
const colourPattern = /^#[0-9a-fA-F]{6}$/;

/**
 * The `accounts:` entry of the account read: its id and the user signrun
 * logs in as; the initial user and plan that `state: present` asks for (the
 * password only ever `${env.*}`); the permission profiles and groups that
 * are not DocuSign's own (Account Administrator, DocuSign Sender, DocuSign
 * Viewer; Administrators, Everyone), every user not closed with their
 * profile and groups, every brand with its logos as files under
 * `brands/<brand>/`, every Connect configuration with its listener password
 * as `${env.SIGNRUN_CONNECT_PASSWORD_<NAME>}` (DocuSign never answers it).
 * Where the account has two of a name (a race), the one the plan finds is
 * written and the other is said in `leftOut`.
 */
export function accountEntryOf(
  reading: AccountReading,
  options: { key: string; passwordVariable: string; passwordPurpose: string },
): AccountEntryImport {
  const leftOut: string[] = [];
  const variables: NeededVariable[] = [];
  const comments: AccountEntryImport['comments'] = [];
  const logos: AccountEntryImport['logos'] = [];
  const found = { profiles: reading.profiles, groups: reading.groups, users: reading.users };

  const entry: ImportedAccountEntry = { key: options.key, accountName: reading.accountName };
  entry.accountId = reading.accountId;
  const me =
    reading.users.find((u) => reading.userId !== undefined && u.userId === reading.userId) ??
    (reading.email ? findUser(found, reading.email) : undefined);
  const userId = reading.userId ?? me?.userId;
  if (userId) entry.userId = userId;
  else leftOut.push('userId: the login did not say which user it is; plan cannot read the account without it');
  const email = me?.email ?? reading.email;
  if (email) {
    entry.initialUser = {
      email,
      ...(me?.userName ? { userName: me.userName } : {}),
      password: `\${env.${options.passwordVariable}}`,
    };
    variables.push({ name: options.passwordVariable, purpose: options.passwordPurpose });
    comments.push({
      path: ['initialUser', 'password'],
      comment: ` set ${options.passwordVariable} (see the top of the file)`,
    });
  }
  entry.planInformation = { planId: reading.planId ?? '${env.PLAN_ID}' };
  if (!reading.planId)
    variables.push({ name: 'PLAN_ID', purpose: "the account's plan id (the service did not say it)" });

  // Permission profiles, not DocuSign's own; their settings as DocuSign answers them.
  const profiles: NonNullable<RawAccount['permissionProfiles']> = [];
  for (const profile of reading.profiles) {
    const name = profile.permissionProfileName;
    if (!name || builtInPermissionProfiles.some((b) => sameName(b, name))) continue;
    if (findProfile(found, name) !== profile) {
      leftOut.push(`permission profile "${name}" (${profile.permissionProfileId}): a second one of that name`);
      continue;
    }
    const settings: Record<string, string | boolean> = {};
    for (const setting of accountRoleSettingNames) {
      const value = profile.settings?.[setting];
      if (typeof value === 'string' && value !== '') settings[setting] = asWritten(value);
    }
    profiles.push({ permissionProfileName: name, ...(Object.keys(settings).length > 0 ? { settings } : {}) });
  }
  if (profiles.length > 0) entry.permissionProfiles = profiles;

  const profileName = (id: string | undefined) =>
    id === undefined ? undefined : reading.profiles.find((p) => p.permissionProfileId === id)?.permissionProfileName;
  const groups: NonNullable<RawAccount['groups']> = [];
  for (const group of reading.groups) {
    const name = group.groupName;
    const builtIn = /^(adminGroup|everyoneGroup)$/i.test(group.groupType ?? '');
    if (!name || builtIn || builtInGroups.some((b) => sameName(b, name))) continue;
    if (findGroup(found, name) !== group) {
      leftOut.push(`group "${name}" (${group.groupId ?? 'no id'}): a second one of that name`);
      continue;
    }
    const profile = profileName(group.permissionProfileId);
    groups.push({ groupName: name, ...(profile ? { permissionProfileName: profile } : {}) });
  }
  if (groups.length > 0) entry.groups = groups;

  const users: NonNullable<RawAccount['users']> = [];
  for (const user of reading.users) {
    if (!user.email || user.userStatus?.toLowerCase() === 'closed') continue;
    if (findUser(found, user.email) !== user) {
      leftOut.push(`user ${user.email} (${user.userId ?? 'no id'}): a second one of that email`);
      continue;
    }
    if (!user.userName) {
      leftOut.push(`user ${user.email}: the account gives no userName, which an entry needs`);
      continue;
    }
    users.push({
      userName: user.userName,
      email: user.email,
      ...(user.permissionProfileName ? { permissionProfileName: user.permissionProfileName } : {}),
      groups: userGroupNames(user),
    });
  }
  if (users.length > 0) entry.users = users;

  // Brands: folder names from the brand's name, made unique (ignoring case, as file systems may).
  const brands: RawBrand[] = [];
  const folders = new Set<string>();
  for (const brand of reading.brands) {
    const name = brand.brandName;
    if (!name || !brand.brandId) continue;
    if (findBrand(reading.brands, name) !== brand) {
      leftOut.push(`brand "${name}" (${brand.brandId}): a second one of that name`);
      continue;
    }
    let folder = slugOf(name).slice(0, 60).replace(/-+$/, '') || 'brand';
    for (let n = 2; folders.has(folder); n++) folder = `${slugOf(name).slice(0, 56)}-${n}`;
    folders.add(folder);
    const written: RawBrand = { brandName: name };
    if (brand.brandCompany) written.brandCompany = brand.brandCompany;
    if (brand.colors && brand.colors.length > 0) {
      const colors = brand.colors.filter(
        (c): c is { name: string; value: string } => !!c.name && colourPattern.test(c.value ?? ''),
      );
      if (colors.length === brand.colors.length) written.colors = colors.map((c) => ({ name: c.name, value: c.value }));
      else leftOut.push(`brand "${name}": colors (one is not a #rrggbb colour a job file takes; left as they are)`);
    }
    const brandLogos: NonNullable<RawBrand['logos']> = {};
    const read = reading.logos.get(brand.brandId) ?? {};
    for (const type of brandLogoTypes) {
      if (!brand.logos?.[type]) continue;
      const extension = read[type];
      if (!extension) {
        leftOut.push(`brand "${name}": its ${type} logo is not a PNG, JPEG or GIF image (left as it is)`);
        continue;
      }
      const file = `brands/${folder}/logo-${type}.${extension}`;
      brandLogos[type] = file;
      logos.push({ brandId: brand.brandId, type, file });
    }
    if (Object.keys(brandLogos).length > 0) written.logos = brandLogos;
    if (brand.emailContent && brand.emailContent.length > 0) {
      const known = new Set(['emailContentType', 'content', 'emailToLink', 'linkText']);
      const fit = brand.emailContent.every(
        (e) =>
          typeof e['emailContentType'] === 'string' &&
          typeof e['content'] === 'string' &&
          Object.keys(e).every((k) => known.has(k)),
      );
      if (fit)
        written.emailContent = brand.emailContent.map((e) => ({
          emailContentType: e['emailContentType']!,
          content: e['content']!,
          ...(e['emailToLink'] !== undefined ? { emailToLink: e['emailToLink'] } : {}),
          ...(e['linkText'] !== undefined ? { linkText: e['linkText'] } : {}),
        }));
      else leftOut.push(`brand "${name}": emailContent (a field a job file has no place for; left as it is)`);
    }
    for (const flag of ['isSendingDefault', 'isSigningDefault'] as const) {
      const value = brand[flag];
      if (value !== undefined && flagPattern.test(String(value)))
        written[flag] = String(value).toLowerCase() === 'true';
    }
    brands.push(written);
  }
  if (brands.length > 0) entry.brands = brands;

  // Connect configurations: the fields the job schema has, as the account answers them.
  const connect: RawConnect[] = [];
  const passwordNames = new Set<string>();
  for (const config of reading.connect) {
    const name = typeof config.name === 'string' ? config.name : undefined;
    const url = config['urlToPublishTo'];
    if (!name || !config.connectId) continue;
    if (findConnect(reading.connect, name) !== config) {
      leftOut.push(`Connect configuration "${name}" (${config.connectId}): a second one of that name`);
      continue;
    }
    if (typeof url !== 'string' || url === '') {
      leftOut.push(`Connect configuration "${name}": it has no urlToPublishTo, which an entry needs`);
      continue;
    }
    const written: RawConnect = { name, urlToPublishTo: url };
    for (const flag of connectFlags) {
      const value = config[flag];
      if (typeof value === 'boolean') written[flag] = value;
      else if (typeof value === 'string' && flagPattern.test(value)) written[flag] = value.toLowerCase() === 'true';
    }
    for (const list of connectLists) {
      const value = config[list];
      if (Array.isArray(value) && value.length > 0) {
        if (value.every((v) => typeof v === 'string')) written[list] = value;
        else leftOut.push(`Connect configuration "${name}": ${list} (not a list of names; left as it is)`);
      }
    }
    const eventData = config['eventData'];
    if (eventData !== null && typeof eventData === 'object' && !Array.isArray(eventData)) {
      const data = eventData as Record<string, unknown>;
      const fits =
        Object.keys(data).every((k) => eventDataFields.has(k)) &&
        (data['version'] === undefined || typeof data['version'] === 'string') &&
        (data['format'] === undefined || typeof data['format'] === 'string') &&
        (data['includeData'] === undefined ||
          (Array.isArray(data['includeData']) && data['includeData'].every((v) => typeof v === 'string')));
      if (fits && Object.keys(data).length > 0) written.eventData = data;
      else if (!fits)
        leftOut.push(`Connect configuration "${name}": eventData (a field a job file has no place for; left as it is)`);
    }
    const userName = config['userName'];
    if (typeof userName === 'string' && userName !== '') {
      written.userName = userName;
      // The account never answers the listener's password: the file names a variable for it.
      let variable = `SIGNRUN_CONNECT_PASSWORD_${variableTail(name)}`;
      for (let n = 2; passwordNames.has(variable); n++)
        variable = `SIGNRUN_CONNECT_PASSWORD_${variableTail(name)}_${n}`;
      passwordNames.add(variable);
      written.password = `\${env.${variable}}`;
      const purpose = `the password of the listener of Connect configuration "${name}" (user ${userName}); DocuSign never shows it`;
      variables.push({ name: variable, purpose });
      comments.push({
        path: ['connect', connect.length, 'password'],
        comment: ` set ${variable} (see the top of the file)`,
      });
    }
    connect.push(written);
  }
  if (connect.length > 0) entry.connect = connect;

  return { key: options.key, entry, logos, variables, leftOut, comments };
}
