import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { readReport, sandboxEnv, tempDir, validateReport } from '../cli/run-helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

describe('a run that stops before sending anything still writes its reports, saying why', () => {
  it('login refused: report.json, report.md, junit.xml and report.html name the code on every item', async () => {
    const outDir = await tempDir('signrun-stopped-');
    const wrong = 'not-the-password-123';
    const ran = await runCli(['run', 'examples/template-contract.yaml', '--out', outDir], {
      env: { ...sandboxEnv(sandbox), DOCUSIGN_PASSWORD: wrong },
    });
    expect(ran.code).not.toBe(0);
    const report = await readReport(outDir);
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.totals.envelopes.failed).toBe(report.totals.envelopes.total);
    expect(report.envelopes.length).toBeGreaterThan(0);
    const code = report.envelopes[0]?.error?.code ?? '';
    expect(code).toMatch(/^SR_/);
    expect(ran.stderr).toContain(code);
    expect(report.envelopes[0]?.error).toMatchObject({ step: 'login' });
    expect(report.envelopes[0]?.error?.message).toMatch(/^not sent: the run stopped before sending anything/);
    const md = await readFile(path.join(outDir, 'report.md'), 'utf8');
    const junit = await readFile(path.join(outDir, 'junit.xml'), 'utf8');
    const html = await readFile(path.join(outDir, 'report.html'), 'utf8');
    expect(md).toContain(code);
    expect(md).toContain('stopped before sending anything');
    expect(junit).toMatch(new RegExp(`<failure type="${code}"`));
    expect(html).toContain(code);
    for (const text of [JSON.stringify(report), md, junit, html]) expect(text).not.toContain(wrong);
  });

  it('credentials missing for a remote service: the reports say so too', async () => {
    const outDir = await tempDir('signrun-stopped-');
    const ran = await runCli(['run', 'examples/template-contract.yaml', '--out', outDir], {
      env: { DOCUSIGN_ROOT_URL: 'https://demo.docusign.invalid/restapi/v2', DOCUSIGN_USERNAME: 'someone@example.com' },
    });
    expect(ran.code).toBe(2);
    const report = await readReport(outDir);
    expect(report.envelopes[0]?.error).toMatchObject({ code: 'SR_CREDENTIALS_MISSING', step: 'configuration' });
    expect(await readFile(path.join(outDir, 'junit.xml'), 'utf8')).toContain('SR_CREDENTIALS_MISSING');
  });
});
