import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { EnvelopeRecord } from '../../src/output/records.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { sandboxEnv, tempDir } from './run-helpers.js';
import { sandboxApi } from '../signing/sandbox-api.js';

// Issue 26: right after `run`, envelope.json's recipients had no status,
// though docs/outputs.md promised one. Before any sync it is what DocuSign's
// routing implies, and the service agrees.

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => sandbox?.close());

const job = (status: string) =>
  [
    'version: 1',
    `job: routed-${status}`,
    'envelopes:',
    '  - key: contract',
    '    emailSubject: Please sign',
    `    status: ${status}`,
    '    documents:',
    '      - { name: offer-letter.pdf, file: docs/offer-letter.pdf }',
    '    recipients:',
    '      - { name: Ann Lee, email: ann@example.com, routingOrder: 1 }',
    '      - { name: Bob Ray, email: bob@example.com, routingOrder: 2 }',
    '',
  ].join('\n');

describe('envelope.json right after run', () => {
  it('gives each recipient the status the routing implies, as the service has it', async () => {
    for (const status of ['sent', 'created']) {
      const dir = await tempDir('signrun-routed-');
      await mkdir(path.join(dir, 'docs'));
      await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
      await writeFile(path.join(dir, 'routed.yaml'), job(status));
      const run = await runCli(['run', '.', '--out', 'out'], { cwd: dir, env: sandboxEnv(sandbox) });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const record = JSON.parse(
        await readFile(path.join(dir, `out/routed-${status}/contract/envelope.json`), 'utf8'),
      ) as EnvelopeRecord;
      const expected = status === 'sent' ? ['sent', 'created'] : ['created', 'created'];
      expect(record.recipients.map((r) => r.status)).toEqual(expected);
      const service = await sandboxApi(sandbox.rootUrl).recipientStatuses(record.envelopeId);
      expect(record.recipients.map((r) => service[r.recipientId])).toEqual(expected);
    }
  });
});
