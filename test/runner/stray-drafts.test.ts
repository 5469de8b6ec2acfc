import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCollected } from '../helpers/collected-run.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import { envelopeDefinitionOf } from '../../src/runner/envelopes/envelope-definition.js';
import { envelopeFixture } from './fixtures.js';

/**
 * A draft of an identity the journal already knows as sent: on DocuSign, a
 * create that timed out and committed after the listing that confirmed its
 * envelope. The next run's listing shows it; the run deletes it (it is
 * never sent) and leaves the sent envelope alone.
 */
let sandbox: RunningSandbox;
const auth = sandboxSeedAuth();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

describe('a stray draft of an envelope already sent', () => {
  it('is deleted by the next run, and the sent envelope is kept', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-stray-'));
    const envelope = envelopeFixture('stray');
    const options = {
      jobs: [{ file: '/jobs/runner-test.yaml', job: 'runner-test', envelopes: [envelope], accounts: [] }],
      target: { rootUrl: sandbox.rootUrl, sandbox: false, auth },
      outDir,
      stateDir: path.join(outDir, '.signrun'),
      concurrency: 2,
    };
    const first = await runCollected(options);
    const sentId = first.envelopes[0]?.envelopeId;
    expect(first.envelopes[0]?.outcome).toBe('succeeded');

    const client = EsignatureClient.create({ rootUrl: sandbox.rootUrl, auth });
    try {
      const account = await client.login();
      const definition = await envelopeDefinitionOf(envelope);
      definition.status = 'created';
      const stray = await account.createEnvelope(definition);

      const second = await runCollected({ ...options, jobs: [{ ...options.jobs[0]!, envelopes: [envelope] }] });
      expect(second.envelopes[0]).toMatchObject({ outcome: 'succeeded', envelopeId: sentId });
      expect(second.api.byOperation['deleteDrafts']).toBe(1);
      expect(second.api.byOperation['createEnvelope'] ?? 0).toBe(0);
      expect(second.api.byOperation['sendDraft'] ?? 0).toBe(0);

      const listed = await account.listEnvelopeStatusChanges({ fromDate: '2000-01-01T00:00:00Z' });
      const status = (id: string | undefined) => listed.envelopes?.find((e) => e.envelopeId === id)?.status;
      expect(status(stray.envelopeId)).toBe('deleted');
      expect(status(sentId)).toBe('sent');

      // Nothing is left to clean: a third run deletes nothing.
      const third = await runCollected({ ...options, jobs: [{ ...options.jobs[0]!, envelopes: [envelope] }] });
      expect(third.api.byOperation['deleteDrafts'] ?? 0).toBe(0);
    } finally {
      client.close();
    }
  });
});
