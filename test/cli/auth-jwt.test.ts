import { generateKeyPairSync } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { readdirSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli, spawnCli, type CliResult } from '../helpers/run-cli.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { Clock } from '../../src/sandbox/platform/clock.js';
import { defaultSeedIds } from '../../src/sandbox/seed/default-seed.js';
import { knownSecrets, tempDir } from './run-helpers.js';
import { seedUserHeaders } from '../sandbox/helpers/jwt.js';
import { workDelayMs } from '../organization/work-delay.js';
import { examplesCopy } from '../helpers/examples-copy.js';
import { createActiveSubsidiary } from '../sandbox/helpers/accounts.js';

// signrun with DocuSign's JWT grant against a sandbox started here (the
// account server on the same host and port): the real CLI, over real HTTP.
// The sandbox's clock is the test's, so expiry and skew need no sleeping.

// The offset, not a time read once at load: a frozen clock falls behind the
// real one the assertions are issued by, and a file that runs for over a
// minute on a busy machine was refused as issued in the future.
let offsetMs = 0;
const clock: Clock = { now: () => Date.now() + offsetMs };
/** One line per request the sandbox served: `METHOD /route/pattern STATUS …` (never a token). */
const requests: string[] = [];
/** Called after each logged request (the mid-run expiry test moves the clock from here). */
let onRequest: ((line: string) => void) | undefined;
let sandbox: RunningSandbox;
let dir: string;
let keyFile: string;
let privateKey: string;

/** A key pair registered on an integration key with the sandbox's rsa-keys endpoint (as DocuSign's settings page does). */
async function registeredKey(
  origin: string,
  integrationKey: string,
  user?: { username: string; password: string },
): Promise<string> {
  const response = await fetch(`${origin}/sandbox/integrations/${encodeURIComponent(integrationKey)}/rsa-keys`, {
    method: 'POST',
    headers: seedUserHeaders(integrationKey, user),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { privateKey: string }).privateKey;
}

beforeAll(async () => {
  sandbox = await startSandbox(
    {
      port: 0,
      // The examples' organisation: each Admin work Pending at the first look, done at the second (test/organization/work-delay.ts).
      workDelayMs,
      log: (line) => {
        requests.push(line);
        onRequest?.(line);
      },
    },
    { clock },
  );
  dir = await tempDir('signrun-auth-jwt-');
  privateKey = await registeredKey(sandbox.origin, 'sandbox-integrator-key');
  keyFile = path.join(dir, 'docusign.key');
  await writeFile(keyFile, privateKey, { mode: 0o600 });
});
afterAll(async () => {
  await sandbox.close();
});

/** The JWT grant's variables (DESIGN.md), for the seed user who consented to sandbox-integrator-key. */
function jwtEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    DOCUSIGN_INTEGRATOR_KEY: 'sandbox-integrator-key',
    DOCUSIGN_USER_ID: defaultSeedIds.userId,
    DOCUSIGN_PRIVATE_KEY_FILE: keyFile,
    DOCUSIGN_OAUTH_BASE: sandbox.origin,
    DOCUSIGN_DISTRIBUTOR_CODE: 'SANDBOX-DISTRIBUTOR',
    DOCUSIGN_DISTRIBUTOR_PASSWORD: 'sandbox-distributor-password',
    ...overrides,
  };
}

/** The requests logged while `action` ran. */
async function logged<T>(action: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const from = requests.length;
  const result = await action();
  return { result, lines: requests.slice(from) };
}

/** {@link examplesCopy} with only the named example jobs left in it. */
function examplesOf(rows: number, jobs: string[]): string {
  const copy = examplesCopy(rows);
  for (const name of readdirSync(copy).filter((n) => n.endsWith('.yaml')))
    if (!jobs.includes(path.basename(name, '.yaml'))) rmSync(path.join(copy, name));
  return copy;
}

const count = (lines: string[], prefix: string) => lines.filter((l) => l.startsWith(prefix)).length;

