// bench/preview: how long `signrun preview` takes, and how much memory, for a
// campaign of 1,000 rows (forEach over a CSV) over one two-page letter: four
// tabs per envelope placed by anchor text, two of them with a value from the
// row ("Employee:" case-sensitive: it is also in "Signature of the employee:",
// which the preview finds as an overlap), so every envelope gives a preview.pdf and two PNGs (2,000 pages).
// Target (issue 22): under 60 s on a 2-core machine, memory flat in the rows
// (a second case with 4x the rows shows the peak RSS does not grow with them).
// Usage: npm run build && node bench/preview/run.mjs [rows]
//   --sigterm: issue 36's stop instead (default 5,000 rows): one SIGTERM once
//   a few envelopes are drawn; how long until it exits (target: within 5 s,
//   exit 130), the envelopes it drew, and any temporary file left behind.
// Inputs are generated into bench/.tmp/preview/<rows> (delete to regenerate).
// Wall time and peak RSS come from /usr/bin/time -v around the real bin.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sigterm = process.argv.includes('--sigterm');
const counted = process.argv.slice(2).find((a) => /^\d+$/.test(a));
const rows = Number(counted ?? (sigterm ? 5_000 : 1_000));
const firstNames = ['Ann', 'Bruno', 'Chloé', 'Dmitri', 'Emma', 'Farid', 'Greta', 'Hiro', 'Inès', 'Jonas'];
const lastNames = ['Martin', 'Okafor', 'Nakamura', 'García', 'Schmidt', 'Rossi', 'Dubois', 'Novak', 'Silva', 'Berg'];
const person = (i) => `${firstNames[i % 10]} ${lastNames[Math.floor(i / 10) % 10]}`;

async function letter() {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const pages = [
    ['Dear colleague,', 'Your employment contract is renewed for twelve months.', 'Employee:', 'Salary:'],
    ['Signature of the employee:', '', '', 'Date:'],
  ];
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 60, y: 720 - i * 24, size: 12, font }));
  }
  return pdf.save();
}

function csv(count) {
  const lines = ['employeeId,name,email,salary'];
  for (let i = 0; i < count; i++)
    lines.push(`E${100000 + i},${person(i)},employee${i}@example.com,${40000 + (i % 50) * 1000}`);
  return `${lines.join('\n')}\n`;
}

const job = `version: 1
job: bench-preview
defaults:
  emailSubject: Your contract renewal
envelopes:
  - key: renewal-\${row.employeeId}
    forEach: { csv: renewals.csv }
    documents:
      - { name: renewal.pdf, file: docs/renewal.pdf }
    recipients:
      - name: \${row.name}
        email: \${row.email}
        tabs:
          textTabs:
            - { tabLabel: Name, value: "\${row.name}", locked: true, anchorString: "Employee:", anchorCaseSensitive: true, anchorXOffset: 90, anchorYOffset: -4, width: 200 }
            - { tabLabel: Salary, value: "\${row.salary}", locked: true, anchorString: "Salary:", anchorXOffset: 90, anchorYOffset: -4, width: 100 }
          signHereTabs: [{ anchorString: "Signature of the employee:", anchorXOffset: 170, anchorYOffset: -20 }]
          dateSignedTabs: [{ anchorString: "Date:", anchorXOffset: 90, anchorYOffset: -4 }]
`;

async function prepare(count) {
  const folder = join(root, 'bench/.tmp/preview', String(count));
  if (!existsSync(join(folder, 'job.yaml'))) {
    mkdirSync(join(folder, 'docs'), { recursive: true });
    writeFileSync(join(folder, 'renewals.csv'), csv(count));
    writeFileSync(join(folder, 'docs/renewal.pdf'), await letter());
    writeFileSync(join(folder, 'job.yaml'), job);
  }
  return folder;
}

