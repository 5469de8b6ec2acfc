import { run, type RunOptions } from '../../src/runner/run.js';
import type { EnvelopeResult, RunSummary } from '../../src/runner/run-summary.js';

/** A run's summary with its envelopes read from the spool into an array (tests only: a few envelopes). */
export type CollectedSummary = Omit<RunSummary, 'envelopes' | 'close'> & { envelopes: EnvelopeResult[] };

/** Reads every envelope result of `summary` (job-file order), then releases its spool. */
export async function collected(summary: RunSummary): Promise<CollectedSummary> {
  const envelopes: EnvelopeResult[] = [];
  try {
    for await (const e of summary.envelopes()) envelopes.push(e);
  } finally {
    await summary.close();
  }
  const { close: _close, envelopes: _read, ...rest } = summary;
  return { ...rest, envelopes };
}

/** {@link run}, its summary {@link collected}. */
export async function runCollected(options: RunOptions): Promise<CollectedSummary> {
  return collected(await run(options));
}
