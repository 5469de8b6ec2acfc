import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildSandboxApp, startSandbox, type RunningSandbox, type SandboxEvent } from '../../src/sandbox/index.js';
import { buildEnvelope } from '../../src/sandbox/esignature/envelopes/envelope-factory.js';
import { parseEnvelopeDefinition } from '../../src/sandbox/esignature/envelopes/wire/envelope-definition.js';
import { defaultSeedIds } from '../../src/sandbox/index.js';
import { authHeader, call, documentEnvelope, login, makePdf } from './helpers/api.js';

// Creations finishing in the same turn of the event loop share one commit
// (lifecycle.createSoon); each must still stand or fail alone.
const apps: FastifyInstance[] = [];
const sandboxes: RunningSandbox[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
  for (const s of sandboxes.splice(0)) await s.close();
});

async function rowsFor(a: FastifyInstance, pdf: Buffer, overrides: Record<string, unknown> = {}) {
  const { sandbox } = a;
  return buildEnvelope(parseEnvelopeDefinition(JSON.parse(JSON.stringify(documentEnvelope(pdf, overrides)))), {
    accountId: defaultSeedIds.accountId,
    userId: defaultSeedIds.userId,
    now: sandbox.clock.now(),
    blobs: sandbox.blobs,
    templates: sandbox.templates,
    work: sandbox.documentWork,
  });
}

describe('group commit of envelope creations', () => {
  it('commits the good creations of a batch and rolls back only the one that fails, events after the commit', async () => {
    const a = await buildSandboxApp();
    apps.push(a);
    const pdf = await makePdf(1);
    const good1 = await rowsFor(a, pdf);
    const bad = await rowsFor(a, pdf);
    const good2 = await rowsFor(a, pdf);
    // Two recipients with the same key: the recipients table's primary key refuses the second, inside the transaction.
    bad.recipients.push({ ...bad.recipients[0]! });
    const events: SandboxEvent[] = [];
    const committedWhenEmitted: boolean[] = [];
    a.sandbox.events.on('event', (e) => {
      events.push(e);
      // Emitted only once committed: no transaction open any more.
      committedWhenEmitted.push(!a.sandbox.db.inTransaction);
    });
    const { lifecycle } = a.sandbox;
    const settled = await Promise.allSettled(
      [good1, bad, good2].map((r) => lifecycle.createSoon(r.envelope, r.recipients, r.documents, r.customFields)),
    );
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(a.sandbox.envelopes.getById(good1.envelope.id)?.status).toBe('sent');
    expect(a.sandbox.envelopes.getById(good2.envelope.id)?.status).toBe('sent');
    expect(a.sandbox.envelopes.getById(bad.envelope.id)).toBeUndefined();
    expect(a.sandbox.envelopes.recipients(bad.envelope.id)).toEqual([]);
    expect(a.sandbox.eventsTable.ofEnvelope(bad.envelope.id)).toEqual([]);
    expect(new Set(events.map((e) => e.envelopeId))).toEqual(new Set([good1.envelope.id, good2.envelope.id]));
    expect(committedWhenEmitted).toEqual(events.map(() => true));
  });

  it("commits Connect's deliveries and cursor with the creations' events: one commit, nothing left to catch up", async () => {
    const a = await buildSandboxApp();
    apps.push(a);
    await a.ready();
    const pdf = await makePdf(1);
    // A receiver nobody listens on: the deliveries stay queued (failed attempts are retried later), which is what is counted.
    const notified = await rowsFor(a, pdf, { eventNotification: { url: 'http://127.0.0.1:9/connect' } });
    const quiet = await rowsFor(a, pdf);
    const { db } = a.sandbox;
    const deliveries = db
      .prepare<[string], number>('SELECT COUNT(*) FROM connect_deliveries WHERE envelope_id = ?')
      .pluck();
    const cursor = db.prepare<[], number>('SELECT last_event_id FROM connect_cursor WHERE id = 1').pluck();
    const lastEvent = db.prepare<[], number>('SELECT MAX(id) FROM events').pluck();
    const seenAtEmit: Array<{ envelopeId: string; deliveries: number; caughtUp: boolean }> = [];
    // Events are emitted right after COMMIT, before any later turn: what is in the database then went in with them.
    a.sandbox.events.on('event', (e) => {
      seenAtEmit.push({
        envelopeId: e.envelopeId,
        deliveries: deliveries.get(e.envelopeId)!,
        caughtUp: cursor.get() === lastEvent.get(),
      });
    });
    const { lifecycle } = a.sandbox;
    await Promise.all(
      [notified, quiet].map((r) => lifecycle.createSoon(r.envelope, r.recipients, r.documents, r.customFields)),
    );
    const ofNotified = seenAtEmit.filter((s) => s.envelopeId === notified.envelope.id);
    expect(ofNotified.length).toBeGreaterThan(0);
    // Every event of the notified envelope has its delivery queued by the time it is emitted.
    expect(ofNotified.map((s) => s.deliveries)).toEqual(ofNotified.map(() => ofNotified.length));
    expect(seenAtEmit.map((s) => s.caughtUp)).toEqual(seenAtEmit.map(() => true));
    expect(deliveries.get(quiet.envelope.id)).toBe(0);

    // A lone step (no group commit) does the same: a void's event and its delivery in one commit.
    seenAtEmit.length = 0;
    lifecycle.void(notified.envelope.id, 'changed our minds');
    expect(seenAtEmit.map((s) => [s.deliveries, s.caughtUp])).toEqual([[ofNotified.length + 1, true]]);
  });

  it('answers 201 to many concurrent creations over HTTP, each stored with its own document', async () => {
    const sandbox = await startSandbox({ port: 0 });
    sandboxes.push(sandbox);
    const { baseUrl } = await login(sandbox.rootUrl);
    const pdfs = await Promise.all(Array.from({ length: 24 }, (_, i) => makePdf(1, `Concurrent ${i}`)));
    const created = await Promise.all(
      pdfs.map((pdf) => call(`${baseUrl}/envelopes`, { headers: authHeader(), body: documentEnvelope(pdf) })),
    );
    expect(created.map((r) => r.status)).toEqual(pdfs.map(() => 201));
    expect(new Set(created.map((r) => (r.json as { envelopeId: string }).envelopeId)).size).toBe(24);
    for (const [i, r] of created.entries()) {
      const document = await call(`${baseUrl}/envelopes/${(r.json as { envelopeId: string }).envelopeId}/documents/1`, {
        headers: authHeader(),
      });
      expect(document.bytes.equals(pdfs[i]!)).toBe(true);
    }
  });
});
