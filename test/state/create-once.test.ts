import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  contentDigest,
  createOnce,
  digestFieldName,
  identityFieldName,
  journalProgress,
  openJournal,
  readJournal,
  transactionIdOf,
  type CreateOnceInput,
  type Journal,
} from '../../src/state/index.js';
import type { ServiceFailure } from '../../src/client/index.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, documentEnvelope, makePdf } from '../sandbox/helpers/api.js';

let dir: string;
let journal: Journal;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signrun-create-once-'));
  journal = (await openJournal(dir)).journal;
});
afterEach(async () => {
  await journal.close();
  await rm(dir, { recursive: true, force: true });
});

class FakeHttpError extends Error {
  constructor(readonly failure: ServiceFailure) {
    super(JSON.stringify(failure));
  }
}

function input(overrides: Partial<CreateOnceInput>): CreateOnceInput {
  return {
    id: 'job/a',
    digest: 'sha256:new',
    transactionId: 'sr-x',
    journal,
    lookup: () => Promise.resolve(undefined),
    create: () => Promise.resolve({ envelopeId: 'env-1' }),
    describe: (e) => (e instanceof FakeHttpError ? e.failure : { network: true }),
    sleep: () => Promise.resolve(),
    ...overrides,
  };
}

describe('createOnce (the decisions)', () => {
  it('adopts what the journal says was created, with no call at all', async () => {
    const at = new Date().toISOString();
    const progress = journalProgress([
      { v: 1, at, kind: 'envelope', id: 'job/a', step: 'created', envelopeId: 'env-9', digest: 'sha256:new' },
    ]).envelopes.get('job/a');
    let calls = 0;
    const count = () => {
      calls += 1;
      return Promise.resolve(undefined);
    };
    const result = await createOnce(
      input({ progress, lookup: count, create: () => Promise.reject(new Error('must not create')) }),
    );
    expect(result).toMatchObject({ outcome: 'adopted', envelopeId: 'env-9', from: 'journal' });
    expect(calls).toBe(0);
  });

  it('reports drift instead of sending again when the content changed', async () => {
    const at = new Date().toISOString();
    const progress = journalProgress([
      { v: 1, at, kind: 'envelope', id: 'job/a', step: 'created', envelopeId: 'env-9', digest: 'sha256:old' },
    ]).envelopes.get('job/a');
    expect(await createOnce(input({ progress }))).toMatchObject({
      outcome: 'drift',
      envelopeId: 'env-9',
      sentDigest: 'sha256:old',
    });
    const found = await createOnce(
      input({ lookup: () => Promise.resolve({ envelopeId: 'env-7', digest: 'sha256:old' }) }),
    );
    expect(found).toMatchObject({ outcome: 'drift', envelopeId: 'env-7' });
  });

  it('adopts an envelope the service already has, and journals it', async () => {
    const result = await createOnce(
      input({
        lookup: () => Promise.resolve({ envelopeId: 'env-5', digest: 'sha256:new' }),
        create: () => Promise.reject(new Error('must not create')),
      }),
    );
    expect(result).toMatchObject({ outcome: 'adopted', from: 'service', envelopeId: 'env-5' });
    const records = (await readJournal(dir)).records;
    expect(records.map((r) => [r.step, 'adopted' in r ? r.adopted : undefined])).toEqual([['created', true]]);
  });

  it('has the create-intent on disk before the create call is made', async () => {
    const result = await createOnce(
      input({
        create: async () => {
          const seen = (await readJournal(dir)).records.map((r) => r.step);
          expect(seen).toEqual(['create-intent']);
          return { envelopeId: 'env-1' };
        },
      }),
    );
    expect(result).toMatchObject({ outcome: 'created', envelopeId: 'env-1', attempts: 1 });
    expect((await readJournal(dir)).records.map((r) => r.step)).toEqual(['create-intent', 'created']);
  });

  it('after a broken connection, looks again and adopts the envelope the service did commit', async () => {
    const log: string[] = [];
    let committed: string | undefined;
    const result = await createOnce(
      input({
        lookup: () => {
          log.push('lookup');
          return Promise.resolve(committed ? { envelopeId: committed, digest: 'sha256:new' } : undefined);
        },
        create: () => {
          log.push('create');
          committed = 'env-42'; // the service commits, then the connection breaks
          return Promise.reject(new FakeHttpError({ network: true }));
        },
      }),
    );
    expect(result).toMatchObject({ outcome: 'adopted', envelopeId: 'env-42', from: 'service' });
    expect(log).toEqual(['lookup', 'create', 'lookup']);
  });

  it('after a rate limit, creates again without a lookup (nothing was done), waiting as asked', async () => {
    const log: string[] = [];
    const waits: number[] = [];
    let first = true;
    const result = await createOnce(
      input({
        lookup: () => {
          log.push('lookup');
          return Promise.resolve(undefined);
        },
        create: () => {
          log.push('create');
          if (first) {
            first = false;
            return Promise.reject(new FakeHttpError({ status: 400, errorCode: 'BURST_APIINVOCATION_LIMIT_EXCEEDED' }));
          }
          return Promise.resolve({ envelopeId: 'env-2' });
        },
        retryDelayMs: () => 1234,
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
      }),
    );
    expect(result).toMatchObject({ outcome: 'created', envelopeId: 'env-2', attempts: 2 });
    expect(log).toEqual(['lookup', 'create', 'create']);
    expect(waits).toEqual([1234]);
  });

  it('gives up at once on a never-retry error, and after maxAttempts on transient ones, leaving the intent journalled', async () => {
    const invalid = new FakeHttpError({ status: 400, errorCode: 'INVALID_REQUEST_BODY' });
    await expect(createOnce(input({ create: () => Promise.reject(invalid) }))).rejects.toBe(invalid);
    let creates = 0;
    const down = new FakeHttpError({ status: 503 });
    await expect(
      createOnce(
        input({
          id: 'job/b',
          maxAttempts: 3,
          create: () => {
            creates += 1;
            return Promise.reject(down);
          },
        }),
      ),
    ).rejects.toBe(down);
    expect(creates).toBe(3);
    const b = journalProgress((await readJournal(dir)).records).envelopes.get('job/b');
    expect(b?.createIntent).toBeDefined();
    expect(b?.created).toBeUndefined();
  });

  it('with firstLookup if-intent, skips the first lookup only when the journal has no intent', async () => {
    let lookups = 0;
    const lookup = () => {
      lookups += 1;
      return Promise.resolve(undefined);
    };
    await createOnce(input({ firstLookup: 'if-intent', lookup }));
    expect(lookups).toBe(0);
    const at = new Date().toISOString();
    const progress = journalProgress([
      { v: 1, at, kind: 'envelope', id: 'job/c', step: 'create-intent', digest: 'd', transactionId: 't' },
    ]).envelopes.get('job/c');
    await createOnce(input({ id: 'job/c', firstLookup: 'if-intent', progress, lookup }));
    expect(lookups).toBe(1);
  });
});

