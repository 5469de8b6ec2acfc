import type { Database } from 'better-sqlite3';

/**
 * Key under which every account's Connect messages are signed until one is
 * set for it: a fixed, documented sandbox value (like the sandbox password),
 * so a receiver written against the sandbox can verify without set-up.
 */
export const defaultConnectHmacKey = 'sandbox-connect-hmac-key';

/**
 * Per-account Connect HMAC keys, in the plugin's own table. DocuSign lets an
 * account hold several keys and sends one signature header per key; the
 * sandbox holds one (`X-DocuSign-Signature-1`).
 */
export class ConnectHmacKeys {
  constructor(private readonly db: Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS connect_hmac_keys (account_id TEXT PRIMARY KEY, hmac_key TEXT NOT NULL)`);
  }

  /** The key set for the account, else the seed's `connectHmacKey` (kept in the account's details), else the sandbox default. */
  keyFor(accountId: string): string {
    const row = this.db.prepare('SELECT hmac_key FROM connect_hmac_keys WHERE account_id = ?').get(accountId) as
      { hmac_key: string } | undefined;
    if (row !== undefined) return row.hmac_key;
    const seeded = this.db
      .prepare(`SELECT json_extract(details_json, '$.connectHmacKey') AS k FROM accounts WHERE id = ?`)
      .get(accountId) as { k: unknown } | undefined;
    return typeof seeded?.k === 'string' && seeded.k !== '' ? seeded.k : defaultConnectHmacKey;
  }

  /** Sets (or replaces) an account's key — for a seed or a test. */
  set(accountId: string, key: string): void {
    this.db
      .prepare(
        'INSERT INTO connect_hmac_keys (account_id, hmac_key) VALUES (?, ?) ON CONFLICT(account_id) DO UPDATE SET hmac_key = excluded.hmac_key',
      )
      .run(accountId, key);
  }
}
