import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { sandboxEnv, tempDir } from '../cli/run-helpers.js';

// DocuSign's polling rule: a status listing within 15 minutes of the last one
// is not made. `sync` warns about it; `run` (which syncs first) says nothing,
// and chooses so by the warning's kind, not by its wording.

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, pollingRule: 'docusign' });
});
afterAll(async () => sandbox?.close());

describe('the warning that the last status listing is too recent', () => {
  it('is shown by sync and left out by run', async () => {
    const dir = await tempDir('signrun-listing-');
    await mkdir(path.join(dir, 'docs'));
    await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
    await writeFile(
      path.join(dir, 'offers.yaml'),
      [
        'version: 1',
        'job: offers',
        'envelopes:',
        '  - key: a',
        '    emailSubject: Please sign',
        '    documents:',
        '      - { name: offer-letter.pdf, file: docs/offer-letter.pdf }',
        '    recipients:',
        '      - { name: Person A, email: a@example.com }',
        '',
      ].join('\n'),
    );
    const out = path.join(dir, 'out');
    const env = sandboxEnv(sandbox);
    // Sends; then lists (the first listing); then would list again too soon.
    for (let i = 0; i < 2; i += 1) expect((await runCli(['run', dir, '--out', out], { env })).code).toBe(0);
    const again = await runCli(['run', dir, '--out', out], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('the last status listing');
    const synced = await runCli(['sync', dir, '--out', out], { env });
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stderr).toContain('warning: the last status listing');
  });
});
