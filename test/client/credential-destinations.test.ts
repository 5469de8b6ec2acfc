import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, readdir, writeFile, mkdir, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OAuthSession } from '../../src/client/oauth/oauth-session.js';
import { parseOAuthBase } from '../../src/client/oauth/oauth-base.js';
import { checkServerAddress } from '../../src/client/credential-destinations.js';
import { SignrunError } from '../../src/errors/signrun-error.js';
import { makeSecret, shownUrl } from '../../src/secret.js';
import { bindStateTarget } from '../../src/state/state-target.js';
import { OutputFolder } from '../../src/output/output-folder.js';
import { writeReports } from '../../src/reporters/write-reports.js';
import { stoppedReport } from '../../src/reporters/stopped-report.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { tempDir } from '../cli/run-helpers.js';

/**
 * Where credentials may go (issue 25, "credentials that travel"): a hostile
 * account server on loopback answers what the test asks (a 307 to another
 * origin, a base_uri of its choosing); "elsewhere" (another port: another
 * origin) records whatever reaches it. Nothing may.
 */
type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };
const atElsewhere: Seen[] = [];
let elsewhere: http.Server;
let accountServer: http.Server;
let elsewhereOrigin: string;
let accountOrigin: string;
/** What the account server does next: set by each test. */
let behaviour: { token: 'ok' | 'redirect'; userinfo: 'ok' | 'redirect'; baseUri: string };
const privateKeyPem = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
}).privateKey;

function listen(handler: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => handler(req, body, res));
  });
  return new Promise<http.Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
const originOf = (server: http.Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

beforeAll(async () => {
  elsewhere = await listen((req, body, res) => {
    atElsewhere.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"access_token":"stolen","expires_in":3600,"sub":"x","accounts":[]}');
  });
  elsewhereOrigin = originOf(elsewhere);
  accountServer = await listen((req, _body, res) => {
    const json = (value: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.url === '/oauth/token') {
      if (behaviour.token === 'redirect') {
        res.writeHead(307, { location: `${elsewhereOrigin}/oauth/token` });
        return res.end();
      }
      return json({ access_token: 'minted-token', token_type: 'Bearer', expires_in: 3600 });
    }
    if (req.url === '/oauth/userinfo') {
      if (behaviour.userinfo === 'redirect') {
        res.writeHead(307, { location: `${elsewhereOrigin}/oauth/userinfo` });
        return res.end();
      }
      return json({
        sub: 'user-1',
        accounts: [{ account_id: 'acct-1', is_default: true, account_name: 'A', base_uri: behaviour.baseUri }],
      });
    }
    res.writeHead(404);
    res.end();
  });
  accountOrigin = originOf(accountServer);
});
afterAll(async () => {
  await new Promise((resolve) => accountServer.close(resolve));
  await new Promise((resolve) => elsewhere.close(resolve));
});
beforeEach(() => {
  atElsewhere.length = 0;
  behaviour = { token: 'ok', userinfo: 'ok', baseUri: accountOrigin };
});

function session(): OAuthSession {
  return new OAuthSession({
    integrationKey: 'ik',
    userId: 'user-1',
    privateKey: makeSecret(privateKeyPem),
    base: parseOAuthBase(accountOrigin)!,
  });
}

/** A folder with one job file of one envelope (remote signer), for the CLI tests. */
async function jobDir(prefix: string): Promise<{ dir: string; job: string }> {
  const dir = await tempDir(prefix);
  await mkdir(path.join(dir, 'docs'));
  await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
  const job = path.join(dir, 'q.yaml');
  await writeFile(
    job,
    [
      'version: 1',
      'job: q',
      'envelopes:',
      '  - key: a',
      '    emailSubject: Please sign',
      '    documents: [{ name: offer-letter.pdf, file: docs/offer-letter.pdf }]',
      '    recipients: [{ name: Dora Remote, email: dora@example.com }]',
      '',
    ].join('\n'),
  );
  return { dir, job };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return error instanceof SignrunError ? error.code : `uncoded ${String(error)}`;
  }
  return 'no error';
}

describe('no credential across origins', () => {
  it('a 307 of POST /oauth/token to another origin is refused: the JWT assertion is not posted there', async () => {
    behaviour.token = 'redirect';
    expect(await codeOf(session().tokens.token())).toBe('SR_AUTH_REDIRECT_REFUSED');
    expect(atElsewhere).toEqual([]);
  });

  it('a 307 of GET /oauth/userinfo to another origin is a coded refusal (not SR_INTERNAL), and nothing reaches it', async () => {
    behaviour.userinfo = 'redirect';
    expect(await codeOf(session().account())).toBe('SR_AUTH_REDIRECT_REFUSED');
    expect(atElsewhere).toEqual([]);
  });

  it('the CLI: a run whose account server redirects the token request ends with exit 2 and SR_AUTH_REDIRECT_REFUSED', async () => {
    behaviour.token = 'redirect';
    const { dir, job } = await jobDir('signrun-creds-');
    const keyFile = path.join(dir, 'key.pem');
    await writeFile(keyFile, privateKeyPem, { mode: 0o600 });
    const result = await runCli(['run', job, '--out', path.join(dir, 'out')], {
      env: {
        DOCUSIGN_INTEGRATOR_KEY: 'ik',
        DOCUSIGN_USER_ID: 'user-1',
        DOCUSIGN_PRIVATE_KEY_FILE: keyFile,
        DOCUSIGN_OAUTH_BASE: accountOrigin,
      },
    });
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stderr).toContain('SR_AUTH_REDIRECT_REFUSED');
    expect(atElsewhere).toEqual([]);
  });
});

