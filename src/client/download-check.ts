import { Transform, pipeline, type Readable, type TransformCallback } from 'node:stream';
import { SignrunError } from '../errors/signrun-error.js';

/** What a download must be: its kind (its first bytes say it), and the size the service announced, when it did. */
export interface DownloadExpectation {
  /** `pdf`: `%PDF-` within the first 1,024 bytes (as PDF readers accept it); `zip`: `PK\x03\x04` first. */
  kind: 'pdf' | 'zip';
  /** `sizeBytes` of the documents listing (v2.1 `#/definitions/envelopeDocument`), when the service gave it. */
  announcedBytes?: number;
}

/** The most any download may be: 128 MiB (DocuSign takes documents up to 25 MB; a combined PDF of many is larger). */
export const maxDownloadBytes = 128 * 1024 * 1024;

/**
 * The cap of one download: four times what the listing announced plus 1
 * MiB (signatures, stamps and the seal make the completed document larger
 * than the one sent), never more than `max`; `max` when nothing was announced.
 */
export function downloadCap(expectation: DownloadExpectation, max = maxDownloadBytes): number {
  const announced = expectation.announcedBytes;
  if (announced === undefined || !Number.isFinite(announced) || announced < 0) return max;
  return Math.min(max, announced * 4 + 1024 * 1024);
}

/** How far into a PDF its header may start (PDF readers look in the first 1,024 bytes). */
const pdfHeaderWindow = 1024;
/** A ZIP archive's local file header (APPNOTE.TXT 4.3.7). */
const zipSignature = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * The body of a download as the sink reads it, checked on the way (issue
 * 25): its first bytes must be what `kind` says — an HTML page served with
 * status 200 is not stored as `1-one.pdf` — and it may not grow past `cap`
 * bytes, so a body that never ends does not fill the disk. Either failure
 * errors the stream with a coded error (SR_DOWNLOAD_NOT_DOCUMENT,
 * SR_DOWNLOAD_TOO_LARGE) that the sink passes on after removing its temp
 * file (output/atomic-write.ts), and the source is destroyed, so its
 * connection is let go. Not a break of the stream: never retried.
 */
export function checkedDownload(
  body: Readable,
  expectation: DownloadExpectation,
  what: string,
  cap = downloadCap(expectation),
): Readable {
  const needed = expectation.kind === 'pdf' ? pdfHeaderWindow : zipSignature.length;
  const hasHeader = (bytes: Buffer) =>
    expectation.kind === 'pdf'
      ? bytes.subarray(0, pdfHeaderWindow).includes('%PDF-')
      : bytes.subarray(0, zipSignature.length).equals(zipSignature);
  let head: Buffer | undefined = Buffer.alloc(0);
  let size = 0;
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      size += chunk.length;
      if (size > cap) return done(downloadTooLarge(what, cap, expectation.announcedBytes));
      if (head === undefined) return done(null, chunk);
      // The first bytes are held until they show the header (or show it is not there).
      head = Buffer.concat([head, chunk]);
      if (hasHeader(head)) {
        const bytes = head;
        head = undefined;
        return done(null, bytes);
      }
      if (head.length >= needed) return done(notDocument(what, expectation.kind, head));
      done();
    },
    flush(done: TransformCallback) {
      if (head !== undefined) return done(notDocument(what, expectation.kind, head));
      done();
    },
  });
  // Errors either way: the source's reach the reader; the check's destroy the source.
  pipeline(body, check, () => undefined);
  return check;
}

function notDocument(what: string, kind: 'pdf' | 'zip', head: Buffer): SignrunError {
  const looksLike = /^\s*</.test(head.subarray(0, 64).toString('latin1')) ? ' (it looks like HTML or XML)' : '';
  return new SignrunError(
    'SR_DOWNLOAD_NOT_DOCUMENT',
    `${what} is not a ${kind === 'pdf' ? 'PDF (no %PDF- header)' : 'ZIP archive (no PK signature)'}${looksLike}: nothing was written`,
    { details: { kind, firstBytes: head.length } },
  );
}

/** SR_DOWNLOAD_TOO_LARGE for `what`. */
export function downloadTooLarge(what: string, cap: number, announced: number | undefined): SignrunError {
  return new SignrunError(
    'SR_DOWNLOAD_TOO_LARGE',
    `${what} grew past ${cap} bytes${announced !== undefined ? ` (the service announced ${announced})` : ''}: stopped, nothing was written`,
    { details: { capBytes: cap, ...(announced !== undefined ? { announcedBytes: announced } : {}) } },
  );
}
