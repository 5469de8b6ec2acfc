// One `signrun serve --port 0 --data <folder>` of a given bin, from spawn to its "listening" line, then
// SIGTERM and wait for it to stop: time it from outside (/usr/bin/time, bench/startup/cpu-ab.sh) for the CPU
// of a serve's start and stop. The folder is new each time (the CAs made at first start) unless DATA names
// one (a restart: the CAs read back). Usage: [DATA=<folder>] node bench/startup/serve-start.mjs <bin.js> [node flags...]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [bin, ...nodeFlags] = process.argv.slice(2);
const fresh = process.env.DATA === undefined;
const data = process.env.DATA ?? mkdtempSync(join(tmpdir(), 'signrun-serve-start-'));
const started = process.hrtime.bigint();
const child = spawn(process.execPath, [...nodeFlags, bin, 'serve', '--port', '0', '--data', data], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
let stopping = false;
const onOutput = (chunk) => {
  out += chunk;
  if (!stopping && /listening on http/.test(out)) {
    stopping = true;
    console.log(`listening after ${Number(process.hrtime.bigint() - started) / 1e6} ms (wall)`);
    child.kill('SIGTERM');
  }
};
child.stdout.on('data', onOutput);
child.stderr.on('data', onOutput);
child.on('exit', (code, signal) => {
  if (fresh) rmSync(data, { recursive: true, force: true });
  if (!stopping) console.log(out);
  process.exitCode = stopping && code === 0 ? 0 : 1;
  if (!stopping || code !== 0) console.log(`exit ${code} ${signal}`);
});
