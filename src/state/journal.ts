import { constants } from 'node:fs';
import { mkdir, open, readFile, truncate, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SignrunError } from '../errors/signrun-error.js';
import { isJournalRecord, type JournalRecord, type NewJournalRecord } from './journal-record.js';

/** Name of the journal inside the state folder. */
export const journalFileName = 'journal.jsonl';

/** A line of the journal that was not taken as a record. */
export interface SkippedLine {
  /** 1-based line number in the file. */
  line: number;
  /**
   * `torn`: the last line, cut short by a crash mid-write (its step was never
   * acknowledged, so it is taken as not done); `invalid-json` / `not-a-record`:
   * a damaged line elsewhere (edited by hand, disk fault).
   */
  reason: 'torn' | 'invalid-json' | 'not-a-record';
  /** Length of the line in bytes (its text is not repeated: it could be anything). */
  bytes: number;
}

/** What reading the journal found. */
export interface JournalReadResult {
  /** Path of the journal file. */
  path: string;
  /** The records, in the order they were written. */
  records: JournalRecord[];
  /** Lines that were not records; empty for a healthy journal. */
  skipped: SkippedLine[];
}

/**
 * The file operations the journal needs. Injectable only so that a test can
 * observe their order (the real file system cannot show when an fsync
 * happened); the default is the real file opened in append mode.
 */
