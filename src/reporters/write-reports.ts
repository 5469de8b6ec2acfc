import { Readable } from 'node:stream';
import { SignrunError } from '../errors/signrun-error.js';
import { shownUrl } from '../secret.js';
import type { FileRecord, OutputFolder } from '../output/output-folder.js';
import { reportFiles, type ReportFile } from '../output/output-paths.js';
import { reportJsonChunks, reportSourceOf, type ReportSource, type RunReport } from './report-json.js';
import { reportMarkdown } from './report-markdown.js';
import { reportJunitChunks } from './report-junit.js';
import { reportHtml } from './report-html.js';

/**
 * Writes report.json, report.md, junit.xml and report.html at the top of the output
 * folder, each atomically. report.json and junit.xml are streamed as they
 * are made: a run's envelopes are read from its spool, never held whole.
 *
 * One report the disk refuses does not cost the others: each is tried, and
 * then SR_OUTPUT_WRITE names what could not be written, with `details.written`
 * listing the reports that were.
 */
export async function writeReports(out: OutputFolder, report: RunReport | ReportSource): Promise<FileRecord[]> {
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
    'report.html': async (name) => out.writeFile(name, await reportHtml(source)),
  };
  const written: FileRecord[] = [];
  const failures: SignrunError[] = [];
  for (const name of reportFiles) {
    try {
      written.push(await writers[name](name));
    } catch (error) {
      if (!(error instanceof SignrunError) || error.code !== 'SR_OUTPUT_WRITE') throw error;
      failures.push(error);
    }
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
