#!/usr/bin/env node
// Fidelity as a figure (issue 23, item 3): DocuSign's own eSignature code
// examples (github.com/docusign/code-examples-node), unchanged, against
// `signrun serve --tls`, logged in with the examples' own JWT code.
//
//   git clone https://github.com/docusign/code-examples-node /path/to/code-examples-node
//   npm run build
//   node bench/fidelity/run.mjs --examples /path/to/code-examples-node [--api admin] [--out fidelity.json] [--no-install] [--verbose]
//
// --api admin runs the Admin API examples (lib/admin) instead, against the
// sandbox's /management (their config's adminAPIUrl).
//
// It installs the examples' own dependencies in their folder (`npm ci`, from
// the npm registry: the reason it is not part of `npm test`), writes their
// config/appsettings.json (the sandbox's integration key, user and a key pair
// made for the run; an existing appsettings.json is put back afterwards),
// starts the sandbox on a free loopback port with its own CA, runs
// drive.mjs in the examples' folder, prints a table and the figure, and
// writes the results as JSON. Exit 0 when every example in scope passes.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..');
const bin = join(repoRoot, 'dist', 'cli', 'bin.js');

// The default seed's user and integration key (docs/sandbox.md).
const seed = {
  integrationKey: 'sandbox-integrator-key',
  email: 'sandbox@signrun.test',
  password: 'sandbox-password',
  userId: '7c1e9b2d-4a6f-4d3e-8b5a-2f0e6d9c4b22',
};

function usage(message) {
  if (message) process.stderr.write(`${message}\n\n`);
  process.stderr.write(
    'usage: node bench/fidelity/run.mjs --examples DIR [--api esignature|admin] [--out FILE] [--no-install] [--verbose]\n' +
      '  DIR   a clone of https://github.com/docusign/code-examples-node\n' +
      '  FILE  where the results go as JSON (default: fidelity.json in the current folder)\n',
  );
  process.exit(2);
}

function parseArgs(argv) {
  const options = { out: resolve('fidelity.json'), install: true, verbose: false, api: 'esignature' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--examples') options.examples = resolve(argv[++i] ?? usage('--examples needs a folder'));
    else if (arg === '--out') options.out = resolve(argv[++i] ?? usage('--out needs a file'));
    else if (arg === '--no-install') options.install = false;
    else if (arg === '--api') options.api = argv[++i] ?? usage('--api needs esignature or admin');
    else if (arg === '--verbose') options.verbose = true;
    else if (arg === '--help' || arg === '-h') usage();
    else usage(`unknown argument ${arg}`);
  }
  if (!options.examples) usage('--examples is required');
  if (options.api !== 'esignature' && options.api !== 'admin')
    usage(`--api takes esignature or admin, not ${options.api}`);
  if (!existsSync(join(options.examples, 'lib', 'eSignature', 'controllers')))
    usage(`${options.examples} does not look like code-examples-node (no lib/eSignature/controllers)`);
  if (!existsSync(bin)) usage(`${bin} is missing: run \`npm run build\` in ${repoRoot} first`);
  return options;
}

/** Runs a command to its end; rejects with its output when it fails. */
function runToEnd(command, args, options) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    options.started?.(child);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => {
      output += d;
      if (options.echo) process.stderr.write(d);
    });
    child.on('error', reject);
    child.on('exit', (code) => resolvePromise({ code, output }));
  });
}

