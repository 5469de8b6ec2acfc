/**
 * Lines written in the same event-loop turn, sent to `write` as one string
 * on the next turn. A request log of a busy server otherwise costs one
 * write system call per request: stdout to a pipe or file is synchronous
 * in Node, and at hundreds of requests a second those calls were 6% of the
 * sandbox's CPU (bench/run profile).
 */
export interface LineBatch {
  /** Queues one line (without its newline). */
  line(text: string): void;
  /** Writes what is queued now (before a final message, or on exit). */
  flush(): void;
}

export function lineBatch(write: (text: string) => void): LineBatch {
  let pending: string[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  const flush = (): void => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (pending.length === 0) return;
    const text = `${pending.join('\n')}\n`;
    pending = [];
    write(text);
  };
  return {
    line(text) {
      pending.push(text);
      scheduled ??= setImmediate(flush);
    },
    flush,
  };
}
