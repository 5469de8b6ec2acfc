import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCollected } from '../helpers/collected-run.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import type { Auth } from '../../src/client/auth.js';
import { acquireStateLock } from '../../src/state/state-lock.js';
import { readJournal } from '../../src/state/journal.js';
import type { SignrunError } from '../../src/errors/signrun-error.js';
import { envelopeFixture } from './fixtures.js';

let sandbox: RunningSandbox;
const auth: Auth = sandboxSeedAuth();
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

const job = (keys: string[]) => ({
  file: '/jobs/runner-test.yaml',
  job: 'runner-test',
  envelopes: keys.map((k) => envelopeFixture(k)),
  accounts: [],
});
const target = () => ({ rootUrl: sandbox.rootUrl, sandbox: false, auth });

describe('state folder: lock and journal', () => {
  it('journals intent, creation and completion; a re-run adopts from the journal even without envelope.json', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-state-'));
    const stateDir = path.join(outDir, '.signrun');
    const first = await runCollected({ jobs: [job(['j1', 'j2'])], target: target(), outDir, stateDir });
    expect(first.envelopes.map((e) => e.outcome)).toEqual(['succeeded', 'succeeded']);
    const journal = await readJournal(stateDir);
    const steps = journal.records.filter((r) => r.id === 'runner-test/j1').map((r) => r.step);
    expect(steps).toEqual(['create-intent', 'draft', 'created', 'sent', 'view', 'view', 'done']);

    await rm(path.join(outDir, 'runner-test/j1/envelope.json'));
    const second = await runCollected({ jobs: [job(['j1', 'j2'])], target: target(), outDir, stateDir });
    expect(second.api.byOperation['createEnvelope']).toBeUndefined();
    expect(second.envelopes.map((e) => [e.outcome, e.adopted, e.envelopeId])).toEqual(
      first.envelopes.map((e) => ['succeeded', true, e.envelopeId]),
    );
  });

  it('a state folder held by a live run: SR_STATE_LOCKED before anything is sent', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-state-'));
    const stateDir = path.join(outDir, '.signrun');
    const held = await acquireStateLock(stateDir, { command: 'signrun run other-jobs' });
    const events: string[] = [];
    const error = (await runCollected({
      jobs: [job(['locked'])],
      target: target(),
      outDir,
      stateDir,
      onEvent: (e) => events.push(e.type),
    }).catch((e: unknown) => e)) as SignrunError;
    await held.lock.release();
    expect(error.code).toBe('SR_STATE_LOCKED');
    expect(error.exitCode).toBe(2);
    expect(events).not.toContain('request');
    // Released: the next run goes.
    const after = await runCollected({ jobs: [job(['locked'])], target: target(), outDir, stateDir });
    expect(after.envelopes[0]?.outcome).toBe('succeeded');
  });

  it('state folder and outputs lost: the re-run looks each identity up before creating and adopts, nothing is sent twice', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-state-'));
    const stateDir = path.join(outDir, '.signrun');
    const first = await runCollected({ jobs: [job(['lost1', 'lost2'])], target: target(), outDir, stateDir });
    expect(first.api.byOperation['createEnvelope']).toBe(2);
    // One listing of the job for the plan, then one or two confirming the drafts (batched, not one per envelope).
    expect(first.api.byOperation['listEnvelopes']).toBeGreaterThanOrEqual(2);
    expect(first.api.byOperation['listEnvelopes']).toBeLessThanOrEqual(3);
    await rm(outDir, { recursive: true });
    const second = await runCollected({ jobs: [job(['lost1', 'lost2'])], target: target(), outDir, stateDir });
    expect(second.api.byOperation['createEnvelope']).toBeUndefined();
    expect(second.envelopes.map((e) => [e.outcome, e.adopted, e.envelopeId])).toEqual(
      first.envelopes.map((e) => ['succeeded', true, e.envelopeId]),
    );
    // Known to the journal now: only the plan's one listing of the job the third time.
    const third = await runCollected({ jobs: [job(['lost1', 'lost2'])], target: target(), outDir, stateDir });
    expect(third.api.byOperation['listEnvelopes']).toBe(1);
    expect(third.api.byOperation['createEnvelope']).toBeUndefined();
  });
});
