import type { SandboxDatabase } from '../../platform/db/open-database.js';
import type { AccountRoleSettings } from '../../../envelope/account-role-settings.js';

/** A permission profile of an account (#/definitions/permissionProfile). */
export interface PermissionProfileRecord {
  /** DocuSign's ids of profiles are small numbers, sent as strings. */
  id: string;
  accountId: string;
  name: string;
  settings: AccountRoleSettings;
  /** One DocuSign gives every account (Account Administrator, DocuSign Sender, DocuSign Viewer): never deleted. */
  builtIn: boolean;
  modifiedAt: number;
  modifiedBy: string | null;
}

interface Row {
  id: number;
  account_id: string;
  name: string;
  settings_json: string;
  built_in: number;
  modified_at: number;
  modified_by: string | null;
}

const toRecord = (r: Row): PermissionProfileRecord => ({
  id: String(r.id),
  accountId: r.account_id,
  name: r.name,
  settings: JSON.parse(r.settings_json) as AccountRoleSettings,
  builtIn: r.built_in === 1,
  modifiedAt: r.modified_at,
  modifiedBy: r.modified_by,
});

const yes = 'true';
const no = 'false';
/**
 * The profiles every DocuSign account starts with, and what the sandbox
 * honours of them: an administrator manages the account's users, groups and
 * profiles; a sender sends; a viewer does neither.
 */
export const builtInProfiles: ReadonlyArray<{ name: string; settings: AccountRoleSettings }> = [
  {
    name: 'Account Administrator',
    settings: {
      allowAccountManagement: yes,
      allowEnvelopeSending: yes,
      allowBulkSending: yes,
      allowApiAccess: yes,
      allowApiAccessToAccount: yes,
      allowedTemplateAccess: 'share',
      allowedAddressBookAccess: 'personalAndShared',
      powerFormRole: 'admin',
    },
  },
  {
    name: 'DocuSign Sender',
    settings: {
      allowAccountManagement: no,
      allowEnvelopeSending: yes,
      allowBulkSending: no,
      allowApiAccess: yes,
      allowApiAccessToAccount: yes,
      allowedTemplateAccess: 'share',
      allowedAddressBookAccess: 'personalAndShared',
      powerFormRole: 'user',
    },
  },
  {
    name: 'DocuSign Viewer',
    settings: {
      allowAccountManagement: no,
      allowEnvelopeSending: no,
      allowBulkSending: no,
      allowApiAccess: yes,
      allowApiAccessToAccount: yes,
      allowedTemplateAccess: 'none',
      allowedAddressBookAccess: 'personal',
      powerFormRole: 'none',
    },
  },
];

export type PermissionProfilesRepository = ReturnType<typeof permissionProfilesRepository>;

/** Permission profiles, per account; the built-in ones are added the first time an account's are read. */
export function permissionProfilesRepository(db: SandboxDatabase) {
  const q = {
    list: db.prepare<[string], Row>('SELECT * FROM permission_profiles WHERE account_id = ? ORDER BY id'),
    get: db.prepare<[string, string], Row>('SELECT * FROM permission_profiles WHERE account_id = ? AND id = ?'),
    byName: db.prepare<[string, string], Row>(
      'SELECT * FROM permission_profiles WHERE account_id = ? AND name = ? COLLATE NOCASE',
    ),
    insert: db.prepare(
      `INSERT OR IGNORE INTO permission_profiles (account_id, name, settings_json, built_in, modified_at, modified_by)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    update: db.prepare(
      'UPDATE permission_profiles SET name = ?, settings_json = ?, modified_at = ?, modified_by = ? WHERE id = ?',
    ),
    remove: db.prepare('DELETE FROM permission_profiles WHERE id = ?'),
    hasAny: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM permission_profiles WHERE account_id = ?'),
    // One setting of a profile, read by SQLite: the permission check of every envelope creation
    // parsed the whole settings JSON of the profile (issue 37). A row with a null value: the
    // profile leaves the setting out; no row: no such profile.
    settingById: db.prepare<[string, string, string], { value: unknown }>(
      'SELECT json_extract(settings_json, ?) AS value FROM permission_profiles WHERE account_id = ? AND id = ?',
    ),
    settingByName: db.prepare<[string, string, string], { value: unknown }>(
      'SELECT json_extract(settings_json, ?) AS value FROM permission_profiles WHERE account_id = ? AND name = ? COLLATE NOCASE',
    ),
  };
  // Accounts whose built-in profiles this process has made sure of.
  const ensured = new Set<string>();
  function ensure(accountId: string): void {
    if (ensured.has(accountId)) return;
    if (q.hasAny.get(accountId)!.n === 0)
      db.transaction(() => {
        for (const p of builtInProfiles) q.insert.run(accountId, p.name, JSON.stringify(p.settings), 1, 0, null);
      })();
    ensured.add(accountId);
  }

  return {
    list(accountId: string): PermissionProfileRecord[] {
      ensure(accountId);
      return q.list.all(accountId).map(toRecord);
    },
    get(accountId: string, id: string): PermissionProfileRecord | undefined {
      ensure(accountId);
      const row = q.get.get(accountId, id);
      return row && toRecord(row);
    },
    /**
     * One setting of the profile `profileId` of the account, else (no id, or
     * an id the account does not have) of its "Account Administrator" profile,
     * as profileOfUser (people/permissions.ts) chooses: undefined when the
     * profile leaves it out.
     */
    settingOfUser(accountId: string, profileId: string | null | undefined, name: keyof AccountRoleSettings): unknown {
      ensure(accountId);
      const path = `$.${name}`;
      const row =
        (profileId ? q.settingById.get(path, accountId, profileId) : undefined) ??
        q.settingByName.get(path, accountId, 'Account Administrator');
      return row?.value ?? undefined;
    },
    byName(accountId: string, name: string): PermissionProfileRecord | undefined {
      ensure(accountId);
      const row = q.byName.get(accountId, name);
      return row && toRecord(row);
    },
    /** Inserts a profile; undefined when the account already has one of that name. */
    insert(
      accountId: string,
      name: string,
      settings: AccountRoleSettings,
      at: number,
      by: string,
    ): PermissionProfileRecord | undefined {
      ensure(accountId);
      const info = q.insert.run(accountId, name, JSON.stringify(settings), 0, at, by);
      if (info.changes === 0) return undefined;
      return toRecord(q.get.get(accountId, String(info.lastInsertRowid))!);
    },
    update(profile: PermissionProfileRecord, at: number, by: string): void {
      q.update.run(profile.name, JSON.stringify(profile.settings), at, by, profile.id);
    },
    remove(id: string): void {
      q.remove.run(id);
    },
  };
}
