import { readFile, writeFile, mkdir, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { movableClock } from '../../src/sandbox/esignature/envelopes/notifications/movable-clock.js';
import { dueNotifications } from '../../src/sandbox/esignature/envelopes/notifications/schedule.js';
import type { EnvelopeRecord } from '../../src/output/records.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { sandboxEnv, tempDir } from '../cli/run-helpers.js';

// Issue 12: reminders and expiration from the job file's `notification`,
// honoured by the sandbox with its clock moved forward; `remind` resends now.

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 }, { clock: movableClock() });
});
afterAll(async () => sandbox?.close());

interface Message {
  kind: string;
  to: string;
}
const outbox = async (envelopeId: string) =>
  (
    (await (await fetch(`${sandbox.origin}/sandbox/outbox?format=json&envelopeId=${envelopeId}`)).json()) as {
      messages: Message[];
    }
  ).messages.map((m) => m.kind);
const advanceDays = async (days: number) => {
  const res = await fetch(`${sandbox.origin}/sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: days * 86_400 + 60 }),
  });
  expect(res.status).toBe(200);
};

describe('reminders and expiration', () => {
  it('the schedule: first reminder after the delay, then every frequency; warning; expiry', () => {
    const s = {
      reminderEnabled: true,
      reminderDelayDays: 2,
      reminderFrequencyDays: 3,
      expireEnabled: true,
      expireAfterDays: 10,
      expireWarnDays: 2,
    };
    const day = 86_400_000;
    const due = (d: number, remindersSent = 0, warned = false) =>
      dueNotifications(s, 0, d * day, { remindersSent, warned });
    expect(due(1)).toEqual({ reminders: 0, warn: false, expire: false });
    expect(due(2)).toEqual({ reminders: 1, warn: false, expire: false });
    expect(due(5, 1)).toEqual({ reminders: 1, warn: false, expire: false });
    expect(due(8, 0)).toEqual({ reminders: 3, warn: true, expire: false });
    expect(due(10, 3, true)).toEqual({ reminders: 0, warn: false, expire: true });
  });

  it('the outbox shows the reminders, the warning and the expiry as the clock moves; sync records it; remind resends', async () => {
    const dir = await tempDir('signrun-remind-');
    await mkdir(path.join(dir, 'docs'));
    await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
    await writeFile(
      path.join(dir, 'notice.yaml'),
      [
        'version: 1',
        'job: notice',
        'envelopes:',
        '  - key: dora',
        '    emailSubject: Please sign',
        '    notification:',
        '      reminders: { reminderDelay: 1, reminderFrequency: 1 }',
        '      expirations: { expireAfter: 3, expireWarn: 1 }',
        '    documents: [{ name: offer-letter.pdf, file: docs/offer-letter.pdf }]',
        '    recipients: [{ name: Dora Remote, email: dora@example.com }]',
        '',
      ].join('\n'),
    );
    const out = path.join(dir, 'out');
    const env = sandboxEnv(sandbox);
    expect((await runCli(['run', dir, '--out', out], { env })).code).toBe(0);
    const record = async () =>
      JSON.parse(await readFile(path.join(out, 'notice', 'dora', 'envelope.json'), 'utf8')) as EnvelopeRecord;
    const { envelopeId } = await record();
    expect(await outbox(envelopeId)).toEqual(['envelope-notification']);

    const reminded = await runCli(['remind', dir, '--out', out, '--key', 'dora'], { env });
    expect(reminded.code, reminded.stdout + reminded.stderr).toBe(0);
    expect(reminded.stdout).toContain('reminded notice/dora');
    expect(await outbox(envelopeId)).toEqual(['envelope-notification', 'envelope-notification']);

    // Again the same day (a re-run after a spent budget, or by mistake): the journal says when
    // the last reminder went, and nothing is sent; --force sends it anyway.
    const again = await runCli(['remind', dir, '--out', out, '--key', 'dora'], { env });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toMatch(/skipped notice\/dora: reminded at \S+ \(less than 24 h ago\); --force reminds again/);
    expect(again.stdout).toContain('0 envelope(s) reminded');
    expect(await outbox(envelopeId)).toEqual(['envelope-notification', 'envelope-notification']);
    const forced = await runCli(['remind', dir, '--out', out, '--key', 'dora', '--force'], { env });
    expect(forced.stdout).toContain('reminded notice/dora');
    const notified = ['envelope-notification', 'envelope-notification', 'envelope-notification'];
    expect(await outbox(envelopeId)).toEqual(notified);

    await advanceDays(1);
    expect(await outbox(envelopeId)).toEqual([...notified, 'reminder']);
    await advanceDays(1);
    expect((await outbox(envelopeId)).slice(3)).toEqual(['reminder', 'reminder', 'expiration-warning']);
    await advanceDays(1);
    const sync = await runCli(['sync', dir, '--out', out, '--force'], { env });
    expect(sync.code, sync.stdout + sync.stderr).toBe(0);
    expect(await record()).toMatchObject({ status: 'voided', voidedReason: 'Envelope has expired.' });
    // Nothing more is sent for an expired envelope, and remind has nobody to remind.
    const after = await outbox(envelopeId);
    await advanceDays(5);
    expect(await outbox(envelopeId)).toEqual(after);
    const none = await runCli(['remind', dir, '--out', out], { env });
    expect(none.stdout).toContain('0 envelope(s) reminded');
  }, 60_000);
});
