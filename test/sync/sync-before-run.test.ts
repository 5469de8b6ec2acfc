import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { sandboxEnv, tempDir } from '../cli/run-helpers.js';

// Stop 51's trial: `sync` of job files whose envelopes were never sent (a
// job just added to the folder a cron job syncs) said "No listing made
// (polling rule)", "not started; run the same command again to continue"
// and, in report.md, "because the run was interrupted": none of it true,
// and running it again changes nothing. It says they are not sent yet, and
// what sends them.

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox?.close();
});

async function jobFolder(): Promise<string> {
  const dir = await tempDir('signrun-sync-before-run-');
  await mkdir(path.join(dir, 'docs'));
  await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
  const envelope = (key: string) => [
    `  - key: ${key}`,
    '    documents: [{ name: offer-letter.pdf, file: docs/offer-letter.pdf }]',
    `    recipients: [{ name: ${key}, email: ${key}@example.com, tabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 100 }] }]`,
  ];
  await writeFile(
    path.join(dir, 'offers.yaml'),
    [
      'version: 1',
      'job: offers',
      'defaults: { emailSubject: Your offer }',
      'envelopes:',
      ...envelope('alice'),
      ...envelope('bruno'),
      '',
    ].join('\n'),
  );
  return dir;
}

describe('sync before anything was sent', () => {
  it('says the envelopes are not sent yet and what sends them, not a polling rule nor an interruption', async () => {
    const dir = await jobFolder();
    const out = path.join(dir, 'out');
    const env = sandboxEnv(sandbox);

    const early = await runCli(['sync', dir, '--out', out], { env });
    expect(early.code, early.stderr).toBe(0);
    expect(early.stdout).toContain('No listing made: no envelope of these job files was sent yet.');
    expect(early.stdout).toContain('2 envelope(s) not sent yet');
    expect(early.stdout).toContain('`npx signrun run <paths>` sends them');
    expect(early.stdout).not.toMatch(/polling rule|run the same command again/);
    const md = await readFile(path.join(out, 'report.md'), 'utf8');
    expect(md).toContain('2 envelope(s) not sent yet');
    expect(md).not.toContain('interrupted');

    // Once sent, the same sync lists, and says nothing of the kind.
    expect((await runCli(['run', dir, '--out', out], { env })).code).toBe(0);
    const later = await runCli(['sync', dir, '--out', out], { env });
    expect(later.code, later.stderr).toBe(0);
    expect(later.stdout).toContain('Listed status changes in 1 call(s)');
    expect(later.stdout).not.toContain('not sent yet');
  });
});
