import { existsSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { SignrunError } from '../errors/signrun-error.js';
import { shownUrl } from '../secret.js';
import type { FileRecord, OutputFolder } from '../output/output-folder.js';
import { itemFolder, previewFiles, reportFiles, type ReportFile } from '../output/output-paths.js';
import { reportJsonChunks, reportSourceOf, type ReportSource, type RunReport } from './report-json.js';
import { reportMarkdown } from './report-markdown.js';
import { reportJunitChunks } from './report-junit.js';
import { reportHtml } from './report-html.js';

/**
 * Where `signrun preview` puts its files by default (`preview/` of the
 * working folder), and a `preview/` inside the output folder: the folders
 * report.html looks in for each envelope's preview.
 */
export function previewDirsOf(cwd: string, outDir: string): string[] {
  return [path.join(outDir, 'preview'), path.join(cwd, 'preview')];
}

/**
 * Where report.html links an envelope to its preview: `preview.pdf` of
 * `signrun preview` in the first of `dirs` that has one for the envelope
 * (`<dir>/<job>/<key>/preview.pdf`), relative to the output folder.
 */
function previewLinks(root: string, dirs: readonly string[]): (job: string, key: string) => string | undefined {
  return (job, key) => {
    for (const dir of dirs) {
      const file = path.join(dir, itemFolder(job, key), previewFiles.pdf);
      if (existsSync(file)) return path.relative(root, file).split(path.sep).map(encodeURIComponent).join('/');
    }
    return undefined;
  };
}

/** The reports made whole in memory before they are written; the others are streamed from the spool. */
const madeWhole: ReadonlySet<ReportFile> = new Set(['report.md', 'report.html']);
/** The streamed reports, and those made whole: written side by side, each lane in reportFiles' order. */
const reportLanes = [reportFiles.filter((n) => !madeWhole.has(n)), reportFiles.filter((n) => madeWhole.has(n))];

/**
 * Writes report.json, report.md, junit.xml and report.html at the top of the output
 * folder, each atomically. report.json and junit.xml are streamed as they
 * are made: a run's envelopes are read from its spool, never held whole.
 *
 * One report the disk refuses does not cost the others: each is tried, and
 * then SR_OUTPUT_WRITE names what could not be written, with `details.written`
 * listing the reports that were.
 */
export async function writeReports(
  out: OutputFolder,
  report: RunReport | ReportSource,
  options: { previewDirs?: readonly string[] } = {},
): Promise<FileRecord[]> {
  const given = 'head' in report ? report : reportSourceOf(report);
  // Every report goes through here (a run's, a stopped run's, a merged one): none shows a credential of the address.
  const source: ReportSource = {
    ...given,
    head: { ...given.head, target: { ...given.head.target, rootUrl: shownUrl(given.head.target.rootUrl) } },
  };
  // Keyed by output-paths.ts's names: each writer writes the file it is keyed by.
  const writers: Record<ReportFile, (name: ReportFile) => Promise<FileRecord>> = {
    'report.json': (name) => out.writeStream(name, Readable.from(reportJsonChunks(source))),
    'report.md': async (name) => out.writeFile(name, await reportMarkdown(source)),
    'junit.xml': (name) => out.writeStream(name, Readable.from(reportJunitChunks(source))),
    'report.html': async (name) =>
      out.writeFile(name, await reportHtml(source, { previewHref: previewLinks(out.root, options.previewDirs ?? []) })),
  };
  // Two lanes at once, each report after the other within its lane: a report's wait on the disk (its
  // spool reads, its fsync) overlaps the other lane's work, and no two of the reports made whole in
  // memory (report.md, report.html) are held at the same time.
  const settled = new Map<ReportFile, PromiseSettledResult<FileRecord>>();
  await Promise.all(
    reportLanes.map(async (lane) => {
      for (const name of lane) {
        try {
          settled.set(name, { status: 'fulfilled', value: await writers[name](name) });
        } catch (reason) {
          settled.set(name, { status: 'rejected', reason });
        }
      }
    }),
  );
  const written: FileRecord[] = [];
  const failures: SignrunError[] = [];
  for (const name of reportFiles) {
    const result = settled.get(name);
    if (result?.status === 'fulfilled') written.push(result.value);
    else if (result?.reason instanceof SignrunError && result.reason.code === 'SR_OUTPUT_WRITE')
      failures.push(result.reason);
    else throw result?.reason;
  }
  const first = failures[0];
  if (first) {
    const names = written.map((f) => f.path);
    throw new SignrunError(
      'SR_OUTPUT_WRITE',
      `${failures.map((f) => f.message).join('; ')} (${names.length > 0 ? `written: ${names.join(', ')}` : 'no report could be written'})`,
      { cause: first, details: { written: names } },
    );
  }
  return written;
}
