import { spawn } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { binPath, repoRoot, runCli } from '../helpers/run-cli.js';
import { tempPdf, tool } from '../signing/pdf-tools.js';
import { readReport, sandboxEnv, tempDir } from './run-helpers.js';

// Issue 39: a Word letter goes as a draft, its docGenFormFields set, then
// sent. A run killed (SIGKILL) between the draft and the send, at either of
// two points, and run again sends exactly one envelope for the row, whose
// letter holds the row's values.
//
// The kill lands where the test says, never by timing: the sandbox's
// latency hook (`delay`, a barrier here) holds every request that arrives
// once the service is in the state named (the draft made; the letter
// generated), so the killed run can go no further.

type Hold = (db: RunningSandbox['app']['sandbox']['db']) => boolean;
let sandbox: RunningSandbox;
let hold: Hold | undefined;
let held: Array<() => void> = [];
let heldChanged: (() => void) | undefined;

beforeAll(async () => {
  sandbox = await startSandbox(
    { port: 0, quiet: true, latencyMs: 1 },
    {
      delay: () => {
        if (!hold?.(sandbox.app.sandbox.db)) return Promise.resolve();
        // Never processed: the killed run's request fails once released (its socket is gone anyway).
        return new Promise<void>((_resolve, reject) => {
          held.push(() => reject(new Error('held request of a killed run')));
          heldChanged?.();
        });
      },
    },
  );
});
afterAll(async () => {
  for (const release of held) release();
  await sandbox?.close();
});

/** The example's job over its first CSV row only, in a fresh folder. */
async function oneRow(): Promise<string> {
  const dir = await tempDir('signrun-word-killed-');
  const examples = path.join(repoRoot, 'examples');
  await cp(path.join(examples, 'docs/word-offer-letter.docx'), path.join(dir, 'docs/word-offer-letter.docx'));
  await cp(path.join(examples, '.env'), path.join(dir, '.env'));
  await cp(path.join(examples, 'word-offer-letters.yaml'), path.join(dir, 'word-offer-letters.yaml'));
  const csv = (await readFile(path.join(examples, 'data/word-offers.csv'), 'utf8')).split('\n');
  await cp(path.join(examples, 'data/word-offers.csv'), path.join(dir, 'data/word-offers.csv'));
  await writeFile(path.join(dir, 'data/word-offers.csv'), `${csv[0]}\n${csv[1]}\n`);
  return dir;
}

const identity = 'word-offer-letters-2027/word-offer-W3001';

/** The envelopes of the identity on the sandbox, deleted drafts aside. */
function envelopesOfIdentity(): Array<{ id: string; status: string }> {
  return sandbox.app.sandbox.db
    .prepare(
      `SELECT e.id AS id, e.status AS status FROM envelopes e JOIN envelope_custom_fields f ON f.envelope_id = e.id
       WHERE f.name = 'signrun' AND f.value = ? AND e.status <> 'deleted'`,
    )
    .all(identity) as Array<{ id: string; status: string }>;
}

/** Runs the CLI in a child process, SIGKILLed once a request is held (the service in the state `until` names). */
async function killedRun(dir: string, until: Hold): Promise<void> {
  held = [];
  const child = spawn(process.execPath, [binPath, 'run', '.', '--out', 'out', '--concurrency', '1'], {
    cwd: dir,
    env: { ...(process.env as Record<string, string>), ...sandboxEnv(sandbox), NO_COLOR: '1' },
    stdio: 'ignore',
  });
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  hold = until;
  await new Promise<void>((resolve) => {
    heldChanged = () => resolve();
    if (held.length > 0) resolve();
  });
  child.kill('SIGKILL');
  await closed;
  hold = undefined;
  for (const release of held) release();
}

/** The identity's live draft exists (its creation committed). */
const draftMade: Hold = () => envelopesOfIdentity().length > 0;
/** The identity's live draft has its letter generated (PUT docGenFormFields committed). */
const letterGenerated: Hold = (db) =>
  envelopesOfIdentity().some(
    (e) =>
      db.prepare('SELECT 1 FROM envelope_docgen_documents WHERE envelope_id = ? AND generated = 1').get(e.id) !==
      undefined,
  );

describe('a Word letter whose run is killed between the draft and the send', () => {
  // The values are put once after a kill at the draft; after a kill once the letter was made, again only
  // if the killed run's journal had not kept its `docgen` record (written behind the call, not awaited).
  for (const [point, until, puts] of [
    ['once the draft is made', draftMade, [1]],
    ['once its letter is generated', letterGenerated, [0, 1]],
  ] as const) {
    it(`${point}: the next run sends the one envelope, with the row's letter`, async () => {
      // Each case its own identity's history: the sandbox is shared, so the earlier case's envelope is voided away.
      for (const e of envelopesOfIdentity())
        sandbox.app.sandbox.db.prepare("UPDATE envelopes SET status = 'deleted' WHERE id = ?").run(e.id);
      const dir = await oneRow();
      await killedRun(dir, until);
      const left = envelopesOfIdentity();
      expect(left).toEqual([{ id: expect.any(String), status: 'created' }]);

      const rerun = await runCli(['run', '.', '--out', 'out'], {
        cwd: dir,
        env: sandboxEnv(sandbox),
        timeoutMs: 120_000,
      });
      expect(rerun.code, rerun.stderr + rerun.stdout).toBe(0);
      const report = await readReport(path.join(dir, 'out'));
      expect(report.envelopes).toMatchObject([{ outcome: 'succeeded', envelopeId: left[0]!.id, status: 'sent' }]);
      expect(report.api.byOperation['createEnvelope'] ?? 0).toBe(0);
      expect(puts).toContain(report.api.byOperation['updateDocGenFormFields'] ?? 0);
      expect(report.api.byOperation['sendDraft']).toBe(1);
      expect(envelopesOfIdentity()).toEqual([{ id: left[0]!.id, status: 'sent' }]);

      const document = sandbox.app.sandbox.envelopes.documents(left[0]!.id)[0]!;
      const text = (await tool('pdftotext', ['-layout', tempPdf(sandbox.app.sandbox.blobs.get(document.sha256)), '-']))
        .out;
      expect(text).toContain('Dear Amélie Laurent,');
      expect(text).toContain('Your annual salary is EUR 72,000.');
      expect(text).not.toContain('{{');
    }, 180_000);
  }
});
