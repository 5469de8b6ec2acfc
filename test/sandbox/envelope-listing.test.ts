import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type SandboxDatabase } from '../../src/sandbox/platform/db/open-database.js';
import { envelopesRepository, type EnvelopeQuery } from '../../src/sandbox/esignature/envelopes/repository.js';
import { envelopeListingSql } from '../../src/sandbox/esignature/envelopes/envelope-listing-sql.js';
import { sentEnvelopeRecord as envelope, textCustomField as field } from './helpers/envelope-records.js';

// The runner looks every envelope up by its identity custom field before
// creating it (GET …/envelopes?from_date=2000-…&custom_field=signrun=<id>):
// that call must be an index lookup, not a walk over the account's envelopes.
const dbs: SandboxDatabase[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

const t0 = Date.UTC(2026, 10, 21);

function filled(count: number) {
  const db = openDatabase(undefined, []);
  dbs.push(db);
  const envelopes = envelopesRepository(db);
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      envelopes.insert(envelope(`env-${i}`, 'acc', t0 + i), [], [], [field('signrun', `job/e-${i}`)]);
    }
  })();
  return { db, envelopes };
}

const lookup = (value: string, extra: Partial<EnvelopeQuery> = {}): EnvelopeQuery => ({
  accountId: 'acc',
  fromDate: Date.parse('2000-01-01T00:00:00Z'),
  customField: { name: 'signrun', value },
  startPosition: 0,
  count: 1000,
  ...extra,
});

const plan = (db: SandboxDatabase, sql: string, params: Record<string, unknown>) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>).map((r) => r.detail).join('\n');

describe('status-changes listing by custom field', () => {
  it('starts from the custom field index, never from the envelopes of the account', () => {
    const { db } = filled(2_000);
    // Statistics as a long-lived data folder would have them: the planner must still not prefer the account walk.
    db.exec('ANALYZE');
    const sql = envelopeListingSql(lookup('job/e-1500'));
    for (const [text, params] of [
      [sql.count, sql.params],
      [sql.page, sql.pageParams],
    ] as const) {
      const detail = plan(db, text, params);
      expect(detail).toMatch(
        /SEARCH f USING (COVERING )?INDEX custom_fields_by_value_time \(name=\? AND value=\? AND account_id=\? AND status_changed_at>\?\)/,
      );
      expect(detail).not.toContain('envelopes_by_account_time');
      expect(detail).not.toMatch(/SCAN e\b/);
    }
    // Without the filter the listing keeps the account + time index.
    const byDate = envelopeListingSql({ accountId: 'acc', fromDate: 0, startPosition: 0, count: 10 });
    expect(plan(db, byDate.page, byDate.pageParams)).toContain('envelopes_by_account_time');
  });

  it('finds exactly the envelope of the account, within the dates, once even when the field is set twice', () => {
    const { envelopes } = filled(300);
    envelopes.insert(envelope('other-account', 'acc-2', t0 + 5_000), [], [], [field('signrun', 'job/e-7')]);
    envelopes.insert(
      envelope('twice', 'acc', t0 + 6_000),
      [],
      [],
      [field('signrun', 'job/dup'), field('signrun', 'job/dup')],
    );

    const found = envelopes.list(lookup('job/e-7'));
    expect(found.total).toBe(1);
    expect(found.envelopes.map((e) => e.id)).toEqual(['env-7']);
    expect(envelopes.list(lookup('job/e-7', { accountId: 'acc-2' })).envelopes.map((e) => e.id)).toEqual([
      'other-account',
    ]);
    expect(envelopes.list(lookup('job/e-7', { fromDate: t0 + 8 })).total).toBe(0);
    expect(envelopes.list(lookup('job/e-7', { fromDate: 0, toDate: t0 + 6 })).total).toBe(0);
    expect(envelopes.list(lookup('job/e-7', { statuses: ['completed'] })).total).toBe(0);
    expect(envelopes.list(lookup('job/e-7', { statuses: ['sent'] })).total).toBe(1);
    expect(envelopes.list(lookup('job/dup')).envelopes.map((e) => e.id)).toEqual(['twice']);
    expect(envelopes.list(lookup('job/none')).envelopes).toEqual([]);
    // Same shape, other values: the cached statement answers for the new values.
    expect(envelopes.list(lookup('job/e-299')).envelopes.map((e) => e.id)).toEqual(['env-299']);
  });

  it('pages the unfiltered listing oldest change first, with the total', () => {
    const { envelopes } = filled(25);
    const page = envelopes.list({ accountId: 'acc', fromDate: t0 + 10, startPosition: 5, count: 4 });
    expect(page.total).toBe(15);
    expect(page.envelopes.map((e) => e.id)).toEqual(['env-15', 'env-16', 'env-17', 'env-18']);
    // A page that holds every match, and one past the end.
    const whole = envelopes.list({ accountId: 'acc', fromDate: t0 + 20, startPosition: 0, count: 5 });
    expect([whole.total, whole.envelopes.map((e) => e.id)]).toEqual([
      5,
      ['env-20', 'env-21', 'env-22', 'env-23', 'env-24'],
    ]);
    const past = envelopes.list({ accountId: 'acc', fromDate: t0 + 20, startPosition: 5, count: 5 });
    expect([past.total, past.envelopes]).toEqual([5, []]);
  });
});

