// Preloaded with `node --import ./bench/validate/main-thread-cpu.mjs dist/cli/bin.js validate …`:
// at exit, prints the main thread's CPU seconds (Linux /proc) and the rest of
// the process's (worker threads, GC helpers), to $SV_THREADS or stderr. On a
// loaded machine wall time says little; the main thread's CPU is what bounds
// `validate`'s wall time on a quiet one, the worker reading PDFs beside it.
import fs from 'node:fs';
import { isMainThread } from 'node:worker_threads';

if (isMainThread)
  process.on('exit', () => {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const main = (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
    const usage = process.cpuUsage();
    const total = (usage.user + usage.system) / 1e6;
    const line = `main ${main.toFixed(2)} other ${(total - main).toFixed(2)} total ${total.toFixed(2)}\n`;
    fs.appendFileSync(process.env.SV_THREADS ?? '/dev/stderr', line);
  });
