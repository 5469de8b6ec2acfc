import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/sandbox/platform/db/open-database.js';
import { schemaVersion } from '../../src/sandbox/platform/db/schema.js';
import { envelopesRepository } from '../../src/sandbox/esignature/envelopes/repository.js';
import { templatesRepository } from '../../src/sandbox/esignature/templates/repository.js';
import { accountsRepository } from '../../src/sandbox/esignature/accounts/repository.js';
import { permissionProfilesRepository } from '../../src/sandbox/esignature/permission-profiles/repository.js';
import { groupsRepository } from '../../src/sandbox/esignature/groups/repository.js';
import { sentEnvelopeRecord, textCustomField } from './helpers/envelope-records.js';

// A data folder written before the sandbox routed every recipient kind
// (schema version 1) stays readable: its recipients are signers without an
// access code, and its signing sessions keep working.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('schema migration', () => {
  it('adds the recipient kind and access-code columns to a version-1 file and reads its rows as signers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'signrun-schema-'));
    dirs.push(dir);
    const old = new Database(join(dir, 'sandbox.sqlite'));
    old.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      INSERT INTO meta VALUES ('schemaVersion', '1');
      CREATE TABLE recipients (
        envelope_id TEXT NOT NULL, recipient_id TEXT NOT NULL, position INTEGER NOT NULL, recipient_id_guid TEXT NOT NULL,
        user_id TEXT NOT NULL, name TEXT NOT NULL, email TEXT NOT NULL, client_user_id TEXT, routing_order INTEGER NOT NULL,
        role_name TEXT, status TEXT NOT NULL, tabs_json TEXT NOT NULL, email_subject TEXT, email_body TEXT,
        supported_language TEXT, sent_at INTEGER, delivered_at INTEGER, signed_at INTEGER, declined_at INTEGER,
        declined_reason TEXT, PRIMARY KEY (envelope_id, recipient_id));
      INSERT INTO recipients (envelope_id, recipient_id, position, recipient_id_guid, user_id, name, email, routing_order, status, tabs_json)
        VALUES ('e1', '1', 0, 'g', 'u', 'Old Signer', 'old@example.com', 1, 'sent', '{}');
      CREATE TABLE signing_sessions (id TEXT PRIMARY KEY, secret_hash TEXT NOT NULL, csrf_token TEXT NOT NULL,
        envelope_id TEXT NOT NULL, account_id TEXT NOT NULL, recipient_id TEXT NOT NULL, return_url TEXT NOT NULL,
        created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, finished_at INTEGER);`);
    old.close();

    const db = openDatabase(dir, []);
    try {
      const [recipient] = envelopesRepository(db).recipients('e1');
      expect(recipient).toMatchObject({
        name: 'Old Signer',
        kind: 'signer',
        details: {},
        accessCodeHash: null,
        accessCodeFailures: 0,
      });
      const columns = (db.prepare('PRAGMA table_info(signing_sessions)').all() as Array<{ name: string }>).map(
        (c) => c.name,
      );
      expect(columns).toContain('access_code_passed_at');
      expect(db.prepare("SELECT value FROM meta WHERE key = 'schemaVersion'").get()).toEqual({
        value: String(schemaVersion),
      });
    } finally {
      db.close();
    }
    // Opening again changes nothing (the columns are there).
    openDatabase(dir, []).close();
  });

  it('reads a version-2 file’s templates as signer roles, listed and changed as new ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'signrun-schema-'));
    dirs.push(dir);
    const old = new Database(join(dir, 'sandbox.sqlite'));
    old.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      INSERT INTO meta VALUES ('schemaVersion', '2');
      CREATE TABLE templates (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, name TEXT NOT NULL, email_subject TEXT,
        email_blurb TEXT, created_at INTEGER NOT NULL);
      INSERT INTO templates VALUES ('t1', 'a1', 'Old contract', 'Sign', NULL, 1000);
      CREATE TABLE template_roles (template_id TEXT NOT NULL, position INTEGER NOT NULL, recipient_id TEXT NOT NULL,
        role_name TEXT NOT NULL, routing_order TEXT NOT NULL, tabs_json TEXT NOT NULL, PRIMARY KEY (template_id, position));
      INSERT INTO template_roles VALUES ('t1', 0, '1', 'employee', '1', '{"signHereTabs":[{"documentId":"1"}]}');`);
    old.close();

    const db = openDatabase(dir, []);
    try {
      const templates = templatesRepository(db);
      const template = templates.get('a1', 'T1');
      expect(template).toMatchObject({
        name: 'Old contract',
        description: null,
        ownerUserId: null,
        lastModifiedAt: 1000,
      });
      expect(templates.roles('t1')).toEqual([
        expect.objectContaining({ roleName: 'employee', kind: 'signer', fixed: {}, accessCodeHash: null }),
      ]);
      expect(templates.list('a1', { searchText: 'old', startPosition: 0, count: 10 }).total).toBe(1);
      templates.update({ ...template!, name: 'Renamed', lastModifiedAt: 2000 }, undefined, undefined);
      expect(templates.get('a1', 't1')).toMatchObject({ name: 'Renamed', lastModifiedAt: 2000 });
      templates.delete('t1', 3000);
      expect(templates.get('a1', 't1')).toBeUndefined();
      expect(db.prepare("SELECT value FROM meta WHERE key = 'schemaVersion'").get()).toEqual({
        value: String(schemaVersion),
      });
    } finally {
      db.close();
    }
  });

  it("reads a version-4 file's users as open administrators, and gives its accounts DocuSign's profiles and groups", () => {
    const dir = mkdtempSync(join(tmpdir(), 'signrun-schema-'));
    dirs.push(dir);
    const old = new Database(join(dir, 'sandbox.sqlite'));
    old.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      INSERT INTO meta VALUES ('schemaVersion', '4');
      CREATE TABLE users (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, user_name TEXT NOT NULL, email TEXT NOT NULL,
        password_hash TEXT NOT NULL, activated INTEGER NOT NULL, created_at INTEGER NOT NULL);
      INSERT INTO users VALUES ('u1', 'a1', 'old@example.com', 'old@example.com', 'x', 1, 1000);`);
    old.close();

    const db = openDatabase(dir, []);
    try {
      expect(accountsRepository(db).user('u1')).toMatchObject({
        permissionProfileId: null,
        closedAt: null,
        details: {},
      });
      expect(
        permissionProfilesRepository(db)
          .list('a1')
          .map((p) => p.name),
      ).toEqual(['Account Administrator', 'DocuSign Sender', 'DocuSign Viewer']);
      expect(
        groupsRepository(db)
          .list('a1')
          .map((g) => g.groupType),
      ).toEqual(['adminGroup', 'everyoneGroup']);
    } finally {
      db.close();
    }
  });

  it('gives a version-9 file’s custom fields their envelope’s account and time, and lists by field and date from its new index', () => {
    const dir = mkdtempSync(join(tmpdir(), 'signrun-schema-'));
    dirs.push(dir);
    // A version-9 file as that build left it: made by this one, then its custom fields stripped back.
    const made = openDatabase(dir, []);
    const envelopes = envelopesRepository(made);
    const at = Date.UTC(2026, 10, 1);
    for (const [id, account, time] of [
      ['e-old', 'a1', at],
      ['e-new', 'a1', at + 60_000],
      ['e-other', 'a2', at + 60_000],
    ] as const) {
      envelopes.insert(sentEnvelopeRecord(id, account, time), [], [], [textCustomField('signrunJob', 'j')]);
    }
    made.exec(`
      DROP TRIGGER custom_fields_follow_status_time;
      DROP INDEX custom_fields_by_value_time;
      ALTER TABLE envelope_custom_fields DROP COLUMN account_id;
      ALTER TABLE envelope_custom_fields DROP COLUMN status_changed_at;
      CREATE INDEX custom_fields_by_value ON envelope_custom_fields(name, value);
      UPDATE meta SET value = '9' WHERE key = 'schemaVersion';`);
    made.close();

    const db = openDatabase(dir, []);
    try {
      expect(
        db
          .prepare('SELECT envelope_id, account_id, status_changed_at FROM envelope_custom_fields ORDER BY envelope_id')
          .all(),
      ).toEqual([
        { envelope_id: 'e-new', account_id: 'a1', status_changed_at: at + 60_000 },
        { envelope_id: 'e-old', account_id: 'a1', status_changed_at: at },
        { envelope_id: 'e-other', account_id: 'a2', status_changed_at: at + 60_000 },
      ]);
      const indexes = (
        db
          .prepare("SELECT name FROM sqlite_master WHERE tbl_name = 'envelope_custom_fields' AND type = 'index'")
          .all() as Array<{
          name: string;
        }>
      ).map((r) => r.name);
      expect(indexes).toContain('custom_fields_by_value_time');
      expect(indexes).not.toContain('custom_fields_by_value');
      const repository = envelopesRepository(db);
      const recent = {
        accountId: 'a1',
        fromDate: at + 1,
        customField: { name: 'signrunJob', value: 'j' },
        startPosition: 0,
        count: 10,
      };
      expect(repository.list(recent).envelopes.map((e) => e.id)).toEqual(['e-new']);
      // The trigger came with the index: a status change of an old envelope moves its fields too.
      const old = repository.get('a1', 'e-old')!;
      repository.updateEnvelope({ ...old, status: 'voided', voidedAt: at + 90_000, statusChangedAt: at + 90_000 });
      expect(repository.list(recent).envelopes.map((e) => e.id)).toEqual(['e-new', 'e-old']);
      expect(db.prepare("SELECT value FROM meta WHERE key = 'schemaVersion'").get()).toEqual({
        value: String(schemaVersion),
      });
    } finally {
      db.close();
    }
    // Opening again changes nothing (the columns, the index and the trigger are there).
    openDatabase(dir, []).close();
  });
});