// The listings the runner and `signrun sync` send, as the route hands them to
// the repository (service-ledger.ts, status-listing.ts): each must walk an
// index bounded by its own filters, so that its work follows its matches, not
// the envelopes the account holds. The runner's confirmations (a job's
// envelopes changed in the last seconds) read every envelope of the job at
// each call while the field's index knew nothing of time (issue 37).
describe('the listing shapes of the runner and of sync in a filled account', () => {
  const job = (i: number) => [field('signrunJob', 'job-a'), field('signrun', `job-a/e-${i}`)];
  const recentFrom = t0 + 10_000;

  function filledJob(old: number, recent: number) {
    const db = openDatabase(undefined, []);
    dbs.push(db);
    const envelopes = envelopesRepository(db);
    db.transaction(() => {
      for (let i = 0; i < old; i++) envelopes.insert(envelope(`old-${i}`, 'acc', t0 + i), [], [], job(i));
      for (let i = 0; i < recent; i++)
        envelopes.insert(envelope(`new-${i}`, 'acc', recentFrom + 1_000 + i), [], [], job(old + i));
    })();
    db.exec('ANALYZE');
    return { db, envelopes };
  }

  const shapes: Record<string, EnvelopeQuery> = {
    // The runner's first listing of a job (from_date 2000, the job's field).
    'the runner’s lookup': lookup('job-a', { customField: { name: 'signrunJob', value: 'job-a' } }),
    // The runner's later ones, keyset-paged from a recent time.
    'the runner’s confirmation': lookup('job-a', {
      customField: { name: 'signrunJob', value: 'job-a' },
      fromDate: recentFrom,
      startPosition: 2,
    }),
    'sync’s listing': { accountId: 'acc', fromDate: recentFrom, startPosition: 1000, count: 1000 },
    'sync’s envelopes by id': {
      accountId: 'acc',
      envelopeIds: ['old-1', 'old-2', 'new-0'],
      startPosition: 0,
      count: 1000,
    },
  };

  it('walks the index of its own filters, never the whole account or the whole job', () => {
    const { db } = filledJob(3_000, 5);
    const expected: Record<string, RegExp> = {
      'the runner’s lookup':
        /SEARCH f USING COVERING INDEX custom_fields_by_value_time \(name=\? AND value=\? AND account_id=\? AND status_changed_at>\?\)/,
      'the runner’s confirmation':
        /SEARCH f USING COVERING INDEX custom_fields_by_value_time \(name=\? AND value=\? AND account_id=\? AND status_changed_at>\?\)/,
      'sync’s listing':
        /SEARCH e USING (COVERING )?INDEX envelopes_by_account_time \(account_id=\? AND status_changed_at>\?\)/,
      'sync’s envelopes by id': /SEARCH e USING INDEX sqlite_autoindex_envelopes_1 \(id=\?\)/,
    };
    for (const [name, query] of Object.entries(shapes)) {
      const sql = envelopeListingSql(query);
      for (const [text, params] of [
        [sql.count, sql.params],
        [sql.page, sql.pageParams],
        [sql.all, sql.params],
      ] as const) {
        const detail = plan(db, text, params);
        expect(detail, name).toMatch(expected[name]!);
        expect(detail, name).not.toMatch(/\bSCAN\b/);
      }
    }
  });

  it('answers the confirmation with the job’s recent changes only, an old envelope that just changed included', () => {
    const { envelopes } = filledJob(2_000, 3);
    const confirm = (extra: Partial<EnvelopeQuery> = {}) =>
      envelopes.list({ ...shapes['the runner’s confirmation']!, startPosition: 0, ...extra });
    expect(confirm().envelopes.map((e) => e.id)).toEqual(['new-0', 'new-1', 'new-2']);

    // An envelope of the job made long ago completes now: its fields follow its status change time.
    const signed = envelopes.get('acc', 'old-17')!;
    envelopes.updateEnvelope({
      ...signed,
      status: 'completed',
      completedAt: recentFrom + 5_000,
      statusChangedAt: recentFrom + 5_000,
    });
    const after = confirm();
    expect([after.total, after.envelopes.map((e) => [e.id, e.status])]).toEqual([
      4,
      [
        ['new-0', 'sent'],
        ['new-1', 'sent'],
        ['new-2', 'sent'],
        ['old-17', 'completed'],
      ],
    ]);
    // Paged as the runner pages it (start_position within one time), and bounded by to_date.
    expect(confirm({ startPosition: 2, count: 1 }).envelopes.map((e) => e.id)).toEqual(['new-2']);
    expect(confirm({ toDate: recentFrom + 1_001 }).envelopes.map((e) => e.id)).toEqual(['new-0', 'new-1']);
    // Fields added later (POST …/custom_fields) carry the envelope's account and time too.
    envelopes.addCustomFields('old-17', [{ name: 'late', value: 'x', show: 'false' }]);
    expect(
      envelopes.list({
        ...shapes['the runner’s confirmation']!,
        customField: { name: 'late', value: 'x' },
        startPosition: 0,
      }).envelopes,
    ).toMatchObject([{ id: 'old-17' }]);
    // The lookup from 2000 still finds every envelope of the job, oldest change first.
    const all = envelopes.list({ ...shapes['the runner’s lookup']!, count: 3 });
    expect([all.total, all.envelopes.map((e) => e.id)]).toEqual([2_003, ['old-0', 'old-1', 'old-2']]);
  });
});

