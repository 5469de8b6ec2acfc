import { readFile, writeFile, mkdir, copyFile, access } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { EnvelopeRecord } from '../../src/output/records.js';
import { readJournal } from '../../src/state/journal.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, tempDir } from '../cli/run-helpers.js';
import { sandboxApi } from '../signing/sandbox-api.js';

// Issue 12: `status: voided` in the job file voids the envelope on the next
// run, once; a drifted envelope is replaced only when asked (--replace-drifted).

let sandbox: RunningSandbox;
const requests: string[] = [];
/** Envelopes voided on the service, as its events say (a PUT also sends drafts). */
let voided: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, log: (line) => requests.push(line) });
  sandbox.app.sandbox.events.on('event', (e) => {
    if (e.type === 'envelope-voided') voided.push(e.envelopeId);
  });
});
afterAll(async () => sandbox?.close());

function jobText(a: string[], b: string[]): string {
  const envelope = (key: string, extra: string[]) => [
    `  - key: ${key}`,
    ...extra.map((l) => `    ${l}`),
    '    documents:',
    '      - { name: offer-letter.pdf, file: docs/offer-letter.pdf }',
    '    recipients:',
    `      - { name: Person ${key}, email: ${key}@example.com }`,
  ];
  return ['version: 1', 'job: lifecycle', 'defaults:', '  emailSubject: Please sign', 'envelopes:']
    .concat(envelope('a', a), envelope('b', b), [''])
    .join('\n');
}

const voids = () => voided;

describe('void and replace, declared in the job file', () => {
  it('voids once on the service; replaces a drifted envelope only when asked', async () => {
    const dir = await tempDir('signrun-void-');
    await mkdir(path.join(dir, 'docs'));
    await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
    const job = path.join(dir, 'lifecycle.yaml');
    const out = path.join(dir, 'out');
    const env = sandboxEnv(sandbox);
    const api = sandboxApi(sandbox.rootUrl);
    const record = async (key: string) =>
      JSON.parse(await readFile(path.join(out, 'lifecycle', key, 'envelope.json'), 'utf8')) as EnvelopeRecord;

    await writeFile(job, jobText([], []));
    const sent = await runCli(['run', dir, '--out', out], { env });
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/Done in [\d.]+ m?s: 2 envelopes sent\./);
    const a = await record('a');

    // A reason is required with status voided: refused before any call.
    await writeFile(job, jobText(['status: voided'], []));
    const invalid = await runCli(['run', dir, '--out', out], { env });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('SR_VOIDED_REASON_MISSING');
    expect(invalid.stderr).toMatch(/lifecycle\.yaml:\d+:\d+/);

    await writeFile(job, jobText(['status: voided', 'voidedReason: Sent to the wrong person.'], []));
    // plan counts the void's call (made by the run's sync), not 0.
    const planVoid = await runCli(['plan', dir, '--out', out], { env });
    expect(planVoid.stdout).toMatch(/^\s+void\s+lifecycle\/a\s+1 call\(s\)/m);
    requests.length = 0;
    voided = [];
    const first = await runCli(['run', dir, '--out', out], { env });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(voids()).toHaveLength(1);
    // The final line says what the run did: not "2 of 2 envelope(s) sent".
    expect(first.stdout).toContain(
      ': 1 envelope adopted (sent by an earlier run or one running alongside, not sent again), 1 voided.',
    );
    expect(await api.envelopeStatus(a.envelopeId)).toBe('voided');
    expect(await record('a')).toMatchObject({ status: 'voided', voidedReason: 'Sent to the wrong person.' });
    expect((await readReport(out)).envelopes.find((e) => e.key === 'a')).toMatchObject({
      outcome: 'succeeded',
      status: 'voided',
    });

    requests.length = 0;
    voided = [];
    const second = await runCli(['run', dir, '--out', out], { env });
    expect(second.code).toBe(0);
    expect(voids()).toHaveLength(0);

    // Drift: never replaced silently…
    const b = await record('b');
    await writeFile(
      job,
      jobText(['status: voided', 'voidedReason: Sent to the wrong person.'], ['emailSubject: Please sign (v2)']),
    );
    const drift = await runCli(['run', dir, '--out', out], { env });
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain('SR_ENVELOPE_DRIFT');
    expect(await api.envelopeStatus(b.envelopeId)).toBe('sent');

    // plan shows it: drift without the flag, replace (first) with it.
    const planned = await runCli(['plan', dir, '--out', out, '--replace-drifted'], { env });
    expect(planned.code).toBe(0);
    const planLines = planned.stdout.split('\n').filter((l) => l.startsWith('  '));
    // The void, then the new envelope's draft and send (listings are the run's, not the envelope's).
    expect(planLines[0]).toMatch(/^\s+replace\s+lifecycle\/b\s+3 call\(s\)/);
    expect(planned.stdout).toMatch(/settled\s+lifecycle\/a/);
    expect((await runCli(['plan', dir, '--out', out], { env })).stdout).toMatch(/drift\s+lifecycle\/b/);

    // …only when asked: the old one voided with a reason, the new content sent under the same key.
    requests.length = 0;
    voided = [];
    const replaced = await runCli(['run', dir, '--out', out, '--replace-drifted'], { env });
    expect(replaced.code, replaced.stdout + replaced.stderr).toBe(0);
    expect(voids()).toHaveLength(1);
    expect(await api.envelopeStatus(b.envelopeId)).toBe('voided');
    const next = await record('b');
    expect(next.envelopeId).not.toBe(b.envelopeId);
    expect(await api.envelopeStatus(next.envelopeId)).toBe('sent');
    await access(path.join(out, 'lifecycle', 'b', 'replaced', `${b.envelopeId}.json`));
    const journal = await readJournal(path.join(out, '.signrun'));
    expect(journal.records.filter((r) => r.id === 'lifecycle/b' && r.step === 'voided')).toMatchObject([
      { envelopeId: b.envelopeId, replaced: true },
    ]);

    // And a run after that is up to date: nothing voided or sent again.
    requests.length = 0;
    voided = [];
    expect((await runCli(['run', dir, '--out', out, '--replace-drifted'], { env })).code).toBe(0);
    expect(voids()).toHaveLength(0);
    expect(requests.filter((l) => /^POST \S*\/envelopes 201/.test(l))).toHaveLength(0);
  }, 90_000);
});
