import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, documentEnvelope, makePdf } from '../sandbox/helpers/api.js';
import { call, type Outcome } from './tiny-app.js';
import type { FaultReport } from '../../src/sandbox/platform/faults/index.js';

// Each fault kind, observed over real HTTP against the real sandbox; what was
// committed is read from the sandbox's database (custom field `signrun`).
let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

function committedCount(s: RunningSandbox, identity: string): number {
  const row = s.app.sandbox.db
    .prepare("SELECT COUNT(*) AS n FROM envelope_custom_fields WHERE name = 'signrun' AND value = ?")
    .get(identity) as { n: number };
  return row.n;
}

/** Logs in, retrying through injected faults (login is an API call too). */
async function baseUrlOf(s: RunningSandbox): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const o = await call(`${s.rootUrl}/login_information`, { headers: authHeader() });
    if (o.kind === 'answer' && o.status === 200)
      return (JSON.parse(o.body.toString()) as { loginAccounts: Array<{ baseUrl: string }> }).loginAccounts[0]!.baseUrl;
  }
  throw new Error('could not log in through the faults');
}

describe('fault injection in the real sandbox', () => {
  it('every kind is observed, and what it committed is exactly what the kind says', async () => {
    const log: string[] = [];
    sandbox = await startSandbox({
      port: 0,
      faults: '429=0.1,500=0.1,503=0.1,reset-before=0.1,reset-after=0.1,slow=0.1:150,truncate=0.3',
      faultSeed: 6,
      log: (l) => log.push(l),
    });
    const s = sandbox;
    const baseUrl = await baseUrlOf(s);
    const pdf = await makePdf(1);
    const seen = new Map<string, number>();
    const expectations: Array<{ identity: string; fault: string; outcome: Outcome }> = [];
    let downloadTarget: string | undefined;
    for (let i = 0; i < 200 && seen.size < 8; i++) {
      const identity = `faults/envelope-${i}`;
      const before = log.length;
      const outcome = await call(`${baseUrl}/envelopes`, {
        method: 'POST',
        headers: { ...authHeader(), 'content-type': 'application/json' },
        body: JSON.stringify(
          documentEnvelope(pdf, { customFields: { textCustomFields: [{ name: 'signrun', value: identity }] } }),
        ),
      });
      const fault =
        log
          .slice(before)
          .find((l) => l.startsWith('fault '))
          ?.split(' ')[1] ?? 'none';
      seen.set(fault, (seen.get(fault) ?? 0) + 1);
      expectations.push({ identity, fault, outcome });
      if (outcome.kind === 'answer' && outcome.status === 201)
        downloadTarget ??= (JSON.parse(outcome.body.toString()) as { envelopeId: string }).envelopeId;
      // Downloads draw too: try one per round to meet `truncate`.
      if (downloadTarget) {
        const before2 = log.length;
        const d = await call(`${baseUrl}/envelopes/${downloadTarget}/documents/1`, { headers: authHeader() });
        const f =
          log
            .slice(before2)
            .find((l) => l.startsWith('fault '))
            ?.split(' ')[1] ?? 'none';
        if (f === 'truncate') {
          seen.set('truncate', (seen.get('truncate') ?? 0) + 1);
          expect(d.kind).toBe('broken');
        } else if (f === 'none' || f === 'slow') {
          expect(d.kind === 'answer' && d.body.equals(pdf)).toBe(true);
        }
      }
    }
    for (const kind of ['429', '500', '503', 'reset-before', 'reset-after', 'slow', 'truncate', 'none'])
      expect(seen.has(kind), kind).toBe(true);

    for (const { identity, fault, outcome } of expectations) {
      const n = committedCount(s, identity);
      switch (fault) {
        case 'none':
        case 'slow':
          expect(outcome.kind === 'answer' && outcome.status, identity).toBe(201);
          expect(n, identity).toBe(1);
          break;
        case '429':
          expect(outcome.kind === 'answer' && outcome.status).toBe(429);
          expect(outcome.kind === 'answer' && outcome.headers.get('retry-after')).toBe('1');
          expect(n, identity).toBe(0);
          break;
        case '500':
        case '503':
          expect(outcome.kind === 'answer' && outcome.status).toBe(Number(fault));
          expect(n, identity).toBe(0);
          break;
        case 'reset-before':
          expect(outcome.kind).toBe('broken');
          expect(n, identity).toBe(0);
          break;
        case 'reset-after':
          // The hardest case: the client saw a broken connection, yet the envelope exists.
          expect(outcome.kind).toBe('broken');
          expect(n, identity).toBe(1);
          break;
        default:
          throw new Error(`unexpected fault ${fault} on a create`);
      }
    }
    const report = JSON.parse(
      ((await waitForAnswer(`${s.origin}/sandbox/faults`)) as { body: Buffer }).body.toString(),
    ) as FaultReport;
    expect(report.seed).toBe(6);
    // Its counts agree with the log, kind by kind (logins and downloads included).
    for (const [kind, n] of Object.entries(report.injected))
      expect(n, kind).toBe(log.filter((l) => l.startsWith(`fault ${kind} on `)).length);
  });

  it('with no --faults, /sandbox/faults does not exist and nothing is injected', async () => {
    sandbox = await startSandbox({ port: 0 });
    const o = await call(`${sandbox.origin}/sandbox/faults`);
    expect(o.kind === 'answer' && o.status).toBe(404);
  });

  it('refuses a bad spec with SR_USAGE before opening anything', async () => {
    await expect(startSandbox({ port: 0, faults: '500=2' })).rejects.toMatchObject({ code: 'SR_USAGE' });
  });
});

async function waitForAnswer(url: string): Promise<Outcome> {
  const o = await call(url);
  if (o.kind !== 'answer') throw new Error(`no answer from ${url}`);
  return o;
}