describe('custom fields of a listing page (customFieldsOfMany)', () => {
  it('gives each envelope its own fields, text and list, in position order, exactly as they were stored', () => {
    const db = openDatabase(undefined, []);
    dbs.push(db);
    const envelopes = envelopesRepository(db);
    // Values a JSON round trip could change: quotes, backslashes, control characters, non-BMP letters, numbers as text.
    const listField = {
      kind: 'list' as const,
      fieldId: '7',
      name: 'tier "a\\b"',
      value: 'gold\u0001',
      show: 'true',
      required: 'true',
      listItems: ['gold\u0001', 'silver 🥈', '00012'],
    };
    const fieldsOf: Record<string, ReturnType<typeof envelopes.customFields>> = {
      'env-b': [field('signrun', 'job/ü\n"1"'), listField, field('signrunJob', '1e3')],
      'env-a': [field('z-first-by-position', ''), field('a-second', 'x'.repeat(2_000))],
      'env-c': [],
    };
    db.transaction(() => {
      for (const [id, fields] of Object.entries(fieldsOf)) envelopes.insert(envelope(id, 'acc', t0), [], [], fields);
    })();
    const many = envelopes.customFieldsOfMany(['env-b', 'env-c', 'env-a', 'env-missing']);
    expect([...many.keys()].sort()).toEqual(['env-a', 'env-b']);
    for (const id of ['env-a', 'env-b']) {
      expect(many.get(id)).toEqual(envelopes.customFields(id));
      expect(many.get(id)?.map(({ fieldId: _, ...rest }) => rest)).toEqual(
        fieldsOf[id]!.map(({ fieldId: _, ...rest }) => rest),
      );
    }
    expect(envelopes.customFieldsOfMany([]).size).toBe(0);
  });
});

describe('envelopes of a listing page', () => {
  it('are the stored envelopes, every field as get reads it, oldest change first, whole or paged', () => {
    const db = openDatabase(undefined, []);
    dbs.push(db);
    const envelopes = envelopesRepository(db);
    const stored = [
      envelope('env-0', 'acc', t0 + 2),
      {
        ...envelope('env-1', 'acc', t0 + 1),
        status: 'voided' as const,
        emailSubject: 'Offre « signée » 🖋 "quoted" \\ \u0007',
        emailBlurb: 'line 1\nline 2',
        templateId: 'tpl-1',
        transactionId: 'tx-1',
        eventNotification: { url: 'https://hooks.example/c', envelopeEvents: [{ envelopeEventStatusCode: 'sent' }] },
        deliveredAt: t0 + 1,
        voidedAt: t0 + 1,
        voidedReason: 'replaced',
      },
      envelope('env-2', 'acc', t0 + 1),
      envelope('other', 'acc-2', t0),
    ];
    db.transaction(() => {
      for (const e of stored) envelopes.insert(e, [], [], []);
    })();
    const query: EnvelopeQuery = { accountId: 'acc', fromDate: t0, startPosition: 0, count: 1000 };
    const whole = envelopes.list(query);
    // Equal change times keep the order of insertion (rowid).
    expect(whole.envelopes.map((e) => e.id)).toEqual(['env-1', 'env-2', 'env-0']);
    expect(whole.envelopes).toEqual(whole.envelopes.map((e) => envelopes.get('acc', e.id)));
    expect(whole.envelopes[0]).toEqual(stored[1]);
    const paged = [0, 2].flatMap((startPosition) => envelopes.list({ ...query, startPosition, count: 2 }).envelopes);
    expect(paged).toEqual(whole.envelopes);
    expect(envelopes.list({ ...query, accountId: 'nobody' })).toEqual({ total: 0, envelopes: [] });
  });
});
