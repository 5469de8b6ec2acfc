import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type SandboxDatabase } from '../../src/sandbox/platform/db/open-database.js';
import { objectRows } from '../../src/sandbox/platform/db/object-rows.js';

const dbs: SandboxDatabase[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

function database(): SandboxDatabase {
  const db = openDatabase(undefined, []);
  dbs.push(db);
  db.exec(`CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, x REAL, note TEXT, data BLOB);
    CREATE TABLE u (id TEXT, n INTEGER);
    INSERT INTO t VALUES ('a', 1, 1.5, NULL, x'0102'), ('b', 2, -3.25, 'two', NULL);
    INSERT INTO u VALUES ('a', 10);`);
  return db;
}

describe('objectRows', () => {
  it('gives the same rows as better-sqlite3 named rows: types, nulls, blobs, order, no row', () => {
    const db = database();
    const sql = 'SELECT * FROM t WHERE id >= ? ORDER BY id';
    const rows = objectRows(db.prepare<[string]>(sql));
    expect(rows.all('a')).toEqual(db.prepare(sql).all('a'));
    expect(Object.keys(rows.all('a')[0]!)).toEqual(['id', 'n', 'x', 'note', 'data']);
    expect(rows.get('b')).toEqual(db.prepare(sql).get('b'));
    expect(rows.get('c')).toBeUndefined();
    expect(rows.all('c')).toEqual([]);
  });

  it('lets the last of two columns with one name win, as named rows do', () => {
    const db = database();
    const sql = 'SELECT t.*, u.n FROM t JOIN u ON u.id = t.id';
    expect(objectRows(db.prepare(sql)).get()).toEqual(db.prepare(sql).get());
    expect(objectRows(db.prepare(sql)).get()!['n']).toBe(10);
  });
});
