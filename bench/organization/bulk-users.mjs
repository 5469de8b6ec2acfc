/**
 * An organisation's users at scale (issue 38 moved the 1,000 of
 * test/organization/organization-run.test.ts here): `signrun run` of a job
 * whose organisation lists N users (two of them with a profile the account
 * lacks) against `signrun serve`, checked as the test checks 300: one bulk
 * import, at most 10 calls for the users, N - 2 created, the two rejected
 * rows named at their CSV lines.
 *
 *   npm run build && node bench/organization/bulk-users.mjs [--users 1000]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, numberArg, sandboxEnv, startServe, stopServe } from '../lib/bench-kit.mjs';

const users = numberArg('users', 1000);
const rejectedRows = [Math.floor(users * 0.4), Math.floor(users * 0.777)];
const organizationId = '0b6f5d2a-8c3e-4e71-9f4a-6a1d2c3b4e55'; // the default seed's organisation

const dir = mkdtempSync(join(tmpdir(), 'signrun-bench-org-users-'));
const rows = ['email,firstName,lastName,account,permissionProfile'];
for (let i = 0; i < users; i++)
  rows.push(`user${i}@bulk.example,User,N${i},bulk,${rejectedRows.includes(i) ? 'No Such Profile' : 'DocuSign Sender'}`);
writeFileSync(join(dir, 'users.csv'), `${rows.join('\n')}\n`);
writeFileSync(
  join(dir, 'bulk.yaml'),
  `version: 1
job: org-bulk
accounts:
  - key: bulk
    accountName: Bulk GmbH
    organizationId: ${organizationId}
    admin: { email: admin@bulk.example }
organization:
  id: ${organizationId}
  usersCsv: users.csv
`,
);

const { child: serve, rootUrl } = await startServe(0);
try {
  const started = performance.now();
  const code = await new Promise((resolve, reject) => {
    const run = spawn(process.execPath, [bin, 'run', 'bulk.yaml', '--out', 'out'], {
      cwd: dir,
      env: sandboxEnv(rootUrl),
      stdio: 'ignore',
    });
    run.on('error', reject);
    run.on('exit', resolve);
  });
  const seconds = (performance.now() - started) / 1000;
  const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8'));
  const contents = report.accounts[0].contents.filter((c) => c.kind === 'organizationUser');
  const created = contents.filter((c) => c.outcome === 'created').length;
  const failed = contents.filter((c) => c.outcome === 'failed');
  const userCalls = ['importUsers', 'userImport', 'userImportResults', 'organizationUsers', 'addAccountUser'].reduce(
    (n, op) => n + (report.api.byOperation[op] ?? 0),
    0,
  );
  const lines = failed.map((c) => /users\.csv:(\d+)/.exec(c.error?.message ?? '')?.[1]);
  const ok =
    code === 1 &&
    created === users - 2 &&
    report.api.byOperation['importUsers'] === 1 &&
    userCalls <= 10 &&
    lines.join(',') === rejectedRows.map((r) => r + 2).join(',');
  console.log(
    `${users} users: exit ${code}, ${created} created, rejected at users.csv lines ${lines.join(', ')}, ` +
      `${report.api.byOperation['importUsers']} import, ${userCalls} calls for the users, ${seconds.toFixed(1)} s wall`,
  );
  if (!ok) {
    console.error('not as expected: one import, at most 10 calls, every row but the two created, those two named');
    process.exitCode = 1;
  }
} finally {
  await stopServe(serve);
}
