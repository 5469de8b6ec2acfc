/**
 * Benchmark (issue 36): hostile documents refused in time and memory.
 *
 * - `validate` of a job whose one document is a 5 MB one-word TXT, a 100 KB
 *   one-word HTML, or a DOCX of 100,000 short paragraphs: wall time, peak
 *   RSS (/usr/bin/time -v), exit code and the code printed. Target: refused
 *   with a code within 10 s and 400 MB.
 * - `signrun serve` (its own process, in memory) sent each as an envelope's
 *   document, while GET /sandbox/health is asked every 20 ms from a third
 *   process (health-prober.mjs: the bench's own work of sending 7 MB never
 *   counts): the answer's time and status, and the slowest and median health
 *   answer during it, and from inside serve (loop-monitor.mjs) its event
 *   loop's longest delay and busy milliseconds. After an unmeasured warm-up
 *   envelope. Then a quiet phase of the same length with no
 *   document: what health costs at this load anyway. Target: refused within
 *   10 s, health within 100 ms throughout.
 *
 *   npm run build && node bench/hostile-documents/run.mjs [--serve-only] [--bin <dist/cli/bin.js>] [--rounds N]
 *
 * --bin runs another build (before/after: main built in another folder);
 * --serve-only skips `validate`; --rounds sends each document N times.
 *
 * Plain JavaScript on the built dist/. Inputs in bench/.tmp/hostile.
 */
