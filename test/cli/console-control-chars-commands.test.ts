import { mkdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { fanOutJob, sandboxEnv, tempDir } from './run-helpers.js';

// Issue 36: no command prints a control character from input data raw —
// whatever line carries it. Each command here prints a value that holds ESC
// and BEL sequences (clear the screen, retitle the window): a template's
// name and subject from the service (import, plan), a folder's name on disk
// (preview, sync), a recipient's name from a CSV (run, status, validate:
// console-control-chars.test.ts). Every one must come out escaped.

// eslint-disable-next-line no-control-regex -- what the test looks for is a raw control character
const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const hostile = '\u001b[2J\u001b]0;owned\u0007';
const escaped = '\\x1b[2J\\x1b]0;owned\\x07';

let sandbox: RunningSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  env = sandboxEnv(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});

/** The value is shown, escaped (`\x1b` on the console; plan's JSON-quoted values say `\u001b`), never raw. */
function expectEscaped(result: { stdout: string; stderr: string }) {
  expect(
    [escaped, JSON.stringify(hostile).slice(1, -1)].some((shown) => (result.stdout + result.stderr).includes(shown)),
  ).toBe(true);
  expect(result.stdout).not.toMatch(raw);
  expect(result.stderr).not.toMatch(raw);
}

describe('values holding control characters, in every command’s output (issue 36)', () => {
  it('import template prints a service template name escaped, and plan the service’s changed subject', async () => {
    const client = EsignatureClient.create({ rootUrl: sandbox.rootUrl, auth: sandboxSeedAuth() });
    const account = await client.login();
    const documentBase64 = (await readFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'))).toString('base64');
    const definition = {
      name: `NDA ${hostile}`,
      emailSubject: 'Please sign the NDA',
      documents: [{ documentId: '1', name: 'nda.pdf', fileExtension: 'pdf', documentBase64 }],
      recipients: { signers: [{ recipientId: '1', roleName: 'party', routingOrder: '1' }] },
      customFields: { textCustomFields: [] },
    };
    const { templateId } = await account.createTemplate(definition);
    const dir = await tempDir('signrun-hostile-import-');
    const imported = await runCli(['import', 'template', templateId, '--out', 'nda.yaml'], { cwd: dir, env });
    expect(imported.code, imported.stderr).toBe(0);
    expectEscaped(imported);

    // Changed on the service behind signrun's back: plan shows the difference, the service's value escaped.
    await account.updateTemplate(templateId, { ...definition, emailSubject: `Sign ${hostile}` });
    const plan = await runCli(['plan', 'nda.yaml'], { cwd: dir, env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/update template/);
    expectEscaped(plan);
  });

  it('preview and sync print a folder whose name holds control characters escaped', async () => {
    const made = await fanOutJob(1, 'hostile-folder');
    const dir = path.join(await tempDir('signrun-hostile-folder-'), `job ${hostile}`);
    await rename(made, dir);
    const preview = await runCli(['preview', '.'], { cwd: dir });
    expect(preview.code, preview.stderr).toBe(0);
    expectEscaped(preview);

    const out = `out ${hostile}`;
    await mkdir(path.join(dir, out));
    const run = await runCli(['run', '.', '--out', out, '--signing-urls', 'on-demand'], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    expectEscaped(run);
    const sync = await runCli(['sync', '.', '--out', out], { cwd: dir, env });
    expect(sync.code, sync.stderr).toBe(0);
    expectEscaped(sync);
  });
});
