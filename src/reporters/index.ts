// Reporters: content from a run's summary (json, md, junit, console, progress), above the runner. Only re-exports.
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
export { writeReports } from './write-reports.js';
export { consoleSummary, type ConsoleSummaryOptions } from './console-summary.js';
export {
  createProgress,
  createProgressCounter,
  type Progress,
  type ProgressCounter,
  type ProgressOptions,
} from './progress.js';
export { checkReport, reportSchema } from './report-schema.js';
export { mergeReports } from './merge-reports.js';
