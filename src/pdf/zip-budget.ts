import { inflateRawSync } from 'node:zlib';

/** How much a zip (a DOCX) may unpack to before mammoth is let at it. */
export interface ZipBudget {
  /** Most bytes all its parts may inflate to together. */
  readonly unpackedBytes: number;
  /** Most parts (central directory entries). */
  readonly entries: number;
}

/** Why a zip is refused: it is not one signrun reads, or it is over budget. */
export type ZipProblem = { kind: 'unreadable' | 'unpackedBytes' | 'zipEntries' | 'paragraphs'; message: string };

/** Looks at one part as it is unpacked (its name in the zip, its bytes); returns a problem to stop there. */
export type ZipPartCheck = (name: string, data: Buffer) => ZipProblem | undefined;

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * Checks a zip against a budget by inflating every part here first, each
 * bounded by what is left of the budget (zlib's maxOutputLength stops at the
 * limit instead of allocating the whole), and by checking that each part is
 * as long as its central directory entry says. mammoth's unzipper (JSZip)
 * would inflate a part whole, whatever it inflates to: a 100 KB DOCX can
 * hold gigabytes of XML. Only what the ZIP format (APPNOTE 4.3) needs for a
 * DOCX is read: stored and deflated parts, no zip64, no encryption. Each
 * part, once unpacked, is shown to `check` (if given), so that what is in it
 * can be measured without unpacking it twice. Returns the problem, or
 * undefined when the zip is within budget.
 */
export function zipBudgetProblem(bytes: Uint8Array, budget: ZipBudget, check?: ZipPartCheck): ZipProblem | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const unreadable = (why: string): ZipProblem => ({
    kind: 'unreadable',
    message: `it is not a readable zip (${why})`,
  });
  // The end of central directory record is 22 bytes, followed by a comment of at most 65,535 (4.3.16).
  let eocd = -1;
  for (let at = buf.length - 22; at >= Math.max(0, buf.length - 22 - 0xffff); at--) {
    if (buf.readUInt32LE(at) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) return unreadable('no end of central directory');
  const count = buf.readUInt16LE(eocd + 10);
  const directoryOffset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) return unreadable('zip64 is not read');
  if (count > budget.entries)
    return { kind: 'zipEntries', message: `it has ${count} parts, more than ${budget.entries}` };
  let left = budget.unpackedBytes;
  const over = (): ZipProblem => ({
    kind: 'unpackedBytes',
    message: `it unpacks to more than ${Math.round(budget.unpackedBytes / (1024 * 1024))} MiB`,
  });
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL) return unreadable('a broken central directory');
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const compressedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    if (flags & 0x1) return unreadable('an encrypted part');
    if (size > left) return over();
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL) return unreadable('a broken local header');
    const dataStart = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(dataStart, dataStart + compressedSize);
    let unpacked: Buffer;
    if (method === 0) unpacked = data;
    else if (method === 8) {
      try {
        // One byte more than it claims: a part that lies about its size is caught, and still bounded.
        unpacked = inflateRawSync(data, { maxOutputLength: Math.min(left, size) + 1 });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
          return unreadable('a part that unpacks to more than its entry says');
        return unreadable('a part that does not inflate');
      }
    } else return unreadable(`a part compressed with method ${method}`);
    if (unpacked.length !== size) return unreadable('a part longer or shorter than its entry says');
    left -= unpacked.length;
    const problem = check?.(name, unpacked);
    if (problem) return problem;
  }
  return undefined;
}
