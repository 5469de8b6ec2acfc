/**
 * Lines gathered for a short while and sent to `write` as one string. A
 * request log of a busy server otherwise costs one write system call per
 * request: stdout to a pipe or file is synchronous in Node, and each write
 * to a pipe also wakes its reader, which on two cores takes a core from the
 * server (a run of 3,000 envelopes: ~0.57 s of the sandbox's main thread in
 * those writes, one per event-loop turn; bench/run --profile). The first
 * line of a batch waits at most `windowMs`; a batch of `maxChars` or more is
 * written at once. Lines keep their order: one queue, written whole.
 */
export interface LineBatch {
  /** Queues one line (without its newline). */
  line(text: string): void;
  /** Writes what is queued now (before a final message, or on exit). */
  flush(): void;
}

export interface LineBatchOptions {
  /** How long the first queued line may wait for others (ms). */
  windowMs?: number;
  /** A batch this long (characters) is written without waiting: well under a pipe's 64 KiB buffer. */
  maxChars?: number;
}

/** Short enough that a person watching the log sees no delay; long enough to gather a busy second's lines into tens of writes. */
const defaultWindowMs = 25;
const defaultMaxChars = 16 * 1024;

export function lineBatch(write: (text: string) => void, options: LineBatchOptions = {}): LineBatch {
  const windowMs = options.windowMs ?? defaultWindowMs;
  const maxChars = options.maxChars ?? defaultMaxChars;
  let pending: string[] = [];
  let pendingChars = 0;
  let scheduled: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (scheduled) clearTimeout(scheduled);
    scheduled = undefined;
    if (pending.length === 0) return;
    const text = `${pending.join('\n')}\n`;
    pending = [];
    pendingChars = 0;
    write(text);
  };
  return {
    line(text) {
      pending.push(text);
      pendingChars += text.length + 1;
      if (pendingChars >= maxChars) flush();
      else scheduled ??= setTimeout(flush, windowMs);
    },
    flush,
  };
}
