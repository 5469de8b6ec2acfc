import Database from 'better-sqlite3';
import { join } from 'node:path';
import { schemaIndexes, schemaMigrations, schemaSql, schemaVersion } from './schema.js';

/** The sandbox's database handle (better-sqlite3, synchronous). */
export type SandboxDatabase = Database.Database;

/**
 * Opens (creating when new) the sandbox database: `<dataDir>/sandbox.sqlite`,
 * or an in-memory database when `dataDir` is absent.
 *
 * WAL with synchronous=NORMAL: a commit is in the WAL before the answer goes
 * out, so a killed process (SIGKILL) loses nothing; only a power cut could
 * lose the last commits, which a local sandbox accepts for speed. A data
 * folder's checkpoints run on a thread of their own (wal-checkpointer.ts,
 * started by the services), not on the event loop.
 *
 * `groupTables`: the `CREATE TABLE IF NOT EXISTS` statements of the API
 * groups that keep tables of their own (the account server's, the Admin
 * API's), run after the shared schema: each group defines its tables, and
 * the platform knows none of them.
 */
export function openDatabase(dataDir: string | undefined, groupTables: readonly string[]): SandboxDatabase {
  const db = new Database(dataDir === undefined ? ':memory:' : databaseFile(dataDir));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // A WAL that grew while commits never paused (wal-checkpointer.ts) is cut back to this when it starts again.
  db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec(schemaSql);
  for (const tables of groupTables) db.exec(tables);
  migrate(db);
  return db;
}

/** The database file of a data folder. */
export function databaseFile(dataDir: string): string {
  return join(dataDir, 'sandbox.sqlite');
}

/**
 * Adds the columns a file of an older version lacks and fills them
 * (schema.ts: schemaMigrations), makes the indexes and triggers on them
 * (schemaIndexes), then records the version.
 */
function migrate(db: SandboxDatabase): void {
  db.transaction(() => {
    for (const { table, column, definition, fill } of schemaMigrations) {
      const columns = db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
      if (columns.some((c) => c.name === column)) continue;
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
      if (fill) db.exec(fill);
    }
    db.exec(schemaIndexes);
    db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run('schemaVersion', String(schemaVersion));
  })();
}

/** True when the database holds no account yet (the seed must be applied). */
export function isEmptyDatabase(db: SandboxDatabase): boolean {
  const row = db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number };
  return row.n === 0;
}