export interface JournalFile {
  /** Appends the bytes at the end of the file. */
  write(text: string): Promise<void>;
  /** Flushes the file's data to the disk (fdatasync); nothing to do when every write is durable (O_DSYNC). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** Opens `path` for appending, creating it when missing. Default: the real file. */
export type JournalFileOpener = (path: string) => Promise<JournalFile>;

/**
 * Opened with O_DSYNC where the platform has it: each write returns only once
 * its bytes are on the disk, as a write then an fdatasync would, but in one
 * operation of the thread pool instead of two (each hand-off to the pool
 * costs the run's event loop about as much as the write itself). Elsewhere
 * (Windows), appended and then fdatasync'ed.
 */
const durableAppend = constants.O_DSYNC;

const openRealFile: JournalFileOpener = async (path) => {
  const handle: FileHandle = await open(
    path,
    durableAppend === undefined ? 'a' : constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | durableAppend,
    0o600,
  );
  // fsync the folder too, so the journal's directory entry survives a power
  // cut on a freshly created state folder (a file's fsync does not cover it).
  const dir = await open(dirname(path), 'r');
  await dir.sync().finally(() => dir.close());
  return {
    write: async (text) => {
      const bytes = Buffer.from(text, 'utf8');
      // A regular file takes the whole buffer at once; the loop is for a short write all the same.
      for (let at = 0; at < bytes.length;) at += (await handle.write(bytes, at, bytes.length - at)).bytesWritten;
    },
    sync: durableAppend === undefined ? () => handle.datasync() : async () => {},
    close: () => handle.close(),
  };
};

/** Options of `openJournal`. */
export interface OpenJournalOptions {
  /** How the journal file is opened; default: the real file in append mode. Tests only. */
  openFile?: JournalFileOpener;
  /** Time source for the `at` field; default `Date.now`. */
  now?: () => number;
}

/**
 * The append-only journal of a state folder. Each `append` resolves only
 * after the record is written AND fsync'ed: the caller takes the step it
 * records as done only then (for `create-intent`, only then sends the create
 * call). Appends are written one at a time in call order, whatever the
 * concurrency of the caller.
 */
export interface Journal {
  /** Path of the journal file. */
  readonly path: string;
  /**
   * Writes one record and fsyncs it. Rejects with SR_OUTPUT_WRITE when the
   * disk refuses; after that every later append rejects too, since the file
   * may end with a torn line (the next run's `openJournal` repairs it).
   */
  append(record: NewJournalRecord): Promise<void>;
  /** Waits for pending appends and closes the file. */
  close(): Promise<void>;
}

/** What `openJournal` returns: the journal, and what was already in it. */
export interface OpenedJournal {
  journal: Journal;
  /** The records of earlier runs (and lines skipped while reading them). */
  previous: JournalReadResult;
  /** Bytes of a torn last line that were cut off before appending (0 when the file ended cleanly). */
  repairedBytes: number;
}

/**
 * Reads the journal of a state folder; a missing journal reads as empty.
 * Tolerates a torn last line — the mark of a crash in the middle of a write —
 * and reports every line it skipped instead of failing, so that a resumed run
 * continues from everything that was recorded whole.
 */
export async function readJournal(stateDir: string): Promise<JournalReadResult> {
  const path = join(stateDir, journalFileName);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, records: [], skipped: [] };
    throw new SignrunError(
      'SR_OUTPUT_WRITE',
      `the journal ${path} could not be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      {
        hint: 'Check the permissions of the state folder (--state), or give another one.',
        cause: error,
      },
    );
  }
  return { path, ...parseJournal(text) };
}

/** Parses journal text (exported for tests of the parser itself). */
export function parseJournal(text: string): Omit<JournalReadResult, 'path'> {
  const records: JournalRecord[] = [];
  const skipped: SkippedLine[] = [];
  const lines = text.split('\n');
  // A file that ends with "\n" splits into a last empty string: no tail.
  const tail = lines.pop() ?? '';
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const parsed = parseLine(line);
    if (parsed.ok) records.push(parsed.record);
    else skipped.push({ line: i + 1, reason: parsed.reason, bytes: Buffer.byteLength(line) });
  });
  if (tail.trim() !== '') {
    // A tail without its newline: the crash cut the write short. Complete JSON
    // there means only the newline was lost; the record itself is whole.
    const parsed = parseLine(tail);
    if (parsed.ok) records.push(parsed.record);
    else skipped.push({ line: lines.length + 1, reason: 'torn', bytes: Buffer.byteLength(tail) });
  }
  return { records, skipped };
}

function parseLine(
  line: string,
): { ok: true; record: JournalRecord } | { ok: false; reason: 'invalid-json' | 'not-a-record' } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'invalid-json' };
  }
  return isJournalRecord(value) ? { ok: true, record: value } : { ok: false, reason: 'not-a-record' };
}

/**
 * Opens (creating when missing) the journal of a state folder for appending,
 * after reading what earlier runs recorded. A torn last line is cut off first
 * (it recorded nothing that was acknowledged), and a whole last record that
 * lost only its newline gets it back, so new records always start on a line
 * of their own.
 */
export async function openJournal(stateDir: string, options: OpenJournalOptions = {}): Promise<OpenedJournal> {
  try {
    await mkdir(stateDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw writeError(join(stateDir, journalFileName), error);
  }
  const previous = await readJournal(stateDir);
  const path = previous.path;
  let repairedBytes = 0;
  let needsNewline = false;
  const raw = await readFile(path).catch(() => Buffer.alloc(0));
  if (raw.length > 0 && raw[raw.length - 1] !== 0x0a) {
    const lastNewline = raw.lastIndexOf(0x0a);
    const torn = previous.skipped.find((s) => s.reason === 'torn');
    if (torn) {
      repairedBytes = raw.length - (lastNewline + 1);
      await truncate(path, lastNewline + 1).catch((error: unknown) => {
        throw writeError(path, error);
      });
    } else {
      needsNewline = true;
    }
  }
  const file = await (options.openFile ?? openRealFile)(path).catch((error: unknown) => {
    throw writeError(path, error);
  });
  const now = options.now ?? Date.now;
  // Group commit: appends that arrive while a write + fsync is under way wait
  // and then share the next one, in call order. At 16 envelopes in flight the
  // journal was a queue of one fsync per record (bench/run).
  let pending: Array<{ line: string; settle: (error?: SignrunError) => void }> = [];
  let failed: SignrunError | undefined;
  let draining = false;
  let drained: Promise<void> = Promise.resolve();
  const drain = async (): Promise<void> => {
    try {
      if (needsNewline) await writeAndSync('\n');
      needsNewline = false;
      while (pending.length > 0) {
        const batch = pending;
        pending = [];
        if (!failed) await writeAndSync(batch.map((b) => b.line).join(''));
        for (const b of batch) b.settle(failed);
      }
    } finally {
      // Cleared in the same synchronous stretch that saw `pending` empty, so
      // an append either joined this loop or starts the next one.
      draining = false;
    }
  };
  /** Sets `failed` when the disk refuses: the file may now end with a torn line. */
  const writeAndSync = async (text: string): Promise<void> => {
    try {
      await file.write(text);
      await file.sync();
    } catch (error) {
      failed = writeError(path, error);
    }
  };
  const startDrain = (): void => {
    if (draining) return;
    draining = true;
    // The first append of a turn of the event loop waits for the turn's end:
    // every record appended in it (the steps of each answer that came in at
    // once) then goes in the same write, rather than the first alone in one
    // write and the rest in the next. No call waits for a record
    // (envelope-pipeline's journalBehind): only the envelope's result does.
    drained = new Promise<void>((turnEnded) => setImmediate(turnEnded)).then(drain);
  };
  if (needsNewline) startDrain();

  const journal: Journal = {
    path,
    append(record) {
      const full = { v: 1, at: new Date(now()).toISOString(), ...record } as JournalRecord;
      const line = `${JSON.stringify(full)}\n`;
      return new Promise<void>((resolve, reject) => {
        pending.push({ line, settle: (error) => (error ? reject(error) : resolve()) });
        startDrain();
      });
    },
    async close() {
      while (draining) await drained;
      await file.close();
    },
  };
  return { journal, previous, repairedBytes };
}

function writeError(path: string, error: unknown): SignrunError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return new SignrunError('SR_OUTPUT_WRITE', `the journal ${path} could not be written${code ? `: ${code}` : ''}`, {
    hint: 'Check free disk space and the permissions of the state folder (--state); run again to continue where this run stopped.',
    cause: error,
  });
}
