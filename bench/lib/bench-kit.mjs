/**
 * What the benchmarks share: their command-line arguments, the built CLI,
 * `signrun serve` started in its own process (and stopped), and the
 * sandbox's seed credentials. Plain JavaScript on the built dist/.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root and the built CLI the benchmarks run. */
export const root = fileURLToPath(new URL('../..', import.meta.url));
export const bin = join(root, 'dist/cli/bin.js');

/** `--name N` as a number, or the fallback. */
export function numberArg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** `--name VALUE` as a string, or undefined. */
export function stringArg(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The sandbox's seed user, as the legacy X-DocuSign-Authentication header carries it. */
export const sandboxCredentials = {
  Username: 'sandbox@signrun.test',
  Password: 'sandbox-password',
  IntegratorKey: 'sandbox-integrator-key',
};

/** The environment `signrun` runs with against the sandbox at rootUrl (no colour, the seed user). */
export function sandboxEnv(rootUrl) {
  return {
    ...process.env,
    NO_COLOR: '1',
    DOCUSIGN_ROOT_URL: rootUrl,
    DOCUSIGN_USERNAME: sandboxCredentials.Username,
    DOCUSIGN_PASSWORD: sandboxCredentials.Password,
    DOCUSIGN_INTEGRATOR_KEY: sandboxCredentials.IntegratorKey,
  };
}

/**
 * `signrun serve --port 0 --latency L` in its own process (nodeFlags before
 * the script, e.g. --cpu-prof; serveBin another build's bin.js); resolves
 * once it listens, with the ms from spawn to its "listening" line.
 */
export function startServe(latency, nodeFlags = [], serveBin = bin) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...nodeFlags, serveBin, 'serve', '--port', '0', '--latency', String(latency)],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    let out = '';
    const onData = (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (!m) return;
      // From here on the request log is only drained: kept and searched, it
      // cost this process CPU and, once the pipe filled, stalled the sandbox.
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve({ child, rootUrl: m[1], listenMs: performance.now() - started });
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
}

/** Stops the sandbox and waits (at most 10 s) for it to close, and with --cpu-prof to write its profile. */
export async function stopServe(child) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
}

/**
 * A job folder of n envelopes from a CSV fan-out, each with the two example
 * documents and two embedded signers (an employee and a manager), as the run
 * and SDK benchmarks send them.
 */
export function twoSignerJobFolder({ prefix, job, file, n }) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'docs'));
  mkdirSync(join(dir, 'data'));
  copyFileSync(join(root, 'examples/docs/offer-letter.pdf'), join(dir, 'docs/offer-letter.pdf'));
  copyFileSync(join(root, 'examples/docs/company-handbook.pdf'), join(dir, 'docs/company-handbook.pdf'));
  const rows = ['id,name,email'];
  for (let i = 1; i <= n; i++) rows.push(`B${100000 + i},Employee ${i},employee${i}@example.com`);
  writeFileSync(join(dir, 'data/people.csv'), `${rows.join('\n')}\n`);
  writeFileSync(
    join(dir, file),
    `version: 1
job: ${job}
defaults: { emailSubject: Please sign, returnUrl: https://hr.example.com/done, status: sent }
envelopes:
  - key: e-\${row.id}
    forEach: { csv: data/people.csv }
    documents:
      - { name: offer-letter.pdf, file: docs/offer-letter.pdf }
      - { name: company-handbook.pdf, file: docs/company-handbook.pdf }
    recipients:
      - { name: "\${row.name}", email: "\${row.email}", clientUserId: "emp-\${row.id}" }
      - { name: "Manager of \${row.id}", email: "manager-\${row.id}@example.com", clientUserId: "mgr-\${row.id}" }
`,
  );
  return dir;
}
