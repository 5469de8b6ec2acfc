// The output folder's disk writer: atomic files, records, the result spool. Below the runner. Only re-exports.
export { OutputFolder, type FileRecord, type WriteOptions } from './output-folder.js';
export { writeFileAtomic, writeStreamAtomic, removeLiveTempFiles, type ContentDigest } from './atomic-write.js';
export { ResultSpool } from './result-spool.js';
export {
  reportFiles,
  itemFiles,
  itemFolder,
  itemFile,
  documentFile,
  safeFileName,
  jobFormDataFile,
  previewFiles,
  previewPageFile,
  type ReportFile,
} from './output-paths.js';
export {
  readRecord,
  type EnvelopeJson,
  type RecipientRecord,
  type SigningJson,
  type SigningEntry,
  type AccountJson,
  type FormDataJson,
  type FormDataRecipient,
  type FormDataTab,
} from './records.js';
export { fileDigest } from './file-digest.js';
export { terminalSafe } from './terminal-text.js';
