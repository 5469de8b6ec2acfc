// CPU (user+sys, every thread of the process) of importing the sandbox and of
// K start+close cycles of an in-process sandbox, as `run` and the suite make
// them (issue 38). Usage: node bench/startup/sandbox-start.mjs [dist] [K]
// (dist: a built tree, default this checkout's dist; run two side by side, alternating).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const dist = pathToFileURL(resolve(process.argv[2] ?? 'dist')).href;
const cycles = Number(process.argv[3] ?? 3);
const ms = (usage) => Math.round((usage.user + usage.system) / 1000);

const before = process.cpuUsage();
const { startSandbox } = await import(`${dist}/sandbox/server.js`);
const importMs = ms(process.cpuUsage(before));
const startCloseMs = [];
for (let i = 0; i < cycles; i++) {
  const cycle = process.cpuUsage();
  const sandbox = await startSandbox({ port: 0 });
  await sandbox.close();
  startCloseMs.push(ms(process.cpuUsage(cycle)));
}
console.log(JSON.stringify({ importMs, startCloseMs, rssMB: Math.round(process.memoryUsage().rss / 1e6) }));
