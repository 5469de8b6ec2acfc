import type { EnvelopeResult } from '../runner/run-summary.js';

/** What a run did with its envelopes, counted from their results for the console's final line. */
export interface EnvelopeCounts {
  /** Sent by this run, or found sent (adopted): still on their way. */
  sentOrAdopted: number;
  /** Of those, the ones an earlier run (or one alongside) had sent. */
  adopted: number;
  voided: number;
  /** Found completed or declined: settled before this run, nothing done. */
  completed: number;
  declined: number;
  /** Declared `status: voided` before ever being sent: nothing to send, nothing to void. */
  notSent: number;
  failed: number;
}

export function emptyEnvelopeCounts(): EnvelopeCounts {
  return { sentOrAdopted: 0, adopted: 0, voided: 0, completed: 0, declined: 0, notSent: 0, failed: 0 };
}

/** Counts one envelope's result by what became of it (its outcome, then DocuSign's status word). */
export function countEnvelopeResult(counts: EnvelopeCounts, e: EnvelopeResult): void {
  if (e.outcome === 'failed') counts.failed += 1;
  if (e.outcome !== 'succeeded') return;
  if (e.status === 'voided') counts.voided += 1;
  else if (e.status === 'completed') counts.completed += 1;
  else if (e.status === 'declined') counts.declined += 1;
  // The decision 'settled, not sent' leaves no envelope and no status (envelope-pipeline.ts).
  else if (e.status === undefined && e.envelopeId === undefined) counts.notSent += 1;
  else {
    counts.sentOrAdopted += 1;
    if (e.adopted) counts.adopted += 1;
  }
}

/**
 * The run's envelopes in words, saying what was done: "5 envelopes sent or
 * adopted (…), 2 voided, 1 failed" — not "7 of 7 envelope(s) sent" for a run
 * that voided two. `red` colours the failures.
 */
export function envelopeCountsText(c: EnvelopeCounts, red: (s: string) => string = (s) => s): string {
  const parts: string[] = [];
  const noun = (n: number) => (n === 1 ? 'envelope' : 'envelopes');
  const first = (n: number, what: string) => (parts.length === 0 ? `${n} ${noun(n)} ${what}` : `${n} ${what}`);
  if (c.sentOrAdopted > 0) {
    const all = c.adopted === c.sentOrAdopted;
    const what =
      c.adopted === 0
        ? 'sent'
        : all
          ? 'adopted (sent by an earlier run or one running alongside, not sent again)'
          : `sent or adopted (${c.adopted} of them by an earlier run or one running alongside: adopted, not sent again)`;
    parts.push(first(c.sentOrAdopted, what));
  }
  if (c.voided > 0) parts.push(first(c.voided, 'voided'));
  if (c.completed > 0) parts.push(first(c.completed, 'already completed'));
  if (c.declined > 0) parts.push(first(c.declined, 'already declined'));
  if (c.notSent > 0) parts.push(first(c.notSent, 'not sent (voided in the job file before sending)'));
  if (c.failed > 0) parts.push(red(first(c.failed, 'failed')));
  return parts.join(', ');
}
