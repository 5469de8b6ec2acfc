// Each thread's CPU of one run (Linux /proc), for the critical path of
// `validate` on 2 cores: the main thread, V8's platform threads (background
// compilation and GC helpers) and the PDF worker, polled every 20 ms while
// the process runs (a thread that ends keeps its last reading).
//   node bench/validate/thread-cpu.mjs node dist/cli/bin.js validate bench/.tmp/validate/10000/per-row
// prints: wall, main, each other thread by its offset from the main thread's
// id (the four platform threads come first, the worker last), and the sum.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const [command, ...args] = process.argv.slice(2);
const started = performance.now();
const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
const seen = new Map();
const poll = () => {
  try {
    for (const tid of readdirSync(`/proc/${child.pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${child.pid}/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        seen.set(Number(tid), (Number(fields[11]) + Number(fields[12])) / 100);
      } catch {
        // the thread ended between the listing and the read
      }
    }
  } catch {
    // the process ended
  }
};
const timer = setInterval(poll, 20);
child.on('exit', () => {
  clearInterval(timer);
  const wall = (performance.now() - started) / 1000;
  const main = seen.get(child.pid) ?? 0;
  const others = [...seen].filter(([tid, cpu]) => tid !== child.pid && cpu > 0).sort((a, b) => a[0] - b[0]);
  const sum = main + others.reduce((n, [, cpu]) => n + cpu, 0);
  const list = others.map(([tid, cpu]) => `+${tid - child.pid}:${cpu.toFixed(2)}`).join(' ');
  console.log(`wall ${wall.toFixed(2)} main ${main.toFixed(2)} ${list} sum ${sum.toFixed(2)}`);
});