import { fork, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';

const option = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const bin = option('bin') ?? fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
const serveOnly = process.argv.includes('--serve-only');
const rounds = Number(option('rounds') ?? 1);
const work = fileURLToPath(new URL('../.tmp/hostile/', import.meta.url));
mkdirSync(work, { recursive: true });

/** A zip of deflated parts (APPNOTE 4.3), as test/helpers/minimal-docx.ts makes one. */
function zip(parts) {
  const locals = [];
  const central = [];
  let offset = 0;
  for (const [name, content] of parts) {
    const data = Buffer.from(content, 'utf8');
    const packed = deflateRawSync(data);
    const fileName = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc32(data), 16);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(fileName.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, fileName, packed);
    central.push(entry, fileName);
    offset += 30 + fileName.length + packed.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

function docxOfParagraphs(count) {
  const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const body = Array.from({ length: count }, (_, i) => `<w:p><w:r><w:t>p${i}</w:t></w:r></w:p>`).join('');
  return zip([
    ['[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'],
    ['_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'],
    ['word/document.xml', `<?xml version="1.0" encoding="UTF-8"?><w:document ${w}><w:body>${body}</w:body></w:document>`],
  ]);
}

const cases = [
  // The baseline: what a command costs on this machine at this load (start-up, pdf.js), a document of one line.
  { name: 'baseline: a one-line TXT', file: 'small.txt', bytes: Buffer.from('Please sign: /sig/\n') },
  { name: '5 MB one-word TXT', file: 'word.txt', bytes: Buffer.alloc(5 * 1024 * 1024, 'x') },
  { name: '100 KB one-word HTML', file: 'word.html', bytes: Buffer.from(`<p>${'x'.repeat(100 * 1024)}</p>`) },
  { name: 'DOCX of 100,000 paragraphs', file: 'paragraphs.docx', bytes: docxOfParagraphs(100_000) },
];

const load = () => loadavg()[0].toFixed(2);
console.log(`${cpus().length} × ${cpus()[0].model}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`);

console.log(`bin: ${bin}`);
if (!serveOnly) console.log('\nvalidate (a job of one envelope, the document with a tab anchored in it):');
for (const c of serveOnly ? [] : cases) {
  const dir = join(work, c.file.replace('.', '-'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, c.file), c.bytes);
  writeFileSync(
    join(dir, 'job.yaml'),
    `version: 1\njob: hostile\ndefaults: { emailSubject: Sign }\nenvelopes:\n  - key: e1\n    documents: [{ name: ${c.file}, file: ${c.file} }]\n    recipients:\n      - name: Jean\n        email: jean@example.com\n        tabs:\n          signHereTabs: [{ anchorString: "/sig/" }]\n`,
  );
  const before = load();
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, bin, 'validate', dir], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const [wall, kb] = r.stderr.trim().split('\n').pop().split(' ');
  const code = /SR_[A-Z_]+/.exec(r.stdout)?.[0] ?? '(none)';
  console.log(`  ${c.name}: exit ${r.status} ${code}, ${wall} s, peak RSS ${Math.round(kb / 1024)} MiB, load ${before} → ${load()}`);
}

console.log('\nsignrun serve (in memory), POST …/envelopes with the document, health asked every 20 ms:');
// loop-monitor.mjs reports, from inside serve, how long its event loop was held and how busy it was.
const monitor = fileURLToPath(new URL('./loop-monitor.mjs', import.meta.url));
const serve = spawn(process.execPath, ['--import', monitor, bin, 'serve', '--port', '0'], {
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
const loop = {
  reset: () => serve.send('loop-reset'),
  read: () => new Promise((resolve) => { serve.once('message', resolve); serve.send('loop-read'); }),
};
const rootUrl = await new Promise((resolve, reject) => {
  let out = '';
  serve.stdout.on('data', (d) => {
    if (out === null) return;
    out += d;
    const m = /listening on (\S+)/.exec(out);
    if (m) {
      out = null;
      resolve(m[1]);
    }
  });
  serve.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
});
const origin = new URL(rootUrl).origin;
const auth = JSON.stringify({ Username: 'sandbox@signrun.test', Password: 'sandbox-password', IntegratorKey: 'sandbox-integrator-key' });
const url = `${rootUrl}/accounts/5a3f0c4e-2b7d-4f1a-9e6c-8d2b1a0f3c11/envelopes`;
const headers = { 'x-docusign-authentication': auth, 'content-type': 'application/json' };
const prober = fork(fileURLToPath(new URL('./health-prober.mjs', import.meta.url)));
const phase = {
  start: () => prober.send({ start: origin }),
  stop: () => new Promise((resolve) => { prober.once('message', resolve); prober.send({ stop: true }); }),
};
const ms = (x) => `${x.toFixed(0)} ms`;
// One ordinary envelope first, unmeasured: the first request pays the password check (scrypt) and the warm-up.
await fetch(url, {
  method: 'POST',
  headers,
  body: JSON.stringify({
    emailSubject: 'Warm-up',
    status: 'sent',
    documents: [{ documentId: '1', name: 'w.txt', fileExtension: 'txt', documentBase64: Buffer.from('Warm up').toString('base64') }],
    recipients: { signers: [{ name: 'A', email: 'a@example.com', recipientId: '1' }] },
  }),
}).then((r) => r.arrayBuffer());
// The prober's first answer pays its own start (undici's first connection): not counted either.
phase.start();
await new Promise((resolve) => setTimeout(resolve, 200));
await phase.stop();
for (let round = 1; round <= rounds; round++) {
  for (const c of cases) {
    const ext = c.file.split('.').pop();
    const body = JSON.stringify({
      emailSubject: 'Hostile',
      status: 'sent',
      documents: [{ documentId: '1', name: c.file, fileExtension: ext, documentBase64: c.bytes.toString('base64') }],
      recipients: { signers: [{ name: 'A', email: 'a@example.com', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' }] } }] },
    });
    const before = load();
    const t = performance.now();
    loop.reset();
    phase.start();
    const r = await fetch(url, { method: 'POST', headers, body });
    const answer = await r.json();
    const took = performance.now() - t;
    const during = await phase.stop();
    const held = await loop.read();
    // The same length of time with no document: what health costs at this load anyway.
    phase.start();
    await new Promise((resolve) => setTimeout(resolve, Math.max(took, 1000)));
    const quiet = await phase.stop();
    console.log(
      `  ${c.name} (${(body.length / 2 ** 20).toFixed(1)} MiB body): ${r.status} ${answer.errorCode ?? ''} in ${(took / 1000).toFixed(2)} s; ` +
        `health during it: ${during.asked} asked, slowest ${ms(during.slowest)}, median ${ms(during.p50)}, ${during.failed} failed; ` +
        `serve's event loop: longest delay ${ms(held.maxDelayMs)}, busy ${ms(held.busyMs)}; ` +
        `quiet after: slowest ${ms(quiet.slowest)}, median ${ms(quiet.p50)}; load ${before} → ${load()}`,
    );
  }
}
prober.send({ exit: true });
serve.kill('SIGTERM');
