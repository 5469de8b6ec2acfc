import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/run-cli.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, documentEnvelope, makePdf, rawRequest } from './helpers/api.js';
import { spawnServe, type ServeProcess } from './helpers/serve-process.js';

// `signrun serve` as a program: start-up errors with their codes, and a
// shutdown that lets the request in flight finish.
const processes: ServeProcess[] = [];
afterEach(() => {
  for (const p of processes.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
});

/** A sandbox holding a port, shared by the tests of a port in use: the port is all they need of it (issue 38). */
let busy: RunningSandbox | undefined;
async function portInUse(): Promise<string> {
  busy ??= await startSandbox({ port: 0 });
  return new URL(busy.origin).port;
}
afterAll(async () => {
  await busy?.close();
});

describe('signrun serve', () => {
  it('refuses a seed that does not match the schema: exit 2, SR_SANDBOX_SEED with file and line', async () => {
    const seed = fileURLToPath(new URL('./fixtures/bad-seed.yaml', import.meta.url));
    const r = await runCli(['serve', '--port', '0', '--seed', seed]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SR_SANDBOX_SEED');
    expect(r.stderr).toContain('bad-seed.yaml:5');
    expect(r.stdout).not.toContain('sandbox listening');
  });

  it('refuses a port in use: exit 2, SR_SANDBOX_START', async () => {
    const port = await portInUse();
    const r = await runCli(['serve', '--port', port]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SR_SANDBOX_START');
  });

  it('leaves no --data folder behind when it cannot start, and keeps one that was there', async () => {
    const port = await portInUse();
    const parent = mkdtempSync(join(tmpdir(), 'signrun-serve-'));
    try {
      const fresh = join(parent, 'new', 'data');
      const r = await runCli(['serve', '--port', port, '--data', fresh]);
      expect(r.code).toBe(2);
      expect(existsSync(join(parent, 'new'))).toBe(false);
      const kept = join(parent, 'kept');
      mkdirSync(kept);
      writeFileSync(join(kept, 'note.txt'), 'mine');
      expect((await runCli(['serve', '--port', port, '--data', kept])).code).toBe(2);
      expect(readFileSync(join(kept, 'note.txt'), 'utf8')).toBe('mine');
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  // One spawned serve for both (issue 38; they were a test and a `serve` each): its public name, then
  // SIGTERM with a request in flight, sent to it under that name.
  it('answers its public name and hands out addresses under it (other names get 421); on SIGTERM, finishes the request in flight (201) before exiting 0', async () => {
    const publicHost = 'sandbox.internal:8080';
    const serve = await spawnServe(['--public-url', `http://${publicHost}`]);
    processes.push(serve);
    const loginAs = (host: string) =>
      rawRequest(`${serve.rootUrl}/login_information`, 'GET', { host, ...authHeader() }, '');
    const own = await loginAs(publicHost);
    expect(own.status, own.body).toBe(200);
    const account = (JSON.parse(own.body) as { loginAccounts: { baseUrl: string; accountId: string }[] })
      .loginAccounts[0];
    expect(account?.baseUrl).toMatch(/^http:\/\/sandbox\.internal:8080\/restapi\/v2\/accounts\//);
    expect((await loginAs('evil.example')).status).toBe(421);
    expect(serve.output()).toContain('public address http://sandbox.internal:8080');

    const body = Buffer.from(JSON.stringify(documentEnvelope(await makePdf(1))));
    // `Expect: 100-continue`: the server answers "continue" once it holds the
    // request's headers, so the request is surely in flight when SIGTERM
    // comes (no fixed wait); its body is sent after the signal.
    const request = httpRequest(`${serve.rootUrl}/accounts/${account!.accountId}/envelopes`, {
      method: 'POST',
      headers: {
        ...authHeader(),
        host: publicHost,
        'content-type': 'application/json',
        'content-length': String(body.length),
        expect: '100-continue',
      },
    });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      request.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (d: string) => (text += d));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      });
      request.on('error', reject);
    });
    const received = new Promise((resolve) => request.once('continue', resolve));
    request.flushHeaders();
    await received;
    serve.child.kill('SIGTERM');
    request.end(body);
    const { status, text } = await answer;
    expect(status, text).toBe(201);
    expect(JSON.parse(text)).toHaveProperty('envelopeId');
    expect((await serve.exited).code).toBe(0);
    // Request log lines name route patterns, never tokens or ids.
    expect(serve.output()).toContain('POST /restapi/v2/accounts/:accountId/envelopes 201');
  });
});

describe('signrun serve --public-url', () => {
  it('refuses a --public-url that is not an http(s) URL: exit 2, SR_SANDBOX_PUBLIC_URL', async () => {
    const r = await runCli(['serve', '--port', '0', '--public-url', 'sandbox.internal:8080']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SR_SANDBOX_PUBLIC_URL');
    expect(r.stdout).not.toContain('sandbox listening');
  });
});

describe('data folder problems', () => {
  it('a --data path under a file: exit 2, SR_SANDBOX_START', async () => {
    const file = fileURLToPath(new URL('./fixtures/seed.yaml', import.meta.url));
    const r = await runCli(['serve', '--port', '0', '--data', `${file}/sub`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SR_SANDBOX_START');
  });

  it('startSandbox on a data folder that does not exist: SR_SANDBOX_START', async () => {
    const error = await startSandbox({ port: 0, dataDir: '/nonexistent/signrun/data' }).then(
      () => undefined,
      (e: unknown) => e as { code?: string },
    );
    expect(error?.code).toBe('SR_SANDBOX_START');
  });
});
