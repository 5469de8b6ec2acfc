import type { FileRecord, OutputFolder } from './output-folder.js';
import { reportJsonChunks, type RunReport } from './report-json.js';
import { Readable } from 'node:stream';
import { reportMarkdown } from './report-markdown.js';
import { reportJunit } from './report-junit.js';

/** Writes report.json, report.md and junit.xml at the top of the output folder, each atomically. */
export async function writeReports(out: OutputFolder, report: RunReport): Promise<FileRecord[]> {
  return [
    await out.writeStream('report.json', Readable.from(reportJsonChunks(report))),
    await out.writeFile('report.md', reportMarkdown(report)),
    await out.writeFile('junit.xml', reportJunit(report)),
  ];
}