describe("userinfo's base_uri: where the token goes on every call", () => {
  const refused = [
    ['plain http off this machine', 'http://api.example.com'],
    ['a query', 'https://api.example.com?token=abc'],
    ['user info', 'https://u:p@api.example.com'],
    ['not http(s)', 'ftp://api.example.com'],
  ];
  for (const [what, baseUri] of refused) {
    it(`refused with SR_BASE_URI_REFUSED: ${what}`, async () => {
      behaviour.baseUri = baseUri!;
      expect(await codeOf(session().account())).toBe('SR_BASE_URI_REFUSED');
    });
  }

  it('taken: https anywhere behind a non-DocuSign account server, http on loopback or on the account server itself', async () => {
    for (const baseUri of ['https://api.example.com', 'http://127.0.0.1:9', accountOrigin]) {
      behaviour.baseUri = baseUri;
      expect((await session().account()).baseUri).toBe(baseUri);
    }
  });

  it("behind DocuSign's account servers, only DocuSign's domains", () => {
    for (const configured of ['https://account-d.docusign.com', 'https://account.docusign.com']) {
      const at = { configured, namedBy: "userinfo's base_uri" };
      for (const ok of ['https://demo.docusign.net', 'https://na3.docusign.net', 'https://eu.docusign.com'])
        expect(checkServerAddress(ok, at).origin).toBe(ok);
      for (const bad of [
        'https://demo.docusign.net.evil.example',
        'https://evildocusign.net',
        'https://api.example.com',
        'http://demo.docusign.net',
      ]) {
        expect(() => checkServerAddress(bad, at)).toThrow(expect.objectContaining({ code: 'SR_BASE_URI_REFUSED' }));
      }
    }
  });
});

describe('no query or user info in what is shown or stored', () => {
  it('shownUrl drops user info, query and fragment', () => {
    expect(shownUrl('https://u:p@h.example/restapi/v2.1?token=abc#x')).toBe('https://h.example/restapi/v2.1');
    expect(shownUrl('http://127.0.0.1:8080/restapi/v2')).toBe('http://127.0.0.1:8080/restapi/v2');
    expect(shownUrl('not a url?token=abc')).toBe('not a url');
  });

  it('DOCUSIGN_ROOT_URL with ?token= is refused before any call, and the token is shown nowhere', async () => {
    const { dir, job } = await jobDir('signrun-creds-query-');
    const out = path.join(dir, 'out');
    const result = await runCli(['run', job, '--out', out], {
      env: { DOCUSIGN_ROOT_URL: `${accountOrigin}/restapi/v2.1?token=SECRET-IN-QUERY` },
    });
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stderr).toContain('SR_CONFIG_ENV_INVALID');
    expect(result.stdout + result.stderr).not.toContain('SECRET-IN-QUERY');
    const files = await readdir(out, { recursive: true }).catch(() => [] as string[]);
    for (const file of files) {
      const text = await readFile(path.join(out, file), 'utf8').catch(() => '');
      expect(text, file).not.toContain('SECRET-IN-QUERY');
    }
  });

  it('every report and target.json store the address without its query or user info', async () => {
    const dir = await tempDir('signrun-creds-shown-');
    const rootUrl = 'https://u:SECRET-PASS@h.example/restapi/v2.1?token=SECRET-IN-QUERY';
    await writeReports(
      new OutputFolder(dir),
      stoppedReport({
        target: { rootUrl, sandbox: false },
        startedAt: new Date(),
        concurrency: 1,
        items: [],
        error: { code: 'SR_HTTP_AUTH', message: 'refused', step: 'login' },
      }),
    );
    await mkdir(path.join(dir, '.signrun'), { mode: 0o700 });
    await bindStateTarget(path.join(dir, '.signrun'), rootUrl);
    for (const file of ['report.json', 'report.md', 'junit.xml', 'report.html', '.signrun/target.json']) {
      const text = await readFile(path.join(dir, file), 'utf8');
      expect(text, file).not.toMatch(/SECRET-IN-QUERY|SECRET-PASS/);
    }
    expect(JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')).target.rootUrl).toBe(
      'https://h.example/restapi/v2.1',
    );
  });
});
