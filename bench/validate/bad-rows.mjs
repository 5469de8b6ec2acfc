// A 1,200-row job of one letter a row with bad rows and bad letters (two one-page letters, a page too
// small, a file that is not a PDF, a missing one, a bad email cell, a bad language cell), from
// run.mjs's per-row case: the worker's path, for byte-for-byte checks of validate's output
// against another build (text and --format json).
//   node bench/validate/run.mjs && node bench/validate/bad-rows.mjs   # into bench/.tmp/validate/bad
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
const src = fileURLToPath(new URL('../.tmp/validate/10000/per-row', import.meta.url));
const dst = fileURLToPath(new URL('../.tmp/validate/bad', import.meta.url));
rmSync(dst, { recursive: true, force: true });
mkdirSync(join(dst, 'letters'), { recursive: true });
const lines = readFileSync(join(src, 'renewals.csv'), 'utf8').split('\n').slice(0, 1201);
lines[50] = lines[50].replace(/employee\d+@example.com/, 'not-an-email');
lines[700] = lines[700].replace(/,(fr|en),/, ',xx-YY-bad,');
writeFileSync(join(dst, 'renewals.csv'), lines.join('\n') + '\n');
writeFileSync(join(dst, 'job.yaml'), readFileSync(join(src, 'job.yaml')));
for (let i = 0; i < 1200; i++)
  copyFileSync(join(src, 'letters', `E${100000 + i}.pdf`), join(dst, 'letters', `E${100000 + i}.pdf`));
const onePage = async (size) => {
  const d = await PDFDocument.create();
  d.addPage(size);
  return d.save();
};
writeFileSync(join(dst, 'letters/E100010.pdf'), await onePage([595, 842]));
writeFileSync(join(dst, 'letters/E100390.pdf'), await onePage([595, 842]));
const small = await PDFDocument.create();
small.addPage([100, 100]);
small.addPage([100, 100]);
writeFileSync(join(dst, 'letters/E100500.pdf'), await small.save());
writeFileSync(join(dst, 'letters/E100800.pdf'), 'not a PDF\n');
rmSync(join(dst, 'letters/E101000.pdf'));
