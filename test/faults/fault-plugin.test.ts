import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { call, documentBytes, startTinyApp, type Outcome } from './tiny-app.js';
import type { FaultInjectionOptions, FaultReport } from '../../src/sandbox/platform/faults/index.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(spec: string, seed = 1, extra: Pick<FaultInjectionOptions, 'delay'> = {}) {
  const started = await startTinyApp({ spec, seed, ...extra });
  app = started.app;
  return started;
}

const create = (origin: string) =>
  call(`${origin}/restapi/v2/accounts/a/envelopes`, {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
const download = (origin: string) => call(`${origin}/restapi/v2/accounts/a/envelopes/e/documents/1`);

function answer(outcome: Outcome) {
  if (outcome.kind !== 'answer') throw new Error(`expected an answer, the connection broke: ${outcome.error}`);
  return outcome;
}

describe('fault injection over real HTTP', () => {
  it('429: refuses with Retry-After before processing', async () => {
    const { origin, committed } = await start('429=1:7');
    const outcome = answer(await create(origin));
    expect(outcome.status).toBe(429);
    expect(outcome.headers.get('retry-after')).toBe('7');
    expect((JSON.parse(outcome.body.toString()) as { errorCode: string }).errorCode).toBe('SANDBOX_INJECTED_FAULT');
    expect(committed()).toBe(0);
  });

  it.each([500, 503])('%i: fails before processing', async (status) => {
    const { origin, committed } = await start(`${status}=1`);
    expect(answer(await create(origin)).status).toBe(status);
    expect(committed()).toBe(0);
  });

  it('reset-before: the connection breaks and nothing is committed', async () => {
    const { origin, committed } = await start('reset-before=1');
    const outcome = await create(origin);
    expect(outcome.kind).toBe('broken');
    expect(committed()).toBe(0);
  });

  it('reset-after: the connection breaks but the request WAS committed', async () => {
    const { origin, committed } = await start('reset-after=1');
    const outcome = await create(origin);
    expect(outcome.kind).toBe('broken');
    expect(committed()).toBe(1);
  });

  it('slow: answers normally, after the delay', async () => {
    // The delay is held by the test: the request is committed, its answer waits for the delay.
    const asked: number[] = [];
    let release = () => {};
    let delayed = () => {};
    const delayAsked = new Promise<void>((resolve) => (delayed = resolve));
    const { origin, committed } = await start('slow=1:300', 1, {
      delay: (ms) => {
        asked.push(ms);
        delayed();
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    let answered = false;
    const pending = create(origin).then((o) => ((answered = true), o));
    await delayAsked;
    expect(asked).toEqual([300]);
    expect(committed()).toBe(1);
    expect(answered).toBe(false);
    release();
    expect(answer(await pending).status).toBe(201);
  });

  it('truncate: a download ends early under its full Content-Length', async () => {
    const { origin } = await start('truncate=1');
    const outcome = await download(origin);
    expect(outcome.kind).toBe('broken');
    // Calls that are not downloads are untouched by truncate.
    expect(answer(await create(origin)).status).toBe(201);
  });

  it('truncate, seen at the byte level: fewer bytes arrive than announced', async () => {
    const { origin } = await start('truncate=1');
    const { request } = await import('node:http');
    const got = await new Promise<{ announced: number; received: number; aborted: boolean }>((resolve) => {
      const req = request(`${origin}/restapi/v2/accounts/a/envelopes/e/documents/1`, (res) => {
        let received = 0;
        res.on('data', (chunk: Buffer) => (received += chunk.length));
        const done = (aborted: boolean) =>
          resolve({ announced: Number(res.headers['content-length']), received, aborted });
        res.on('end', () => done(false));
        res.on('aborted', () => done(true));
        res.on('error', () => done(true));
      });
      req.end();
    });
    expect(got.announced).toBe(documentBytes.length);
    expect(got.received).toBeLessThan(documentBytes.length);
    expect(got.received).toBeGreaterThan(0);
    expect(got.aborted).toBe(true);
  });

  it('without a fault, downloads arrive whole', async () => {
    const { origin } = await start('500=0');
    const outcome = answer(await download(origin));
    expect(outcome.body.equals(documentBytes)).toBe(true);
  });

  it('never touches requests outside /restapi', async () => {
    const { origin } = await start('500=0.5,reset-before=0.5');
    for (let i = 0; i < 10; i++) expect(answer(await call(`${origin}/sandbox/health`)).status).toBe(200);
  });

  it('reports what it injected at GET /sandbox/faults, and logs the seed', async () => {
    const { origin, log } = await start('500=0.5,503=0.5', 99);
    for (let i = 0; i < 10; i++) await create(origin);
    const report = JSON.parse(answer(await call(`${origin}/sandbox/faults`)).body.toString()) as FaultReport;
    expect(report).toMatchObject({ seed: 99, apiRequests: 10, spec: '500=0.5,503=0.5' });
    expect(report.injected['500'] + report.injected['503']).toBe(10);
    expect(log[0]).toContain('--fault-seed 99');
    expect(log.filter((l) => /^fault 50[03] on POST /.test(l)).length).toBe(10);
  });

  it('is reproducible: the same seed and calls meet the same faults', async () => {
    const outcomes = async (seed: number) => {
      const { origin, committed } = await start('429=0.2,500=0.2,reset-before=0.2,reset-after=0.2', seed);
      const seen: string[] = [];
      for (let i = 0; i < 25; i++) {
        const o = await create(origin);
        seen.push(o.kind === 'answer' ? String(o.status) : 'broken');
      }
      const result = `${seen.join(' ')} | committed ${committed()}`;
      await app?.close();
      app = undefined;
      return result;
    };
    const first = await outcomes(2026);
    expect(await outcomes(2026)).toBe(first);
    expect(await outcomes(2027)).not.toBe(first);
  });
});
