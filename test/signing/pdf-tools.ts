import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const run = promisify(execFile);

/** Runs a poppler/qpdf tool; resolves with stdout+stderr and the exit code (never throws on exit != 0). */
export async function tool(cmd: string, args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(cmd, args, { maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code?: number | string; stdout?: string; stderr?: string };
    // A missing tool would otherwise surface as "expected 1 to be +0".
    if (err.code === 'ENOENT')
      throw new Error(
        `${cmd} is not installed: the PDF checks need poppler-utils (pdftotext, pdfsig) and qpdf (Debian/Ubuntu: sudo apt-get install poppler-utils qpdf; .ci/run installs them)`,
        { cause: e },
      );
    return { code: typeof err.code === 'number' ? err.code : 1, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

/** Writes bytes to a fresh temp file and returns its path. */
export function tempPdf(bytes: Uint8Array, name = 'doc.pdf'): string {
  const dir = mkdtempSync(join(tmpdir(), 'signrun-pdf-'));
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** A plain A4/Letter-like PDF with `pages` pages, each saying "Page N of <title>". */
export async function samplePdf(title: string, pages = 1, size: [number, number] = [612, 792]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage(size);
    page.drawText(`Page ${i} of ${title}`, { x: 72, y: size[1] - 72, size: 14, font });
  }
  return doc.save();
}

/** Words found by `pdftotext -bbox` on one page: coordinates in points from the top-left. */
export async function wordsOnPage(
  path: string,
  page: number,
): Promise<{ word: string; xMin: number; yMin: number; yMax: number }[]> {
  const { out } = await tool('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), path, '-']);
  const words: { word: string; xMin: number; yMin: number; yMax: number }[] = [];
  const re = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g;
  for (const m of out.matchAll(re)) {
    words.push({ xMin: Number(m[1]), yMin: Number(m[2]), yMax: Number(m[3]), word: m[4] ?? '' });
  }
  return words;
}
