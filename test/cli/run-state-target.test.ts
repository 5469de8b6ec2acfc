import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, tempDir } from './run-helpers.js';

const auth = JSON.stringify({
  Username: 'sandbox@signrun.test',
  Password: 'sandbox-password',
  IntegratorKey: 'sandbox-integrator-key',
});

/** Envelopes the sandbox holds, asked through its own API (not the runner's report). */
async function envelopeCount(sandbox: RunningSandbox): Promise<number> {
  const headers = { 'X-DocuSign-Authentication': auth };
  const login = (await (await fetch(`${sandbox.rootUrl}/login_information`, { headers })).json()) as {
    loginAccounts: Array<{ baseUrl: string }>;
  };
  const listing = await fetch(`${login.loginAccounts[0]!.baseUrl}/envelopes?from_date=2000-01-01`, { headers });
  const body = (await listing.json()) as { envelopes?: unknown[] };
  return body.envelopes?.length ?? 0;
}

describe('a state folder belongs to one service', () => {
  let first: RunningSandbox;
  let second: RunningSandbox;
  beforeAll(async () => {
    first = await startSandbox({ port: 0, quiet: true });
    second = await startSandbox({ port: 0, quiet: true });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('refuses to run against another service with the same --out, before sending anything', async () => {
    const out = await tempDir('signrun-state-target-');
    const job = 'examples/embedded-signing.yaml';
    const ok = await runCli(['run', job, '--out', out], { env: sandboxEnv(first) });
    expect(ok.code, ok.stderr).toBe(0);
    const recorded = JSON.parse(await readFile(path.join(out, '.signrun', 'target.json'), 'utf8')) as {
      rootUrl: string;
    };
    expect(recorded.rootUrl).toBe(first.rootUrl.toLowerCase());

    const refused = await runCli(['run', job, '--out', out], { env: sandboxEnv(second) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('SR_STATE_OTHER_TARGET');
    // The hint names the service the folder's envelopes are on, the setting a new shell most often lacks.
    expect(refused.stderr).toContain(`DOCUSIGN_ROOT_URL=${first.rootUrl.toLowerCase()}`);

    // sync with no DOCUSIGN_ROOT_URL (the in-process sandbox): not "nothing to sync", but where they are.
    const unpointed = await runCli(['sync', job, '--out', out], { env: {} });
    expect(unpointed.code).toBe(2);
    expect(unpointed.stdout).not.toContain('nothing to sync');
    expect(unpointed.stderr).toContain('SR_STATE_OTHER_TARGET');
    expect(unpointed.stderr).toContain(`DOCUSIGN_ROOT_URL=${first.rootUrl.toLowerCase()}`);
    expect(await envelopeCount(second)).toBe(0);

    // plan reads the same journal, so it refuses too (and writes nothing).
    const planned = await runCli(['plan', job, '--out', out], { env: sandboxEnv(second) });
    expect(planned.code).toBe(2);
    expect(planned.stderr).toContain('SR_STATE_OTHER_TARGET');

    // The same service again is fine: the re-run adopts and creates nothing new.
    const again = await runCli(['run', job, '--out', out], { env: sandboxEnv(first) });
    expect(again.code, again.stderr).toBe(0);
    expect(await envelopeCount(first)).toBe(1);
  });
});
