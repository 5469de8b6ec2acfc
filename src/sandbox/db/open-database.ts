import Database from 'better-sqlite3';
import { join } from 'node:path';
import { schemaSql, schemaVersion } from './schema.js';

/** The sandbox's database handle (better-sqlite3, synchronous). */
export type SandboxDatabase = Database.Database;

/**
 * Opens (creating when new) the sandbox database: `<dataDir>/sandbox.sqlite`,
 * or an in-memory database when `dataDir` is absent.
 *
 * WAL with synchronous=NORMAL: a commit is in the WAL before the answer goes
 * out, so a killed process (SIGKILL) loses nothing; only a power cut could
 * lose the last commits, which a local sandbox accepts for speed.
 */
export function openDatabase(dataDir: string | undefined): SandboxDatabase {
  const db = new Database(dataDir === undefined ? ':memory:' : join(dataDir, 'sandbox.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec(schemaSql);
  db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('schemaVersion', String(schemaVersion));
  return db;
}

/** True when the database holds no account yet (the seed must be applied). */
export function isEmptyDatabase(db: SandboxDatabase): boolean {
  const row = db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number };
  return row.n === 0;
}