/** The key's base64 body lines: none may be printed. */
function keyLines(pem: string): string[] {
  return pem.split('\n').filter((l) => l.length > 40 && !l.startsWith('-----'));
}

/**
 * Every word of `text` that could be a token, tried on /oauth/userinfo: none
 * may be a live access token (the test never sees the tokens signrun got).
 */
async function liveTokensIn(text: string): Promise<string[]> {
  const words = [...new Set(text.match(/[A-Za-z0-9._~+/=-]{20,}/g) ?? [])];
  const live: string[] = [];
  for (const word of words) {
    const r = await fetch(`${sandbox.origin}/oauth/userinfo`, { headers: { authorization: `Bearer ${word}` } });
    if (r.status === 200) live.push(word);
  }
  return live;
}

async function expectNoSecret(text: string): Promise<void> {
  for (const line of keyLines(privateKey)) expect(text).not.toContain(line);
  for (const secret of knownSecrets) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/Bearer\s+\S/);
  expect(await liveTokensIn(text)).toEqual([]);
}

async function reportsOf(outDir: string): Promise<string> {
  const files = ['report.json', 'report.md', 'junit.xml'].map((f) => readFile(path.join(outDir, f), 'utf8'));
  return (await Promise.all(files)).join('\n');
}

/**
 * What a person does with the consent URL signrun printed: open it, sign in,
 * Allow — here over plain HTTP (GET the form, POST it back with its cookie).
 */
async function giveConsent(url: string, email: string, password: string): Promise<void> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
  const fields = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(
      m[1]!,
      m[2]!
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>'),
    );
  }
  fields.set('email', email);
  fields.set('password', password);
  fields.set('decision', 'allow');
  const answer = await fetch(new URL('/oauth/auth', url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: fields.toString(),
    redirect: 'manual',
  });
  const body = await answer.text();
  expect(answer.status, body.replace(/<style[\s\S]*<\/style>/, '')).toBe(303);
  expect(answer.headers.get('location')).toContain('code=');
}