function measure(folder) {
  const out = join(folder, 'out');
  rmSync(out, { recursive: true, force: true });
  const bin = join(root, 'dist/cli/bin.js');
  const before = loadavg()[0];
  const result = spawnSync('/usr/bin/time', ['-v', process.execPath, bin, 'preview', folder, '--out', out], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (result.status !== 0) throw new Error(`preview failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(result.stderr);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr);
  const user = Number(/User time \(seconds\): ([\d.]+)/.exec(result.stderr)[1]);
  const system = Number(/System time \(seconds\): ([\d.]+)/.exec(result.stderr)[1]);
  const seconds = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  const summary = /previewed .*/.exec(result.stderr)?.[0] ?? '';
  return { seconds, cpu: user + system, rssMiB: Number(rss[1]) / 1024, summary, load: [before, loadavg()[0]] };
}

/**
 * `preview` of the campaign, sent one SIGTERM once `drawnFirst` envelopes
 * have their preview.pdf (polled every 50 ms): the time from the signal to
 * the exit, the exit code, the envelopes drawn, the temporary files left.
 */
async function stopOnSigterm(folder, drawnFirst = 5) {
  const out = join(folder, 'out');
  rmSync(out, { recursive: true, force: true });
  const bin = join(root, 'dist/cli/bin.js');
  const child = spawn(process.execPath, [bin, 'preview', folder, '--out', out], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on('close', (code) => resolve(code)));
  const files = () => (existsSync(out) ? readdirSync(out, { recursive: true }).map(String) : []);
  const pdfs = () => files().filter((f) => f.endsWith('preview.pdf')).length;
  const started = performance.now();
  while (pdfs() < drawnFirst && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
  const load = loadavg()[0];
  const signalled = performance.now();
  child.kill('SIGTERM');
  const code = await exited;
  const stopped = performance.now();
  const left = files();
  return {
    beforeSignal: (signalled - started) / 1000,
    toExit: (stopped - signalled) / 1000,
    code,
    drawn: left.filter((f) => f.endsWith('preview.pdf')).length,
    temporary: left.filter((f) => /\.tmp$/.test(f)),
    summary: /interrupted .*/.exec(stderr)?.[0] ?? stderr.trim().split('\n').at(-1),
    load: [load, loadavg()[0]],
  };
}

const node = execFileSync(process.execPath, ['--version'], { encoding: 'utf8' }).trim();
console.log(
  `machine: ${cpus().length} cores (${cpus()[0]?.model}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${node}`,
);
if (sigterm) {
  const folder = await prepare(rows);
  const r = await stopOnSigterm(folder);
  console.log(`${rows} rows, SIGTERM after ${r.beforeSignal.toFixed(1)} s (${r.drawn} envelopes drawn by the exit)`);
  console.log(
    `  exit ${r.code} ${r.toExit.toFixed(2)} s after the signal (target: 130 within 5 s); temporary files left: ${r.temporary.length}${r.temporary.length ? ` (${r.temporary.join(', ')})` : ''}; load average ${r.load.map((l) => l.toFixed(1)).join(' → ')} (on ${cpus().length} cores)`,
  );
  console.log(`  ${r.summary}`);
  process.exit(r.code === 130 && r.toExit < 5 && r.temporary.length === 0 ? 0 : 1);
}
for (const count of [rows, ...(process.argv.includes('--flat') ? [rows * 4] : [])]) {
  const folder = await prepare(count);
  const r = measure(folder);
  console.log(`${String(count).padStart(5)} rows  ${r.summary.replace(/ → .*/, '')}`);
  console.log(
    `${''.padEnd(11)} wall ${r.seconds.toFixed(1)} s (target < 60 s for 1,000 rows); CPU (user+sys) ${r.cpu.toFixed(1)} s; peak RSS ${r.rssMiB.toFixed(0)} MiB; load average ${r.load.map((l) => l.toFixed(1)).join(' → ')} (on ${cpus().length} cores)`,
  );
}
