import type { SandboxDatabase } from '../../platform/db/open-database.js';

/** An account row. `status`: active, pending (its initial user has not activated it yet) or deleted. */
export interface AccountRecord {
  id: string;
  name: string;
  planId: string;
  distributorCode: string | null;
  distributorPasswordHash: string | null;
  parentAccountId: string | null;
  status: 'active' | 'pending' | 'deleted';
  createdAt: number;
}

/** A user row. Every user belongs to exactly one account in the sandbox. */
export interface UserRecord {
  id: string;
  accountId: string;
  userName: string;
  email: string;
  passwordHash: string;
  activated: boolean;
  createdAt: number;
  /** Null: the account's "Account Administrator" (an account's initial user, a seed's user). */
  permissionProfileId?: string | null;
  /** When DELETE …/users closed the user (it can no longer log in); null: open. */
  closedAt?: number | null;
  /** firstName, lastName, jobTitle, company …: what the API was told of the user. */
  details?: Record<string, string>;
}

/** What `updateUser` may change. */
export type UserChanges = Partial<Pick<UserRecord, 'userName' | 'email' | 'permissionProfileId' | 'details'>>;

interface AccountRow {
  id: string;
  name: string;
  plan_id: string;
  distributor_code: string | null;
  distributor_password_hash: string | null;
  parent_account_id: string | null;
  status: AccountRecord['status'];
  created_at: number;
}
interface UserRow {
  id: string;
  account_id: string;
  user_name: string;
  email: string;
  password_hash: string;
  activated: number;
  created_at: number;
  permission_profile_id: string | null;
  closed_at: number | null;
  details_json: string;
}

const toAccount = (r: AccountRow): AccountRecord => ({
  id: r.id,
  name: r.name,
  planId: r.plan_id,
  distributorCode: r.distributor_code,
  distributorPasswordHash: r.distributor_password_hash,
  parentAccountId: r.parent_account_id,
  status: r.status,
  createdAt: r.created_at,
});
const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  accountId: r.account_id,
  userName: r.user_name,
  email: r.email,
  passwordHash: r.password_hash,
  activated: r.activated === 1,
  createdAt: r.created_at,
  permissionProfileId: r.permission_profile_id,
  closedAt: r.closed_at,
  details: JSON.parse(r.details_json) as Record<string, string>,
});

/** Accounts, users, integrator keys and activation links. */
export type AccountsRepository = ReturnType<typeof accountsRepository>;

