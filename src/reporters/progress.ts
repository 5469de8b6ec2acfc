import type { RunEvent } from '../runner/run-events.js';

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** Where progress goes (stderr, so stdout stays the summary). */
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** True: a bar redrawn in place; false: a plain line every `intervalMs`. Default: stream.isTTY. */
  tty?: boolean;
  /** Plain-line period. Default 5 000 ms. */
  intervalMs?: number;
  /** Default Date.now. */
  now?: () => number;
}

/** Progress display of a run: listens to run events, draws counts, rate and ETA. */
export interface Progress {
  onEvent(event: RunEvent): void;
  /** Clears the bar (TTY) so the summary starts on a clean line. */
  finish(): void;
}

/**
 * A count drawn as progress, whatever is counted (a run's envelopes, the
 * preview's): `start` with the total, `tick` for each one done.
 */
export interface ProgressCounter {
  start(total: number): void;
  /** One more done; `failed` counts it among the failed too. */
  tick(failed?: boolean): void;
  /** Clears the bar (TTY) so what follows starts on a clean line. */
  finish(): void;
}

/**
 * On a TTY, one line redrawn at most ten times a second:
 * `[#########.........] 120/200 · 2 failed · 25.1/s · ETA 3s`.
 * Otherwise (CI logs, pipes) a plain line every `intervalMs`, so logs stay
 * readable and short.
 */
export function createProgressCounter(options: ProgressOptions): ProgressCounter {
  const tty = options.tty ?? Boolean(options.stream.isTTY);
  const interval = options.intervalMs ?? 5_000;
  const now = options.now ?? (() => Date.now());
  let total = 0;
  let done = 0;
  let failed = 0;
  let started = now();
  let lastDraw = 0;
  let drawn = false;

  const line = (): string => {
    const elapsed = Math.max(1, now() - started) / 1000;
    const rate = done / elapsed;
    const eta = rate > 0 ? Math.ceil((total - done) / rate) : undefined;
    const parts = [`${done}/${total}`];
    if (failed > 0) parts.push(`${failed} failed`);
    parts.push(`${rate.toFixed(1)}/s`);
    if (eta !== undefined && done < total) parts.push(`ETA ${eta}s`);
    return parts.join(' · ');
  };
  const draw = (force = false) => {
    const t = now();
    if (tty) {
      if (!force && t - lastDraw < 100) return;
      lastDraw = t;
      const width = 24;
      const filled = total > 0 ? Math.round((done / total) * width) : 0;
      options.stream.write(`\r\x1b[2K[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${line()}`);
      drawn = true;
    } else {
      if (!force && t - lastDraw < interval) return;
      lastDraw = t;
      options.stream.write(`progress: ${line()}\n`);
    }
  };

  return {
    start(count) {
      total = count;
      started = now();
      lastDraw = tty ? 0 : started;
    },
    tick(isFailed = false) {
      done += 1;
      if (isFailed) failed += 1;
      // The bar shows the last count; plain logs get the summary instead of a final line.
      draw(tty && done === total);
    },
    finish() {
      if (tty && drawn) options.stream.write('\r\x1b[2K');
    },
  };
}

/** The progress of a run: a {@link createProgressCounter} fed by the run's events. */
export function createProgress(options: ProgressOptions): Progress {
  const counter = createProgressCounter(options);
  return {
    onEvent(event) {
      switch (event.type) {
        case 'run:start':
          counter.start(event.envelopes + event.accounts);
          break;
        case 'envelope:done':
        case 'account:done':
          if (event.result.outcome === 'not-started') return;
          counter.tick(event.result.outcome === 'failed');
          break;
        default:
          break;
      }
    },
    finish: () => counter.finish(),
  };
}
