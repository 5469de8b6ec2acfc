import { mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { SignrunError } from '../errors/signrun-error.js';

/** A window read from the spool at once: large enough for few reads, small enough to stay flat. */
const READ_WINDOW_BYTES = 1 << 19;
/**
 * How far before the line asked for a window starts: the next items may have
 * finished, and been spooled, a little before it.
 */
const WINDOW_BEHIND_BYTES = 1 << 17;

/**
 * An append-only spool of a run's results, one JSON line per item, so that
 * memory stays flat however many items a run has (at 10,000 envelopes the
 * results held in memory cost ~20 MB, at 100,000 too much). Items arrive in
 * completion order and are read back in their given order: the spool keeps
 * only where each line lies (12 bytes per item), not a reorder buffer that
 * one slow item (a long retry) would make grow.
 *
 * The file is unlinked as soon as it is open (POSIX): it never outlives the
 * process, even one killed mid-run; where that is refused (Windows) it is
 * removed by {@link close}.
 *
 * When a write fails (disk full, a file size limit), the spool does not
 * lose what it was given: the items of the failed batch and every later one
 * are kept in memory (the run stops starting new work then, so they are
 * few), {@link failure} says why, and reading goes on serving every item, so
 * that the reports can still be written wherever the disk lets them.
 */
export class ResultSpool<T> {
  readonly #handle: FileHandle;
  readonly #file: string;
  #unlinked: boolean;
  readonly #offsets: Float64Array;
  readonly #lengths: Uint32Array;
  #size = 0;
  /** Bytes handed to the writer: where the next batch goes. */
  #written = 0;
  /** Bytes written to the file without a failure: a read never goes past them. */
  #onDisk = 0;
  /** Reads of the file made so far (for the tests: a window serves many items). */
  reads = 0;
  #pending: Array<{ index: number; bytes: Buffer }> = [];
  /**
   * The batch being written. Cleared by a `.finally` of the promise itself:
   * that runs after the assignment even when the batch settles at once, so
   * it never stays set to a settled promise (a `flush` loop over it would
   * spin forever, deaf to signals).
   */
  #flushing: Promise<void> | undefined;
  #failure: unknown;
  /** Items that could not go to disk, by index (only after a failed write). */
  readonly #memory = new Map<number, Buffer>();
  #closed = false;

  private constructor(handle: FileHandle, file: string, unlinked: boolean, capacity: number) {
    this.#handle = handle;
    this.#file = file;
    this.#unlinked = unlinked;
    this.#offsets = new Float64Array(capacity);
    this.#lengths = new Uint32Array(capacity);
  }

  /**
   * Creates the spool file `file` (its folder too) for items numbered
   * `0 … capacity-1`. Refused with SR_OUTPUT_WRITE when it cannot be created.
   */
  static async create<T>(file: string, capacity: number): Promise<ResultSpool<T>> {
    let handle: FileHandle;
    try {
      await mkdir(path.dirname(file), { recursive: true });
      handle = await open(file, 'wx+', 0o600);
    } catch (error) {
      throw spoolError(file, 'create', error);
    }
    let unlinked = true;
    try {
      await unlink(file);
    } catch {
      unlinked = false;
    }
    return new ResultSpool<T>(handle, file, unlinked, capacity);
  }

  /** How many items the spool can hold (their numbers are `0 … capacity-1`). */
  get capacity(): number {
    return this.#lengths.length;
  }

  /** True when item `index` was put. */
  has(index: number): boolean {
    return (this.#lengths[index] ?? 0) > 0;
  }

  /**
   * Appends item `index` (written behind: the call returns at once). A
   * second put of the same index replaces the first as far as reading goes.
   */
  put(index: number, item: T): void {
    if (this.#closed) throw new Error('ResultSpool: put after close');
    if (!Number.isInteger(index) || index < 0 || index >= this.capacity)
      throw new RangeError(`ResultSpool: item ${index} is outside 0…${this.capacity - 1}`);
    const bytes = Buffer.from(`${JSON.stringify(item)}\n`, 'utf8');
    this.#lengths[index] = bytes.byteLength;
    if (this.#failure !== undefined) {
      this.#memory.set(index, bytes);
      return;
    }
    this.#memory.delete(index);
    this.#offsets[index] = this.#size;
    this.#size += bytes.byteLength;
    this.#pending.push({ index, bytes });
    if (this.#flushing === undefined) {
      const flushing = this.#drain().finally(() => {
        if (this.#flushing === flushing) this.#flushing = undefined;
      });
      this.#flushing = flushing;
    }
  }

  /**
   * Why the spool could not write (SR_OUTPUT_WRITE), once a write failed;
   * its items are then held in memory and still read back whole.
   */
  get failure(): SignrunError | undefined {
    return this.#failure === undefined ? undefined : spoolError(this.#file, 'write', this.#failure);
  }

  /** Waits until every item put is written (to disk, or to memory after a failure: see {@link failure}). */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
  }

  /**
   * The items in index order (items never put are skipped). Each call reads
   * the file afresh, by windows of it: items finish out of their order (up to
   * the run's envelopes in progress apart), so the lines of neighbouring items
   * lie near each other on disk but seldom side by side, and one read of the
   * region serves the next ones (a read for each run of adjacent lines was a
   * threadpool round trip for every item or two, for each report).
   */
  async *read(): AsyncGenerator<T> {
    await this.flush();
    const count = this.capacity;
    let window: { start: number; bytes: Buffer } | undefined;
    // One buffer for every window of this read: a line is copied out of it (toString) before the next
    // window is read, and the reports after a run then hold no more than one window each.
    let buffer = Buffer.allocUnsafe(0);
    let index = 0;
    while (index < count) {
      if (!this.has(index)) {
        index += 1;
        continue;
      }
      const held = this.#memory.get(index);
      if (held) {
        yield JSON.parse(held.toString('utf8', 0, held.byteLength - 1)) as T;
        index += 1;
        continue;
      }
      const start = this.#offsets[index] ?? 0;
      const length = this.#lengths[index] ?? 0;
      if (!window || start < window.start || start + length > window.start + window.bytes.byteLength) {
        const from = Math.max(0, start - WINDOW_BEHIND_BYTES);
        // Never past what is on disk (a failed write leaves the file short; its items are read from memory).
        const to = Math.max(start + length, Math.min(this.#onDisk, from + READ_WINDOW_BYTES));
        if (buffer.byteLength < to - from)
          buffer = Buffer.allocUnsafe(Math.max(to - from, Math.min(READ_WINDOW_BYTES, this.#onDisk)));
        window = { start: from, bytes: buffer.subarray(0, to - from) };
        await this.#readFully(window.bytes, from);
      }
      const at = start - window.start;
      yield JSON.parse(window.bytes.toString('utf8', at, at + length - 1)) as T;
      index += 1;
    }
  }

  /** Closes (and, where it was not unlinked yet, removes) the file. Reading afterwards is an error. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.flush();
    this.#memory.clear();
    await this.#handle.close();
    if (!this.#unlinked) {
      await unlink(this.#file).catch(() => undefined);
      this.#unlinked = true;
    }
  }

  /** Writes batches until none is pending; never rejects (a failure moves the items to memory). */
  async #drain(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending;
      this.#pending = [];
      const bytes =
        batch.length === 1 ? (batch[0] as { bytes: Buffer }).bytes : Buffer.concat(batch.map((b) => b.bytes));
      const position = this.#written;
      this.#written += bytes.byteLength;
      try {
        await this.#writeFully(bytes, position);
        this.#onDisk = position + bytes.byteLength;
      } catch (error) {
        this.#failure = error;
        // A line may be half on disk: the whole batch, and all that comes after, is read from memory.
        for (const item of [...batch, ...this.#pending]) this.#memory.set(item.index, item.bytes);
        this.#pending = [];
        return;
      }
    }
  }

  async #writeFully(bytes: Buffer, position: number): Promise<void> {
    let done = 0;
    while (done < bytes.byteLength) {
      const { bytesWritten } = await this.#handle.write(bytes, done, bytes.byteLength - done, position + done);
      done += bytesWritten;
    }
  }

  async #readFully(buffer: Buffer, position: number): Promise<void> {
    let done = 0;
    while (done < buffer.byteLength) {
      this.reads += 1;
      const { bytesRead } = await this.#handle.read(buffer, done, buffer.byteLength - done, position + done);
      if (bytesRead === 0) throw spoolError(this.#file, 'read', new Error('the file is shorter than written'));
      done += bytesRead;
    }
  }
}

function spoolError(file: string, action: 'create' | 'write' | 'read', cause: unknown): SignrunError {
  const code = (cause as { code?: string }).code;
  return new SignrunError(
    'SR_OUTPUT_WRITE',
    `could not ${action} the results spool ${file}: ${code ?? (cause instanceof Error ? cause.message : String(cause))}`,
    { cause },
  );
}
