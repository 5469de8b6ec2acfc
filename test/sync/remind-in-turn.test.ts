import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { EnvelopeRecord } from '../../src/output/records.js';
import { readJournal } from '../../src/state/journal.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { sandboxEnv, tempDir } from '../cli/run-helpers.js';
import { signOverHttp } from '../signing/sign-over-http.js';

// Issue 25: `remind` reminded (reported, journalled) recipients whose routing
// order had not come: DocuSign sent them nothing, and they were then skipped
// for 24 hours as already reminded. Only those whose turn has come are named.

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => sandbox?.close());

interface Message {
  kind: string;
  to: string;
  links: string[];
}
const messages = async (envelopeId: string) =>
  (
    (await (await fetch(`${sandbox.origin}/sandbox/outbox?format=json&envelopeId=${envelopeId}`)).json()) as {
      messages: Message[];
    }
  ).messages;

describe('remind reminds only recipients whose turn has come', () => {
  it('routing order 2 is neither reminded nor journalled before its turn; once it comes, it is reminded the same day', async () => {
    const dir = await tempDir('signrun-remind-turn-');
    await mkdir(path.join(dir, 'docs'));
    await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
    await writeFile(
      path.join(dir, 'turns.yaml'),
      [
        'version: 1',
        'job: turns',
        'envelopes:',
        '  - key: two-orders',
        '    emailSubject: Please sign',
        '    documents: [{ name: offer-letter.pdf, file: docs/offer-letter.pdf }]',
        '    recipients:',
        '      - name: First Signer',
        '        email: first@example.com',
        '        routingOrder: 1',
        '        tabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 100 }]',
        '      - name: Second Signer',
        '        email: second@example.com',
        '        routingOrder: 2',
        '        tabs: [{ documentId: 1, pageNumber: 1, xPosition: 300, yPosition: 100 }]',
        '',
      ].join('\n'),
    );
    const out = path.join(dir, 'out');
    const env = sandboxEnv(sandbox);
    const sent = await runCli(['run', dir, '--out', out], { env });
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    const record = JSON.parse(
      await readFile(path.join(out, 'turns', 'two-orders', 'envelope.json'), 'utf8'),
    ) as EnvelopeRecord;
    const { envelopeId } = record;
    const [first, second] = record.recipients.map((r) => r.recipientId);
    const reminders = async () =>
      (await readJournal(path.join(out, '.signrun'))).records.flatMap((r) =>
        r.kind === 'envelope' && r.step === 'reminded' ? [r.recipients] : [],
      );

    // No sync yet: the routing says only the first signer was notified.
    const early = await runCli(['remind', dir, '--out', out], { env });
    expect(early.code, early.stdout + early.stderr).toBe(0);
    expect(early.stdout).toContain(`reminded turns/two-orders: recipient(s) ${first}\n`);
    expect(await reminders()).toEqual([[first]]);
    expect((await messages(envelopeId)).map((m) => m.to)).toEqual(['first@example.com', 'first@example.com']);

    // The first signer signs: the second one's turn comes (DocuSign notifies them), and a sync records it.
    const link = (await messages(envelopeId))
      .filter((m) => m.to === 'first@example.com')
      .at(-1)!
      .links.find((l) => l.startsWith(`${sandbox.origin}/signing/`))!;
    expect(await signOverHttp(link, 'First Signer')).toBe('signing_complete');
    const synced = await runCli(['sync', dir, '--out', out, '--force'], { env });
    expect(synced.code, synced.stdout + synced.stderr).toBe(0);

    // The same day: the envelope was reminded moments ago, but not the second signer — they are due.
    const later = await runCli(['remind', dir, '--out', out], { env });
    expect(later.code, later.stdout + later.stderr).toBe(0);
    expect(later.stdout).toContain(`reminded turns/two-orders: recipient(s) ${second}\n`);
    expect(await reminders()).toEqual([[first], [second]]);
    const toSecond = (await messages(envelopeId)).filter((m) => m.to === 'second@example.com');
    expect(toSecond).toHaveLength(2); // their turn's notification, then the reminder

    // And then they wait their own interval.
    const again = await runCli(['remind', dir, '--out', out], { env });
    expect(again.stdout).toMatch(/skipped turns\/two-orders: reminded at \S+ \(less than 24 h ago\)/);
    expect(await reminders()).toEqual([[first], [second]]);
  }, 60_000);
});