/** `signrun serve --tls` on a free loopback port; resolves when it prints its listening line. */
function startSandbox(dataDir) {
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--tls', '--host', '127.0.0.1', '--port', '0', '--data', dataDir],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  let output = '';
  return new Promise((resolvePromise, reject) => {
    const onData = (d) => {
      output += d;
      const match = /sandbox listening on (https:\/\/[^\s/]+)\/restapi\/v2\n/.exec(output);
      if (match) resolvePromise({ child, origin: match[1], output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) =>
      reject(new Error(`signrun serve --tls exited with ${code} before listening:\n${output}`)),
    );
  });
}

/** The key pair of the run, as from DocuSign's Apps and Keys page (the sandbox's own endpoint). */
function makeKeyPair(origin, ca) {
  return new Promise((resolvePromise, reject) => {
    const req = request(
      `${origin}/sandbox/integrations/${seed.integrationKey}/rsa-keys`,
      {
        method: 'POST',
        ca,
        headers: {
          'x-docusign-authentication': JSON.stringify({
            Username: seed.email,
            Password: seed.password,
            IntegratorKey: seed.integrationKey,
          }),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => {
          if (res.statusCode !== 201)
            reject(new Error(`making a key pair answered ${res.statusCode}: ${body.slice(0, 300)}`));
          else resolvePromise(JSON.parse(body).privateKey);
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * DocuSign's account servers, for the examples' calls that name them.
 * docusign-esign derives the account server from the REST base path's host
 * name when a program sets only the base path (lib/eSignature/getData.js's
 * getUserInfo, used by eg039 and eg043): `https://demo…` → account-d,
 * anything else → account.docusign.com. A sandbox on 127.0.0.1 has no such
 * name, so these two names are routed to it, as an /etc/hosts line would: an
 * HTTP proxy (HTTPS_PROXY for the examples' axios) that forwards requests for
 * them to the sandbox and refuses every other host.
 */
const accountServers = new Set(['account.docusign.com', 'account-d.docusign.com']);

function startAccountServerProxy(origin, ca) {
  const target = new URL(origin);
  const server = createServer((incoming, outgoing) => {
    let url;
    try {
      url = new URL(incoming.url);
    } catch {
      url = undefined;
    }
    if (!url || !accountServers.has(url.hostname)) {
      outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`the fidelity harness forwards only ${[...accountServers].join(' and ')}, not ${incoming.url}\n`);
      return;
    }
    const headers = { ...incoming.headers, host: target.host };
    delete headers['proxy-connection'];
    const forwarded = request(
      {
        hostname: target.hostname,
        port: target.port,
        path: url.pathname + url.search,
        method: incoming.method,
        headers,
        ca,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', (error) => {
      outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`the sandbox could not be reached: ${error.message}\n`);
    });
    incoming.pipe(forwarded);
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolvePromise({ server, url: `http://127.0.0.1:${server.address().port}` }));
  });
}

function table(rows) {
  const widths = [6, 34, 12];
  const line = (cells) =>
    cells
      .map((c, i) => String(c).padEnd(widths[i] ?? 0))
      .join(' ')
      .trimEnd();
  const out = [line(['eg', 'controller', 'result', 'detail'])];
  for (const r of rows) {
    const detail =
      r.result === 'out of scope'
        ? r.why
        : r.result === 'fail'
          ? [
              r.step,
              r.status,
              r.errorCode,
              r.reason && r.message ? `${r.reason}: ${r.message}` : (r.message ?? r.reason),
            ]
              .filter(Boolean)
              .join(' ')
          : r.envelope
            ? `envelope ${r.envelope.status}`
            : (r.url ?? r.page ?? (r.bytes ? `${r.bytes} bytes ${r.contentType ?? ''}` : ''));
    out.push(line([r.eg, r.controller, r.result, detail]));
  }
  return out.join('\n');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const examplesDir = options.examples;

  if (options.install || !existsSync(join(examplesDir, 'node_modules', 'docusign-esign'))) {
    const lock = existsSync(join(examplesDir, 'package-lock.json'));
    process.stderr.write(`installing the examples' dependencies (npm ${lock ? 'ci' : 'install'}) in ${examplesDir}\n`);
    const installed = await runToEnd('npm', [lock ? 'ci' : 'install', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: examplesDir,
      env: process.env,
    });
    if (installed.code !== 0) throw new Error(`npm in ${examplesDir} failed:\n${installed.output}`);
  }

  const work = mkdtempSync(join(tmpdir(), 'signrun-fidelity-'));
  const settingsFile = join(examplesDir, 'config', 'appsettings.json');
  const backup = `${settingsFile}.signrun-fidelity-backup`;
  let sandbox;
  let proxy;
  let wroteSettings = false;
  let driver;
  /** Puts the examples' own settings back (or removes the run's) and stops what the run started. */
  const cleanUpNow = () => {
    if (wroteSettings) {
      if (existsSync(backup)) renameSync(backup, settingsFile);
      else rmSync(settingsFile, { force: true });
      wroteSettings = false;
    }
    if (proxy) proxy.server.close();
  };
  // Interrupted: the same, then exit 130 (the sandbox is this process's child and gets the signal too).
  const onSignal = () => {
    cleanUpNow();
    if (driver && driver.exitCode === null) driver.kill('SIGTERM');
    if (sandbox && sandbox.child.exitCode === null) sandbox.child.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    sandbox = await startSandbox(join(work, 'data'));
    const caFile = join(work, 'data', 'tls', 'sandbox-tls-ca.pem');
    const privateKey = await makeKeyPair(sandbox.origin, readFileSync(caFile, 'utf8'));
    proxy = await startAccountServerProxy(sandbox.origin, readFileSync(caFile, 'utf8'));
    const keyFile = join(work, 'private.key');
    writeFileSync(keyFile, privateKey, { mode: 0o600 });

    // The examples' configuration, from their own appsettings.example.json.
    const settings = JSON.parse(readFileSync(join(examplesDir, 'config', 'appsettings.example.json'), 'utf8'));
    Object.assign(settings, {
      dsJWTClientId: seed.integrationKey,
      dsClientId: seed.integrationKey,
      impersonatedUserGuid: seed.userId,
      privateKeyLocation: keyFile,
      signerEmail: 'signer@example.com',
      signerName: 'Sam Signer',
      production: false,
      // The Admin API examples' base (DocuSign's https://api-d.docusign.net/management): the sandbox's.
      adminAPIUrl: `${sandbox.origin}/management`,
    });
    if (existsSync(settingsFile)) renameSync(settingsFile, backup);
    wroteSettings = true;
    writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);

    const resultsFile = join(work, 'results.json');
    const driven = await runToEnd(process.execPath, [join(here, 'drive.mjs')], {
      cwd: examplesDir,
      echo: true,
      started: (child) => (driver = child),
      env: {
        ...process.env,
        NODE_EXTRA_CA_CERTS: caFile,
        EXAMPLES_DIR: examplesDir,
        SANDBOX_ORIGIN: sandbox.origin,
        RESULTS_FILE: resultsFile,
        SEED_EMAIL: seed.email,
        SEED_PASSWORD: seed.password,
        FIDELITY_API: options.api,
        HTTPS_PROXY: proxy.url,
        https_proxy: proxy.url,
        NO_PROXY: '127.0.0.1,localhost',
        no_proxy: '127.0.0.1,localhost',
      },
    });
    if (options.verbose) process.stderr.write(driven.output);
    if (!existsSync(resultsFile))
      throw new Error(`the examples' driver wrote no results (exit ${driven.code}):\n${driven.output}`);
    const { login, examples } = JSON.parse(readFileSync(resultsFile, 'utf8'));
    if (login.error)
      throw new Error(`the examples' JWT login failed: ${login.error} ${JSON.stringify(login.body ?? '')}`);

    const inScope = examples.filter((e) => e.result !== 'out of scope');
    const passing = inScope.filter((e) => e.result === 'pass');
    const examplesCommit = await runToEnd('git', ['rev-parse', 'HEAD'], { cwd: examplesDir, env: process.env });
    const sdk = options.api === 'admin' ? 'docusign-admin' : 'docusign-esign';
    const sdkVersion = JSON.parse(readFileSync(join(examplesDir, 'node_modules', sdk, 'package.json'), 'utf8')).version;
    const summary = {
      figure: `${passing.length} of ${inScope.length} in scope pass`,
      passing: passing.length,
      inScope: inScope.length,
      outOfScope: examples.length - inScope.length,
      examplesCommit: examplesCommit.code === 0 ? examplesCommit.output.trim() : undefined,
      api: options.api,
      [options.api === 'admin' ? 'docusignAdmin' : 'docusignEsign']: sdkVersion,
      login,
      examples,
    };
    writeFileSync(options.out, `${JSON.stringify(summary, null, 2)}\n`);
    process.stdout.write(
      `${table(examples)}\n\n${summary.figure} (${summary.outOfScope} out of scope); results in ${options.out}\n`,
    );
    process.exitCode = passing.length === inScope.length ? 0 : 1;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    cleanUpNow();
    if (sandbox && sandbox.child.exitCode === null) {
      const exited = new Promise((done) => sandbox.child.once('exit', done));
      sandbox.child.kill('SIGTERM');
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`fidelity: ${error.message}\n`);
  process.exitCode = 2;
});
