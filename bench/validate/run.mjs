// bench/validate: how long `signrun validate` takes, and how much memory, on a
// job that expands to 10,000 envelopes (forEach over a 10,000-row CSV, a
// 2-page PDF per envelope). Three cases:
//   shared   every envelope uses one PDF (read once, cached by path)
//   anchored the shared PDF, with three tabs per envelope placed by anchor
//            text and a value from the row (issue 19: each anchor is looked
//            for in the PDF's text, extracted once)
//   per-row  every envelope has its own PDF, as an HR campaign with
//            personalised letters does (10,000 PDFs to read and hash)
// Usage: npm run build && node bench/validate/run.mjs [rows] [--bin <another build's dist/cli/bin.js>]
// Inputs are generated once into bench/.tmp/validate (delete it to regenerate);
// --bin measures another build (e.g. main built elsewhere) on the same inputs.
// Wall time and peak RSS come from /usr/bin/time -v around the real bin.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const root = fileURLToPath(new URL('../..', import.meta.url));
const binAt = process.argv.indexOf('--bin');
const bin = binAt > 0 ? process.argv[binAt + 1] : join(root, 'dist/cli/bin.js');
const positional = process.argv.slice(2).filter((_, i, all) => all[i] !== '--bin' && all[i - 1] !== '--bin');
const rows = Number(positional[0] ?? 10_000);
const base = join(root, 'bench/.tmp/validate', String(rows));
const firstNames = ['Ann', 'Bruno', 'Chloé', 'Dmitri', 'Emma', 'Farid', 'Greta', 'Hiro', 'Inès', 'Jonas'];
const lastNames = ['Martin', 'Okafor', 'Nakamura', 'García', 'Schmidt', 'Rossi', 'Dubois', 'Novak', 'Silva', 'Berg'];
const person = (i) => `${firstNames[i % 10]} ${lastNames[Math.floor(i / 10) % 10]}`;

async function letter(name) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const pages = [
    [`Dear ${name},`, 'Your employment contract is renewed for twelve months.'],
    ['Signature of the employee:', '______________________________'],
  ];
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 60, y: 720 - i * 18, size: 12, font }));
  }
  return pdf.save();
}

function csv() {
  const lines = ['employeeId,name,email,language,manager,managerEmail'];
  for (let i = 0; i < rows; i++) {
    lines.push(`E${100000 + i},${person(i)},employee${i}@example.com,${i % 3 === 0 ? 'fr' : 'en'},${person(i + 7)},manager${i % 50}@example.com`);
  }
  return `${lines.join('\n')}\n`;
}

function anchoredJob() {
  return `version: 1
job: bench-anchored
defaults:
  emailSubject: Your contract renewal
  returnUrl: https://hr.example.com/signing-done
envelopes:
  - key: renewal-\${row.employeeId}
    forEach: { csv: renewals.csv }
    documents:
      - { name: renewal.pdf, file: docs/renewal.pdf }
    recipients:
      - name: \${row.name}
        email: \${row.email}
        clientUserId: emp-\${row.employeeId}
        tabs:
          signHereTabs: [{ anchorString: "Signature of the employee:", anchorYOffset: 20 }]
          textTabs: [{ tabLabel: Name, value: "\${row.name}", locked: true, anchorString: "Dear", anchorXOffset: 40 }]
          dateSignedTabs: [{ anchorString: "______________________________", anchorYOffset: 14 }]
`;
}

function job(name, file) {
  return `version: 1
job: bench-${name}
defaults:
  emailSubject: Your contract renewal
  returnUrl: https://hr.example.com/signing-done
envelopes:
  - key: renewal-\${row.employeeId}
    forEach: { csv: renewals.csv }
    documents:
      - { name: renewal.pdf, file: "${file}" }
    recipients:
      - name: \${row.name}
        email: \${row.email}
        clientUserId: emp-\${row.employeeId}
        supportedLanguage: \${row.language}
        tabs: [{ pageNumber: 2, xPosition: 60, yPosition: 150 }]
      - name: \${row.manager}
        email: \${row.managerEmail}
        routingOrder: 2
`;
}

async function prepare() {
  const shared = join(base, 'shared');
  const anchored = join(base, 'anchored');
  const perRow = join(base, 'per-row');
  if (!existsSync(join(anchored, 'job.yaml'))) {
    mkdirSync(join(anchored, 'docs'), { recursive: true });
    writeFileSync(join(anchored, 'renewals.csv'), csv());
    writeFileSync(join(anchored, 'docs/renewal.pdf'), await letter('colleague'));
    writeFileSync(join(anchored, 'job.yaml'), anchoredJob());
  }
  if (!existsSync(join(perRow, 'done'))) {
    console.log(`generating ${rows} rows and ${rows} PDFs into ${base} (once) …`);
    mkdirSync(join(shared, 'docs'), { recursive: true });
    mkdirSync(join(perRow, 'letters'), { recursive: true });
    const table = csv();
    writeFileSync(join(shared, 'renewals.csv'), table);
    writeFileSync(join(perRow, 'renewals.csv'), table);
    writeFileSync(join(shared, 'docs/renewal.pdf'), await letter('colleague'));
    writeFileSync(join(shared, 'job.yaml'), job('shared', 'docs/renewal.pdf'));
    writeFileSync(join(perRow, 'job.yaml'), job('per-row', 'letters/${row.employeeId}.pdf'));
    for (let i = 0; i < rows; i++) writeFileSync(join(perRow, 'letters', `E${100000 + i}.pdf`), await letter(person(i)));
    writeFileSync(join(perRow, 'done'), '');
  }
  return { shared, anchored, perRow };
}

function measure(folder) {
  const result = spawnSync('/usr/bin/time', ['-v', process.execPath, bin, 'validate', folder], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (result.status !== 0) throw new Error(`validate failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(result.stderr);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr);
  const user = Number(/User time \(seconds\): ([\d.]+)/.exec(result.stderr)[1]);
  const system = Number(/System time \(seconds\): ([\d.]+)/.exec(result.stderr)[1]);
  const seconds = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  return { seconds, cpu: user + system, rssMiB: Number(rss[1]) / 1024, summary: result.stdout.trim().split('\n').pop() };
}

const { shared, anchored, perRow } = await prepare();
const node = execFileSync(process.execPath, ['--version'], { encoding: 'utf8' }).trim();
console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${node}; bin ${bin}`);
for (const [name, folder] of [['shared PDF', shared], ['anchored', anchored], ['per-row PDFs', perRow]]) {
  const runs = [measure(folder), measure(folder), measure(folder)];
  const best = runs.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
  const peak = Math.max(...runs.map((r) => r.rssMiB));
  console.log(`${name.padEnd(13)} ${best.summary}`);
  console.log(`${''.padEnd(13)} wall ${runs.map((r) => r.seconds.toFixed(2)).join(' / ')} s (best ${best.seconds.toFixed(2)} s, target < 2 s); CPU (user+sys) ${runs.map((r) => r.cpu.toFixed(2)).join(' / ')} s; peak RSS ${peak.toFixed(0)} MiB (target < 200 MiB)`);
}
console.log(`load average while measuring: ${loadavg().map((l) => l.toFixed(1)).join(' ')} (on ${cpus().length} cores; wall time exceeds CPU time when other work competes)`);
