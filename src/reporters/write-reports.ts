import { Readable } from 'node:stream';
import type { FileRecord, OutputFolder } from '../output/output-folder.js';
import { reportJsonChunks, reportSourceOf, type ReportSource, type RunReport } from './report-json.js';
import { reportMarkdown } from './report-markdown.js';
import { reportJunitChunks } from './report-junit.js';

/**
 * Writes report.json, report.md and junit.xml at the top of the output
 * folder, each atomically. report.json and junit.xml are streamed as they
 * are made: a run's envelopes are read from its spool, never held whole.
 */
export async function writeReports(out: OutputFolder, report: RunReport | ReportSource): Promise<FileRecord[]> {
  const source = 'head' in report ? report : reportSourceOf(report);
  return [
    await out.writeStream('report.json', Readable.from(reportJsonChunks(source))),
    await out.writeFile('report.md', await reportMarkdown(source)),
    await out.writeStream('junit.xml', Readable.from(reportJunitChunks(source))),
  ];
}
