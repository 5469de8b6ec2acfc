import { randomUUID } from 'node:crypto';
import type { SandboxDatabase } from '../../platform/db/open-database.js';

/** What an agent may do for the principal (DocuSign's shared access permissions). */
export const authorizationPermissions = ['send', 'manage', 'sign', 'edit'] as const;
export type AuthorizationPermission = (typeof authorizationPermissions)[number];

/** One grant of shared access: `principalUserId` lets `agentUserId` act for them. Times are epoch ms. */
export interface UserAuthorizationRecord {
  id: string;
  accountId: string;
  principalUserId: string;
  agentUserId: string;
  permission: AuthorizationPermission;
  startAt: number;
  endAt: number | null;
  createdAt: number;
  createdBy: string;
  modifiedAt: number;
  modifiedBy: string;
}

export type UserAuthorizations = ReturnType<typeof createUserAuthorizations>;

const stores = new WeakMap<SandboxDatabase, UserAuthorizations>();

/** The shared-access grants of a database (table `user_authorizations`, db/schema.ts). */
export function userAuthorizations(db: SandboxDatabase): UserAuthorizations {
  let store = stores.get(db);
  if (!store) {
    store = createUserAuthorizations(db);
    stores.set(db, store);
  }
  return store;
}

interface Row {
  id: string;
  account_id: string;
  principal_user_id: string;
  agent_user_id: string;
  permission: AuthorizationPermission;
  start_at: number;
  end_at: number | null;
  created_at: number;
  created_by: string;
  modified_at: number;
  modified_by: string;
}

const toRecord = (r: Row): UserAuthorizationRecord => ({
  id: r.id,
  accountId: r.account_id,
  principalUserId: r.principal_user_id,
  agentUserId: r.agent_user_id,
  permission: r.permission,
  startAt: r.start_at,
  endAt: r.end_at,
  createdAt: r.created_at,
  createdBy: r.created_by,
  modifiedAt: r.modified_at,
  modifiedBy: r.modified_by,
});

/** In force at `now`: started, not ended. */
export const inForce = (a: UserAuthorizationRecord, now: number): boolean =>
  a.startAt <= now && (a.endAt === null || a.endAt > now);

function createUserAuthorizations(db: SandboxDatabase) {
  const insert = db.prepare(
    `INSERT INTO user_authorizations (id, account_id, principal_user_id, agent_user_id, permission, start_at, end_at,
       created_at, created_by, modified_at, modified_by)
     VALUES (@id, @accountId, @principalUserId, @agentUserId, @permission, @startAt, @endAt, @createdAt, @createdBy, @modifiedAt, @modifiedBy)`,
  );
  const byId = db.prepare<[string], Row>('SELECT * FROM user_authorizations WHERE id = ? AND deleted_at IS NULL');
  const ofPrincipal = db.prepare<[string], Row>(
    'SELECT * FROM user_authorizations WHERE principal_user_id = ? AND deleted_at IS NULL ORDER BY created_at, id',
  );
  const ofAgent = db.prepare<[string], Row>(
    'SELECT * FROM user_authorizations WHERE agent_user_id = ? AND deleted_at IS NULL ORDER BY created_at, id',
  );
  const setDates = db.prepare(
    'UPDATE user_authorizations SET start_at = ?, end_at = ?, modified_at = ?, modified_by = ? WHERE id = ?',
  );
  const remove = db.prepare('UPDATE user_authorizations SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL');
  return {
    create(a: Omit<UserAuthorizationRecord, 'id' | 'modifiedAt' | 'modifiedBy'>): UserAuthorizationRecord {
      const record = { ...a, id: randomUUID(), modifiedAt: a.createdAt, modifiedBy: a.createdBy };
      insert.run(record);
      return record;
    },
    get(id: string): UserAuthorizationRecord | undefined {
      const row = byId.get(id.toLowerCase());
      return row && toRecord(row);
    },
    ofPrincipal(userId: string): UserAuthorizationRecord[] {
      return ofPrincipal.all(userId).map(toRecord);
    },
    ofAgent(userId: string): UserAuthorizationRecord[] {
      return ofAgent.all(userId).map(toRecord);
    },
    setDates(id: string, startAt: number, endAt: number | null, now: number, by: string): void {
      setDates.run(startAt, endAt, now, by, id);
    },
    delete(id: string, now: number): boolean {
      return remove.run(now, id).changes > 0;
    },
  };
}