describe('signrun run with the JWT grant against signrun serve', () => {
  it('runs the examples: one token request per scope set, userinfo once, every eSignature call on /restapi/v2.1, no secret printed', async () => {
    const outDir = await tempDir('signrun-jwt-out-');
    // Every example job but the Word letters, each CSV cut to its first 2 rows:
    // each kind of call and both scope sets are there; what the rows add is more
    // of the same calls (issue 38). The Word letters' calls are offer-letters'
    // (a createEnvelope with its documents); converting them is the sandbox's
    // work, not the login's (word-offer-letters.test.ts runs them, and
    // run.test.ts every example).
    const jobs = readdirSync(path.join(repoRoot, 'examples'))
      .filter((n) => n.endsWith('.yaml') && n !== 'word-offer-letters.yaml')
      .map((n) => path.basename(n, '.yaml'));
    expect(jobs).toHaveLength(7);
    const { result, lines } = await logged(() =>
      runCli(['run', examplesOf(2, jobs), '--out', outDir], { env: jwtEnv() }),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Target: ${sandbox.origin}/restapi/v2.1`);
    // One token for the eSignature API, one with the admin scopes for the organisation example's Admin API calls.
    expect(lines.some((l) => /^\w+ \/management\//.test(l))).toBe(true);
    expect(count(lines, 'POST /oauth/token ')).toBe(2);
    expect(count(lines, 'GET /oauth/userinfo ')).toBe(1);
    const api = lines.filter((l) => /^\w+ \/restapi\//.test(l));
    expect(api.length).toBeGreaterThan(10);
    expect(api.filter((l) => !/^\w+ \/restapi\/v2\.1\//.test(l))).toEqual([]);
    // No legacy login anywhere, and no warning about it.
    expect(lines.filter((l) => /login_information/.test(l))).toEqual([]);
    expect(result.stderr).not.toContain('X-DocuSign-Authentication');
    await expectNoSecret(`${result.stdout}\n${result.stderr}\n${await reportsOf(outDir)}`);
  });

  it('a token that expires mid-run is renewed once, for all the calls it refused, and the run succeeds', async () => {
    const outDir = await tempDir('signrun-jwt-out-');
    let seen = 0;
    onRequest = (line) => {
      // After the third API call, jump the service's clock past the token's hour (assertions stay valid).
      if (/^\w+ \/restapi\//.test(line) && ++seen === 3) offsetMs += 3600_000 + 30_000;
    };
    try {
      // Three of the examples: envelopes from a template and from a CSV (the
      // eSignature calls the clock jump cuts through, eight at a time) and the
      // organisation (the admin-scoped token). The renewal is the client's, the
      // same whatever the job; the test above runs every example with the grant.
      const { result, lines } = await logged(() =>
        runCli(
          [
            'run',
            examplesOf(2, ['template-contract', 'hr-renewals', 'organization']),
            '--out',
            outDir,
            '--concurrency',
            '8',
          ],
          {
            env: jwtEnv(),
          },
        ),
      );
      expect(result.code, result.stderr).toBe(0);
      expect(lines.filter((l) => /^\w+ \/restapi\/\S+ 401/.test(l)).length).toBeGreaterThan(0);
      // The eSignature token, its one renewal, and the admin-scoped token of the organisation example.
      expect(count(lines, 'POST /oauth/token ')).toBe(3);
      expect(count(lines, 'GET /oauth/userinfo ')).toBe(1);
      await expectNoSecret(`${result.stdout}\n${result.stderr}\n${await reportsOf(outDir)}`);
    } finally {
      onRequest = undefined;
      offsetMs = 0;
    }
  });
});

describe('every path uses the configured login', () => {
  it('plan with the JWT grant and no root URL plans against the account userinfo gives', async () => {
    const result = await runCli(
      ['plan', 'examples/template-contract.yaml', '--out', await tempDir('signrun-jwt-out-')],
      {
        env: jwtEnv(),
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Plan against ${sandbox.origin}/restapi/v2.1`);
  });

  it('a subsidiary account is deleted with the JWT grant, acting as its consented user — no legacy login', async () => {
    const jobDir = await tempDir('signrun-jwt-sub-');
    const outDir = path.join(jobDir, 'out');
    // Its own job name and email: the examples run above created the example's
    // account (job/key is its identity, so a run from another folder adopts it).
    const job = (await readFile(path.join(repoRoot, 'examples/subsidiary-account.yaml'), 'utf8'))
      .replace('job: subsidiary-acme-france', 'job: subsidiary-acme-france-jwt')
      .replace('admin@acme.example.fr', 'jwt-admin@acme.example.fr');
    await writeFile(path.join(jobDir, '.env'), await readFile(path.join(repoRoot, 'examples/.env'), 'utf8'));
    await writeFile(path.join(jobDir, 'sub.yaml'), job);
    const created = await runCli(['run', 'sub.yaml', '--out', outDir], { cwd: jobDir, env: jwtEnv() });
    expect(created.code, created.stderr).toBe(0);
    const record = JSON.parse(
      await readFile(path.join(outDir, 'subsidiary-acme-france-jwt/acme-fr/account.json'), 'utf8'),
    ) as { accountId: string; userId: string };
    // Its initial user activates the account, and allows the integration key on the consent page.
    const outbox = (await (
      await fetch(`${sandbox.origin}/sandbox/outbox?format=json&accountId=${record.accountId}`)
    ).json()) as { messages: Array<{ kind: string; links: string[] }> };
    expect((await fetch(outbox.messages.find((m) => m.kind === 'account-activation')!.links[0]!)).status).toBe(200);
    await giveConsent(
      `${sandbox.origin}/oauth/auth?response_type=code&scope=signature%20impersonation&client_id=sandbox-integrator-key&redirect_uri=${encodeURIComponent('https://app.example.com/cb')}`,
      'jwt-admin@acme.example.fr',
      'sandbox-only-acme-fr-password',
    );

    await writeFile(path.join(jobDir, 'sub.yaml'), job.replace(/^(\s+)state: present/m, '$1state: absent'));
    const { result, lines } = await logged(() =>
      runCli(['run', 'sub.yaml', '--out', outDir], { cwd: jobDir, env: jwtEnv() }),
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(lines, result.stdout + result.stderr).toContain(
      lines.find((l) => l.startsWith(`DELETE /restapi/v2.1/accounts/:accountId 200`)) ?? 'no DELETE 200 on v2.1',
    );
    // One token for the main user, one for the subsidiary's user; no legacy login.
    expect(count(lines, 'POST /oauth/token ')).toBe(2);
    expect(lines.filter((l) => /login_information/.test(l))).toEqual([]);
    expect(lines.filter((l) => /^\w+ \/restapi\//.test(l) && !/^\w+ \/restapi\/v2\.1\//.test(l))).toEqual([]);
    const deleted = JSON.parse(
      await readFile(path.join(outDir, 'subsidiary-acme-france-jwt/acme-fr/account.json'), 'utf8'),
    ) as { state: string };
    expect(deleted.state).toBe('deleted');
  });

  it('the legacy header is warned about for a configured service, not for the in-process sandbox', async () => {
    const legacy = await runCli(['auth', 'check'], {
      env: {
        DOCUSIGN_ROOT_URL: `${sandbox.origin}/restapi/v2`,
        DOCUSIGN_USERNAME: 'sandbox@signrun.test',
        DOCUSIGN_PASSWORD: 'sandbox-password',
        DOCUSIGN_INTEGRATOR_KEY: 'sandbox-integrator-key',
      },
    });
    expect(legacy.code, legacy.stderr).toBe(0);
    expect(legacy.stdout).toContain('the legacy X-DocuSign-Authentication header');
    expect(legacy.stdout).toContain('REST v2');
    expect(legacy.stderr.match(/^warning: .*X-DocuSign-Authentication.*DocuSign no longer accepts/gm)).toHaveLength(1);
    expect(legacy.stdout + legacy.stderr).not.toContain('sandbox-password');
    const local = await runCli(['run', 'examples/template-contract.yaml', '--out', await tempDir('signrun-jwt-out-')]);
    expect(local.code, local.stderr).toBe(0);
    expect(local.stdout).toMatch(/in-process at http:\/\/127\.0\.0\.1:\d+\/restapi\/v2\.1/);
    expect(local.stderr).not.toContain('X-DocuSign-Authentication');
  });
});

describe('over HTTPS (serve --tls)', () => {
  it('the JWT grant, userinfo and the API work over https:// with the sandbox CA in NODE_EXTRA_CA_CERTS', async () => {
    const dir = await tempDir('signrun-jwt-tls-');
    // Its CA in memory: a data folder's CA (kept across restarts) is test/sandbox/tls.test.ts's.
    const tls = await startSandbox({ port: 0, quiet: true, tls: true });
    try {
      // The CA as a person gets it the first time: GET /sandbox/ca.pem, not yet trusted (curl -k).
      const ca = await new Promise<string>((resolve, reject) => {
        const req = httpsRequest(`${tls.origin}/sandbox/ca.pem`, { rejectUnauthorized: false, agent: false }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (d: string) => (body += d));
          res.on('end', () => resolve(body));
        });
        req.on('error', reject);
        req.end();
      });
      expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
      const caFile = path.join(dir, 'sandbox-ca.pem');
      await writeFile(caFile, ca);
      // The key pair, asked over HTTPS trusting only the sandbox's CA.
      const pem = await new Promise<string>((resolve, reject) => {
        const req = httpsRequest(
          `${tls.origin}/sandbox/integrations/sandbox-integrator-key/rsa-keys`,
          { method: 'POST', ca, agent: false, headers: seedUserHeaders() },
          (res) => {
            let body = '';
            res.setEncoding('utf8').on('data', (d: string) => (body += d));
            res.on('end', () => resolve((JSON.parse(body) as { privateKey: string }).privateKey));
          },
        );
        req.on('error', reject);
        req.end();
      });
      const key = path.join(dir, 'tls.key');
      await writeFile(key, pem, { mode: 0o600 });
      // Spawned: Node reads NODE_EXTRA_CA_CERTS when its process starts.
      const result = await spawnCli(['auth', 'check'], {
        env: jwtEnv({ DOCUSIGN_OAUTH_BASE: tls.origin, DOCUSIGN_PRIVATE_KEY_FILE: key, NODE_EXTRA_CA_CERTS: caFile }),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(tls.origin).toMatch(/^https:/);
      expect(result.stdout).toContain(`API root:     ${tls.origin}/restapi/v2.1`);
    } finally {
      await tls.close();
    }
  });
});

describe('signrun auth check / consent-url', () => {
  it('auth check shows user, account, API root and version, token expiry and rate limit left — no secret', async () => {
    const { result, lines } = await logged(() => runCli(['auth', 'check'], { env: jwtEnv() }));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('sandbox@signrun.test');
    expect(result.stdout).toContain(defaultSeedIds.userId);
    expect(result.stdout).toMatch(/Account: +\S+ \(Sandbox Corp\) \(the default account\)/);
    expect(result.stdout).toContain(`API root:     ${sandbox.origin}/restapi/v2.1`);
    expect(result.stdout).toContain('REST v2.1');
    expect(result.stdout).toMatch(/Token: +valid until \d{4}-\d\d-\d\dT/);
    expect(result.stdout).toMatch(/Rate limit: +\d+ of \d+ calls left this hour|Rate limit: +\(the service sent no/);
    expect(count(lines, 'POST /oauth/token ')).toBe(1);
    expect(count(lines, 'GET /oauth/userinfo ')).toBe(1);
    await expectNoSecret(result.stdout + result.stderr);

    const json = await runCli(['auth', 'check', '--format', 'json'], { env: jwtEnv() });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      login: 'jwt-grant',
      apiVersion: 'v2.1',
      apiRoot: `${sandbox.origin}/restapi/v2.1`,
      user: { id: defaultSeedIds.userId },
    });
  });

  it('auth consent-url prints the consent address for the integration key (the key and user id may be unset yet)', async () => {
    const result = await runCli(['auth', 'consent-url', '--redirect-uri', 'https://app.example.com/cb'], {
      env: { DOCUSIGN_INTEGRATOR_KEY: 'sandbox-integrator-key', DOCUSIGN_OAUTH_BASE: sandbox.origin },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(
      `${sandbox.origin}/oauth/auth?response_type=code&scope=signature%20impersonation&client_id=sandbox-integrator-key&redirect_uri=${encodeURIComponent('https://app.example.com/cb')}`,
    );
  });
});

describe('errors a person can hit, each with its code and next step', () => {
  /** `auth check` with these variables: exit 2, the code, the words of the next step, nothing sent to the API. */
  async function refused(
    env: Record<string, string>,
    code: string,
    ...says: Array<string | RegExp>
  ): Promise<CliResult> {
    const { result, lines } = await logged(() => runCli(['auth', 'check'], { env }));
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(code);
    for (const s of says) {
      if (typeof s === 'string') expect(result.stderr).toContain(s);
      else expect(result.stderr).toMatch(s);
    }
    expect(lines.filter((l) => /^\w+ \/restapi\//.test(l))).toEqual([]);
    await expectNoSecret(result.stdout + result.stderr);
    return result;
  }

  it('no consent: the consent URL to open', async () => {
    // A user who never allowed the integration key: the initial user of a new subsidiary account of this
    // sandbox (the file's key pair is registered on the key; consent is per user, as at DocuSign).
    const sub = await createActiveSubsidiary(sandbox.rootUrl, sandbox.origin, 'no-consent', 'no-consent@example.com');
    const env = jwtEnv({ DOCUSIGN_USER_ID: sub.userId });
    const check = await runCli(['auth', 'check'], { env });
    expect(check.code, check.stderr).toBe(2);
    expect(check.stderr).toContain('SR_AUTH_CONSENT_REQUIRED');
    expect(check.stderr).toContain(
      `${sandbox.origin}/oauth/auth?response_type=code&scope=signature%20impersonation&client_id=sandbox-integrator-key&redirect_uri=`,
    );
    expect(check.stderr).toContain('npx signrun auth consent-url');
    // `run` stops at the same place, before sending anything.
    const { result: run, lines } = await logged(() =>
      runCli(['run', 'examples/template-contract.yaml', '--out', path.join(dir, 'no-consent-out')], { env }),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('SR_AUTH_CONSENT_REQUIRED');
    expect(run.stderr).toContain(`${sandbox.origin}/oauth/auth?`);
    expect(lines.filter((l) => /^\w+ \/restapi\//.test(l))).toEqual([]);
    // The next step works: open the printed address, sign in, allow — then the same credentials pass.
    const printed = /(http:\/\/\S+\/oauth\/auth\?\S+)/.exec(check.stderr)![1]!;
    await giveConsent(printed, 'no-consent@example.com', sub.credentials.password);
    const after = await runCli(['auth', 'check'], { env });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain('The credentials work.');
  });

  it('wrong key: a private key that is not one of the integration key’s pairs', async () => {
    const stranger = path.join(dir, 'stranger.key');
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await writeFile(stranger, pair.privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
    await refused(
      jwtEnv({ DOCUSIGN_PRIVATE_KEY_FILE: stranger }),
      'SR_AUTH_KEY_MISMATCH',
      'no_valid_keys_or_signatures',
      'DOCUSIGN_PRIVATE_KEY_FILE',
    );
  });

  it('unknown user: the email instead of the user id (GUID)', async () => {
    await refused(
      jwtEnv({ DOCUSIGN_USER_ID: 'sandbox@signrun.test' }),
      'SR_AUTH_USER_UNKNOWN',
      'must be the user id (a GUID), not the email',
      'DOCUSIGN_USER_ID',
    );
  });

  it('unknown integration key (or one of the other environment)', async () => {
    await refused(
      jwtEnv({ DOCUSIGN_INTEGRATOR_KEY: 'no-such-integration-key' }),
      'SR_AUTH_INTEGRATION_KEY_UNKNOWN',
      'issuer_not_found',
      'DOCUSIGN_OAUTH_BASE',
    );
  });

  it('expired assertion: this machine is behind the service’s clock', async () => {
    offsetMs = 2 * 3600_000;
    try {
      await refused(jwtEnv(), 'SR_AUTH_CLOCK_SKEW', 'expired', /clock of this machine right/);
    } finally {
      offsetMs = 0;
    }
  });

  it('clock skew: an assertion issued in the future (this machine is ahead)', async () => {
    offsetMs = -2 * 3600_000;
    try {
      await refused(jwtEnv(), 'SR_AUTH_CLOCK_SKEW', 'iat_in_future', /clock of this machine right/);
    } finally {
      offsetMs = 0;
    }
  });

  it('wrong region: a root URL on another server than the account', async () => {
    await refused(
      jwtEnv({ DOCUSIGN_ROOT_URL: 'https://eu.docusign.net/restapi/v2.1' }),
      'SR_AUTH_WRONG_REGION',
      `lives at ${sandbox.origin}`,
      'Unset DOCUSIGN_ROOT_URL',
    );
  });

  it('a missing key file is named before any call', async () => {
    const { result, lines } = await logged(() =>
      runCli(['auth', 'check'], { env: jwtEnv({ DOCUSIGN_PRIVATE_KEY_FILE: path.join(dir, 'nope.key') }) }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('SR_CONFIG_PRIVATE_KEY');
    expect(result.stderr).toContain('nope.key');
    expect(lines).toEqual([]);
  });
});
