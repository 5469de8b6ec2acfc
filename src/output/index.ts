// The output folder's disk writer: atomic files, records, the result spool. Below the runner. Only re-exports.
export { OutputFolder, safeFileName, type FileRecord, type WriteOptions } from './output-folder.js';
export { writeFileAtomic, writeStreamAtomic, type ContentDigest } from './atomic-write.js';
export { ResultSpool } from './result-spool.js';
export {
  itemFolder,
  readRecord,
  type EnvelopeJson,
  type RecipientRecord,
  type SigningJson,
  type SigningEntry,
  type AccountJson,
} from './records.js';
export { fileDigest } from './file-digest.js';
