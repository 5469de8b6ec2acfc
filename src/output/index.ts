export { OutputFolder, safeFileName, type FileRecord, type WriteOptions } from './output-folder.js';
export { writeFileAtomic, writeStreamAtomic, type ContentDigest } from './atomic-write.js';
export {
  reportOf,
  reportSourceOf,
  reportJson,
  reportJsonChunks,
  type RunReport,
  type ReportHead,
  type ReportSource,
} from './report-json.js';
export { reportMarkdown } from './report-markdown.js';
export { reportJunit, reportJunitChunks } from './report-junit.js';
export { ResultSpool } from './result-spool.js';
export { writeReports } from './write-reports.js';
export { consoleSummary, type ConsoleSummaryOptions } from './console-summary.js';
export { createProgress, type Progress, type ProgressOptions } from './progress.js';
export {
  itemFolder,
  readRecord,
  type EnvelopeRecord,
  type RecipientRecord,
  type SigningRecord,
  type SigningEntry,
  type AccountRecord,
} from './records.js';
export { checkReport, reportSchema } from './report-schema.js';
export { mergeReports } from './merge-reports.js';
export { fileDigest } from './file-digest.js';
