import type { SandboxDatabase } from '../../platform/db/open-database.js';

/** A group of users of an account (#/definitions/group). */
export interface GroupRecord {
  /** DocuSign's group ids are small numbers, sent as strings. */
  id: string;
  accountId: string;
  name: string;
  /** adminGroup, everyoneGroup (DocuSign's own two, never deleted) or customGroup. */
  groupType: 'adminGroup' | 'everyoneGroup' | 'customGroup';
  permissionProfileId: string | null;
}

interface Row {
  id: number;
  account_id: string;
  name: string;
  group_type: GroupRecord['groupType'];
  permission_profile_id: string | null;
}

const toRecord = (r: Row): GroupRecord => ({
  id: String(r.id),
  accountId: r.account_id,
  name: r.name,
  groupType: r.group_type,
  permissionProfileId: r.permission_profile_id,
});

export type GroupsRepository = ReturnType<typeof groupsRepository>;

/**
 * Groups and their members, per account; DocuSign's "Administrators" and
 * "Everyone" are added the first time an account's groups are read. Everyone
 * holds every open user of the account by definition: it keeps no members.
 */
export function groupsRepository(db: SandboxDatabase) {
  const q = {
    list: db.prepare<[string], Row>('SELECT * FROM user_groups WHERE account_id = ? ORDER BY id'),
    get: db.prepare<[string, string], Row>('SELECT * FROM user_groups WHERE account_id = ? AND id = ?'),
    byName: db.prepare<[string, string], Row>(
      'SELECT * FROM user_groups WHERE account_id = ? AND name = ? COLLATE NOCASE',
    ),
    insert: db.prepare(
      'INSERT OR IGNORE INTO user_groups (account_id, name, group_type, permission_profile_id) VALUES (?, ?, ?, ?)',
    ),
    update: db.prepare('UPDATE user_groups SET name = ?, permission_profile_id = ? WHERE id = ?'),
    remove: db.prepare('DELETE FROM user_groups WHERE id = ?'),
    removeMembers: db.prepare('DELETE FROM group_members WHERE group_id = ?'),
    hasAny: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM user_groups WHERE account_id = ?'),
    members: db.prepare<[number], { user_id: string }>(
      'SELECT user_id FROM group_members WHERE group_id = ? ORDER BY rowid',
    ),
    groupsOf: db.prepare<[string], { group_id: number }>('SELECT group_id FROM group_members WHERE user_id = ?'),
    addMember: db.prepare('INSERT OR IGNORE INTO group_members (group_id, user_id) VALUES (?, ?)'),
    removeMember: db.prepare('DELETE FROM group_members WHERE group_id = ? AND user_id = ?'),
  };
  const ensured = new Set<string>();
  function ensure(accountId: string): void {
    if (ensured.has(accountId)) return;
    if (q.hasAny.get(accountId)!.n === 0)
      db.transaction(() => {
        q.insert.run(accountId, 'Administrators', 'adminGroup', null);
        q.insert.run(accountId, 'Everyone', 'everyoneGroup', null);
      })();
    ensured.add(accountId);
  }
  return {
    list(accountId: string): GroupRecord[] {
      ensure(accountId);
      return q.list.all(accountId).map(toRecord);
    },
    get(accountId: string, id: string): GroupRecord | undefined {
      ensure(accountId);
      const row = /^\d+$/.test(id) ? q.get.get(accountId, id) : undefined;
      return row && toRecord(row);
    },
    byName(accountId: string, name: string): GroupRecord | undefined {
      ensure(accountId);
      const row = q.byName.get(accountId, name);
      return row && toRecord(row);
    },
    /** Inserts a custom group; undefined when the account already has one of that name. */
    insert(accountId: string, name: string, permissionProfileId: string | null): GroupRecord | undefined {
      ensure(accountId);
      const info = q.insert.run(accountId, name, 'customGroup', permissionProfileId);
      if (info.changes === 0) return undefined;
      return toRecord(q.get.get(accountId, String(info.lastInsertRowid))!);
    },
    update(group: GroupRecord): void {
      q.update.run(group.name, group.permissionProfileId, group.id);
    },
    remove(id: string): void {
      db.transaction(() => {
        q.removeMembers.run(Number(id));
        q.remove.run(id);
      })();
    },
    /** Member user ids of a group that keeps members (not Everyone). */
    members(id: string): string[] {
      return q.members.all(Number(id)).map((r) => r.user_id);
    },
    /** Ids of the groups a user was added to. */
    groupIdsOf(userId: string): string[] {
      return q.groupsOf.all(userId).map((r) => String(r.group_id));
    },
    addMember(groupId: string, userId: string): void {
      q.addMember.run(Number(groupId), userId);
    },
    removeMember(groupId: string, userId: string): void {
      q.removeMember.run(Number(groupId), userId);
    },
  };
}
