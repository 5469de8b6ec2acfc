import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { defaultMinListingIntervalMs } from '../../src/sync/polling-rule.js';
import { serviceListingIntervalMs } from '../../src/sync/service-polling-rule.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { sandboxEnv, tempDir } from '../cli/run-helpers.js';

// Issue 26: the README's walk-through (run, sign, then sync) against
// `signrun serve` did nothing without --force, because sync kept DocuSign's
// 15-minute polling rule against a sandbox that has no such rule. The
// sandbox now says which rule it keeps (GET /sandbox/health), and sync keeps
// DocuSign's only where it applies.

let plain: RunningSandbox;
let strict: RunningSandbox;
beforeAll(async () => {
  [plain, strict] = await Promise.all([
    startSandbox({ port: 0, quiet: true }),
    startSandbox({ port: 0, quiet: true, pollingRule: 'docusign' }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), strict?.close()]);
});

async function jobFolder(): Promise<string> {
  const dir = await tempDir('signrun-polling-');
  await mkdir(path.join(dir, 'docs'));
  await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
  await writeFile(
    path.join(dir, 'offers.yaml'),
    [
      'version: 1',
      'job: polling',
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
  return dir;
}

/** run, then sync twice in a row (no --force): what the second sync did. */
async function secondSync(sandbox: RunningSandbox): Promise<string> {
  const dir = await jobFolder();
  const env = sandboxEnv(sandbox);
  expect((await runCli(['run', '.', '--out', 'out'], { cwd: dir, env })).code).toBe(0);
  expect((await runCli(['sync', '.', '--out', 'out'], { cwd: dir, env })).code).toBe(0);
  const second = await runCli(['sync', '.', '--out', 'out'], { cwd: dir, env });
  expect(second.code, second.stderr).toBe(0);
  return second.stdout;
}

describe("sync and the sandbox's polling rule", () => {
  it('against `signrun serve` (no rule by default), every sync lists, without --force', async () => {
    const stdout = await secondSync(plain);
    expect(stdout).toMatch(/Listed status changes in \d+ call/);
    expect(stdout).not.toContain('No listing made');
  });

  it("against a sandbox started with --polling-rule docusign, DocuSign's 15 minutes are kept", async () => {
    const stdout = await secondSync(strict);
    expect(stdout).toContain('No listing made (polling rule)');
  });

  it("only a loopback address is asked: any other service keeps DocuSign's rule, with no call", async () => {
    const never = (() => {
      throw new Error('no call may be made');
    }) as unknown as typeof fetch;
    expect(
      await serviceListingIntervalMs({ rootUrl: 'https://demo.docusign.net/restapi/v2.1', sandbox: false }, never),
    ).toBe(defaultMinListingIntervalMs);
    expect(await serviceListingIntervalMs({ rootUrl: 'http://127.0.0.1:1/restapi/v2.1', sandbox: true }, never)).toBe(
      0,
    );
    expect(await serviceListingIntervalMs({ rootUrl: plain.rootUrl, sandbox: false })).toBe(0);
    expect(await serviceListingIntervalMs({ rootUrl: strict.rootUrl, sandbox: false })).toBe(
      defaultMinListingIntervalMs,
    );
  });
});
