import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { sandboxEnv, tempDir } from '../cli/run-helpers.js';
import { spawnServe, type ServeProcess } from '../sandbox/helpers/serve-process.js';

// Issue 26: the examples sent signers back to http://127.0.0.1:8080 whatever
// port the sandbox served on. Their returnUrl is now SIGNRUN_RETURN_URL
// (examples/.env: the default port's page, the environment wins), and
// `serve` on another port prints the value to export.

let sandbox: RunningSandbox;
let serve: ServeProcess | undefined;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  serve?.child.kill('SIGTERM');
  if (serve) await serve.exited;
  await sandbox?.close();
});

const returnUrls = () =>
  (sandbox.app.sandbox.db.prepare('SELECT DISTINCT return_url FROM view_tokens').all() as { return_url: string }[]).map(
    (r) => r.return_url,
  );

/** The process's output once it holds `text` (the lines after the listening line come in their own time). */
function outputWith(process: ServeProcess, text: string): Promise<string> {
  return new Promise((resolve) => {
    const check = () => {
      if (!process.output().includes(text)) return;
      process.child.stdout?.off('data', check);
      resolve(process.output());
    };
    process.child.stdout?.on('data', check);
    check();
  });
}

describe("the examples' returnUrl", () => {
  it('is the sandbox page `serve` names, from the environment', async () => {
    serve = await spawnServe([]);
    const donePage = `${serve.origin}/signing/done`;
    expect(serve.origin).not.toBe('http://127.0.0.1:8080');
    expect(await outputWith(serve, 'signers return to')).toContain(`export SIGNRUN_RETURN_URL=${donePage}`);

    const out = await tempDir('signrun-return-');
    const run = await runCli(['run', path.join(repoRoot, 'examples/embedded-signing.yaml'), '--out', out], {
      env: { ...sandboxEnv(sandbox), SIGNRUN_RETURN_URL: donePage },
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(returnUrls()).toEqual([donePage]);
  });

  it('defaults to the default port’s page (examples/.env)', async () => {
    const out = await tempDir('signrun-return-');
    const run = await runCli(['run', path.join(repoRoot, 'examples/template-contract.yaml'), '--out', out], {
      env: { ...sandboxEnv(sandbox), SIGNRUN_RETURN_URL: undefined },
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(returnUrls()).toContain('http://127.0.0.1:8080/signing/done');
  });
});