describe('createOnce against the real sandbox under injected faults', () => {
  let sandbox: RunningSandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  const faults = '429=0.1,500=0.1,503=0.05,reset-before=0.1,reset-after=0.25';

  async function setUp() {
    sandbox = await startSandbox({ port: 0, faults, faultSeed: 11 });
    const s = sandbox;
    const accountId = (
      s.app.sandbox.db.prepare('SELECT id FROM accounts ORDER BY rowid LIMIT 1').get() as { id: string }
    ).id;
    const baseUrl = `${s.rootUrl}/accounts/${accountId}`;
    const count = (id: string) =>
      (
        s.app.sandbox.db
          .prepare(`SELECT COUNT(*) AS n FROM envelope_custom_fields WHERE name = '${identityFieldName}' AND value = ?`)
          .get(id) as { n: number }
      ).n;
    return { baseUrl, count };
  }

  async function http(url: string, init: RequestInit = {}): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(url, {
        ...init,
        headers: { ...authHeader(), 'content-type': 'application/json', connection: 'close' },
      });
    } catch {
      throw new FakeHttpError({ network: true });
    }
    const text = await response.text();
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!response.ok)
      throw new FakeHttpError({ status: response.status, errorCode: body['errorCode'] as string | undefined });
    return body;
  }

  it('creates every envelope exactly once, where blind retries send duplicates', async () => {
    const { baseUrl, count } = await setUp();
    const pdf = await makePdf(1);
    const ids = Array.from({ length: 30 }, (_, i) => `faults-job/envelope-${i}`);
    for (const id of ids) {
      const digest = contentDigest({ id, subject: 'Please sign' });
      const result = await createOnce({
        id,
        digest,
        transactionId: transactionIdOf('faults-job', id),
        journal,
        describe: (e) => (e instanceof FakeHttpError ? e.failure : { network: true }),
        sleep: () => Promise.resolve(),
        maxAttempts: 20,
        lookup: async () => {
          const q = new URLSearchParams({
            from_date: '2000-01-01T00:00:00Z',
            custom_field: `${identityFieldName}=${id}`,
          });
          const listed = (await http(`${baseUrl}/envelopes?${q.toString()}`)) as {
            envelopes?: Array<{
              envelopeId: string;
              customFields?: { textCustomFields?: Array<{ name: string; value: string }> };
            }>;
          };
          const e = listed.envelopes?.[0];
          if (!e) return undefined;
          const sent = e.customFields?.textCustomFields?.find((f) => f.name === digestFieldName)?.value;
          return { envelopeId: e.envelopeId, ...(sent !== undefined ? { digest: sent } : {}) };
        },
        create: async () => {
          const body = documentEnvelope(pdf, {
            customFields: {
              textCustomFields: [
                { name: identityFieldName, value: id },
                { name: digestFieldName, value: digest },
              ],
            },
          });
          return (await http(`${baseUrl}/envelopes`, { method: 'POST', body: JSON.stringify(body) })) as {
            envelopeId: string;
          };
        },
      });
      expect(['created', 'adopted']).toContain(result.outcome);
    }
    for (const id of ids) expect(count(id), id).toBe(1);
    const report = (await (await fetch(`${sandbox!.origin}/sandbox/faults`)).json()) as {
      injected: Record<string, number>;
    };
    expect(report.injected['reset-after']).toBeGreaterThan(0);

    // The control: the same faults with a blind retry (create again on any failure) do send twice.
    const blind = Array.from({ length: 30 }, (_, i) => `blind-job/envelope-${i}`);
    for (const id of blind) {
      for (let attempt = 0; attempt < 20; attempt++) {
        const body = documentEnvelope(pdf, {
          customFields: { textCustomFields: [{ name: identityFieldName, value: id }] },
        });
        const ok = await http(`${baseUrl}/envelopes`, { method: 'POST', body: JSON.stringify(body) }).then(
          () => true,
          () => false,
        );
        if (ok) break;
      }
    }
    expect(blind.some((id) => count(id) > 1)).toBe(true);
  });
});