export function accountsRepository(db: SandboxDatabase) {
  const q = {
    account: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE id = ?'),
    user: db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?'),
    userByName: db.prepare<[string, string], UserRow>(
      'SELECT * FROM users WHERE user_name = ? COLLATE NOCASE OR email = ? COLLATE NOCASE ORDER BY created_at',
    ),
    usersOf: db.prepare<[string], UserRow>('SELECT * FROM users WHERE account_id = ? ORDER BY created_at'),
    key: db.prepare<[string], { key: string }>('SELECT key FROM integrator_keys WHERE key = ?'),
    distributor: db.prepare<[string], AccountRow>(
      "SELECT * FROM accounts WHERE distributor_code = ? AND status = 'active'",
    ),
    insertAccount: db.prepare(
      `INSERT INTO accounts (id, name, plan_id, distributor_code, distributor_password_hash, parent_account_id, status, created_at, details_json)
       VALUES (@id, @name, @planId, @distributorCode, @distributorPasswordHash, @parentAccountId, @status, @createdAt, @detailsJson)`,
    ),
    insertUser: db.prepare(
      `INSERT INTO users (id, account_id, user_name, email, password_hash, activated, created_at, permission_profile_id, details_json)
       VALUES (@id, @accountId, @userName, @email, @passwordHash, @activated, @createdAt, @permissionProfileId, @detailsJson)`,
    ),
    updateUser: db.prepare(
      `UPDATE users SET user_name = @userName, email = @email, permission_profile_id = @permissionProfileId,
       details_json = @detailsJson WHERE id = @id`,
    ),
    closeUser: db.prepare('UPDATE users SET closed_at = ? WHERE id = ? AND closed_at IS NULL'),
    reopenUser: db.prepare('UPDATE users SET closed_at = NULL, activated = 0 WHERE id = ?'),
    activateUser: db.prepare('UPDATE users SET activated = 1 WHERE id = ?'),
    setPassword: db.prepare('UPDATE users SET password_hash = ? WHERE id = ?'),
    insertKey: db.prepare('INSERT OR IGNORE INTO integrator_keys (key) VALUES (?)'),
    setStatus: db.prepare('UPDATE accounts SET status = ? WHERE id = ?'),
    insertActivation: db.prepare(
      'INSERT INTO activations (token_hash, account_id, user_id, created_at) VALUES (?, ?, ?, ?)',
    ),
    activation: db.prepare<[string], { account_id: string; user_id: string; used_at: number | null }>(
      'SELECT account_id, user_id, used_at FROM activations WHERE token_hash = ?',
    ),
    useActivation: db.prepare('UPDATE activations SET used_at = ? WHERE token_hash = ? AND used_at IS NULL'),
    dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
  };
  // Every write below goes through this repository; counted so that readers can cache what they read.
  let writes = 0;

  return {
    /**
     * Changes whenever accounts or users may have changed: a write through
     * this repository, or a commit by another process on the same data folder
     * (SQLite's data_version, which this connection's own commits leave
     * alone). Equal stamps: what was read in between is still current.
     */
    changeStamp(): string {
      return `${writes}.${q.dataVersion.get()!}`;
    },
    account(id: string): AccountRecord | undefined {
      const row = q.account.get(id);
      return row && toAccount(row);
    },
    user(id: string): UserRecord | undefined {
      const row = q.user.get(id);
      return row && toUser(row);
    },
    /** Users whose userName or email is `name` (case-insensitive), oldest first. */
    usersNamed(name: string): UserRecord[] {
      return q.userByName.all(name, name).map(toUser);
    },
    usersOf(accountId: string): UserRecord[] {
      return q.usersOf.all(accountId).map(toUser);
    },
    hasIntegratorKey(key: string): boolean {
      return q.key.get(key) !== undefined;
    },
    addIntegratorKey(key: string): void {
      writes++;
      q.insertKey.run(key);
    },
    /** The active account that owns a distributor code. */
    distributorAccount(code: string): AccountRecord | undefined {
      const row = q.distributor.get(code);
      return row && toAccount(row);
    },
    insertAccount(account: AccountRecord, details: Record<string, unknown> = {}): void {
      writes++;
      q.insertAccount.run({ ...account, detailsJson: JSON.stringify(details) });
    },
    insertUser(user: UserRecord): void {
      writes++;
      q.insertUser.run({
        id: user.id,
        accountId: user.accountId,
        userName: user.userName,
        email: user.email,
        passwordHash: user.passwordHash,
        activated: user.activated ? 1 : 0,
        createdAt: user.createdAt,
        permissionProfileId: user.permissionProfileId ?? null,
        detailsJson: JSON.stringify(user.details ?? {}),
      });
    },
    /** Changes a user's name, email, profile or details (PUT …/users/{userId}). */
    updateUser(id: string, changes: UserChanges): void {
      const user = q.user.get(id);
      if (!user) return;
      const now = toUser(user);
      writes++;
      q.updateUser.run({
        id,
        userName: changes.userName ?? now.userName,
        email: changes.email ?? now.email,
        permissionProfileId:
          changes.permissionProfileId !== undefined ? changes.permissionProfileId : (now.permissionProfileId ?? null),
        detailsJson: JSON.stringify(changes.details ?? now.details ?? {}),
      });
    },
    /** Closes a user (DELETE …/users): kept, but no longer able to log in, as DocuSign keeps closed users. */
    closeUser(id: string, at: number): void {
      writes++;
      q.closeUser.run(at, id);
    },
    /** A closed user added again (POST …/users with its email): open, awaiting activation again. */
    reopenUser(id: string): void {
      writes++;
      q.reopenUser.run(id);
    },
    setStatus(accountId: string, status: AccountRecord['status']): void {
      writes++;
      q.setStatus.run(status, accountId);
    },
    insertActivation(tokenHash: string, accountId: string, userId: string, at: number): void {
      q.insertActivation.run(tokenHash, accountId, userId, at);
    },
    /** The user an activation link is for, and whether it was used; undefined: no such link. */
    activationOf(tokenHash: string): { accountId: string; userId: string; used: boolean } | undefined {
      const row = q.activation.get(tokenHash);
      return row && { accountId: row.account_id, userId: row.user_id, used: row.used_at !== null };
    },
    /**
     * Activates the account of an activation link (single use), setting the
     * user's password when one is given (a user added without one chooses it
     * on the activation page). Returns the account id, or why it could not.
     */
    activate(
      tokenHash: string,
      at: number,
      passwordHash?: string,
    ): { ok: true; accountId: string } | { ok: false; reason: 'unknown' | 'used' } {
      writes++;
      return db.transaction(() => {
        const row = q.activation.get(tokenHash);
        if (!row) return { ok: false as const, reason: 'unknown' as const };
        if (row.used_at !== null) return { ok: false as const, reason: 'used' as const };
        q.useActivation.run(at, tokenHash);
        if (passwordHash !== undefined) q.setPassword.run(passwordHash, row.user_id);
        const account = q.account.get(row.account_id);
        if (account?.status === 'pending') q.setStatus.run('active', row.account_id);
        // Only the link's user: an account's activation link is its initial user's; a user's invitation is theirs.
        q.activateUser.run(row.user_id);
        return { ok: true as const, accountId: row.account_id };
      })();
    },
  };
}
