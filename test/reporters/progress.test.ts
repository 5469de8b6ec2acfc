import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/reporters/progress.js';
import type { RunEvent } from '../../src/runner/run-events.js';
import type { EnvelopeResult } from '../../src/runner/run-summary.js';

function sink() {
  const chunks: string[] = [];
  return { chunks, stream: { write: (s: string) => (chunks.push(s), true) } as unknown as NodeJS.WritableStream };
}
const done = (outcome: EnvelopeResult['outcome']): RunEvent => ({
  type: 'envelope:done',
  result: {
    job: 'j',
    key: 'k',
    source: { file: 'f', line: 1, column: 1 },
    outcome,
    recipients: [],
    files: [],
    apiCalls: 0,
    retries: 0,
  },
});
const start: RunEvent = {
  type: 'run:start',
  runId: 'r',
  target: { rootUrl: 'x', sandbox: true },
  startedAt: '',
  envelopes: 4,
  accounts: 0,
};

describe('progress', () => {
  it('on a TTY redraws one line with counts, failures, rate and ETA, and clears it at the end', () => {
    let t = 0;
    const { chunks, stream } = sink();
    const p = createProgress({ stream, tty: true, now: () => t });
    p.onEvent(start);
    t = 1000;
    p.onEvent(done('succeeded'));
    t = 2000;
    p.onEvent(done('failed'));
    // eslint-disable-next-line no-control-regex
    expect(chunks.at(-1)).toMatch(/^\r\x1b\[2K\[#{12}\.{12}\] 2\/4 · 1 failed · 1\.0\/s · ETA 2s$/);
    p.finish();
    expect(chunks.at(-1)).toBe('\r\x1b[2K');
  });

  it('otherwise prints a plain line at most every interval', () => {
    let t = 0;
    const { chunks, stream } = sink();
    const p = createProgress({ stream, tty: false, intervalMs: 5000, now: () => t });
    p.onEvent(start);
    t = 1000;
    p.onEvent(done('succeeded'));
    expect(chunks).toEqual([]);
    t = 6000;
    p.onEvent(done('succeeded'));
    expect(chunks).toEqual(['progress: 2/4 · 0.3/s · ETA 6s\n']);
    p.onEvent(done('not-started'));
    expect(chunks).toHaveLength(1);
  });
});
