import { setImmediate as nextTurn } from 'node:timers/promises';
import { SignrunError } from '../errors/signrun-error.js';

/**
 * SR_INTERRUPTED (exit 130) when `signal` has fired: loading job files
 * (`validate` of a big campaign) stops at this point, `when` saying where
 * (issue 36: every long command stops on the first SIGTERM). The file or
 * document in hand was finished; loading writes nothing, so nothing is left
 * half-written.
 */
export function stopLoadingIfInterrupted(signal: AbortSignal | undefined, when: string): void {
  if (signal?.aborted !== true) return;
  throw new SignrunError('SR_INTERRUPTED', `interrupted (Ctrl-C or SIGTERM) ${when}: job files not all checked`, {
    hint: 'Run the same command again: it checks the job files from the start.',
    details: { when },
  });
}

/**
 * A point where loading may stop: every `every` calls (and the first) it lets
 * the event loop turn once, so that a SIGTERM that came while the load was
 * busy (reading cached or small files resolves without a turn) reaches the
 * signal, then {@link stopLoadingIfInterrupted}. Nothing when there is no
 * signal: a library caller that cannot stop the load pays nothing. Between
 * turns it returns nothing to wait for, and `when` is called only to say
 * where it stopped (issue 37: a promise and a message a row, 10,000 times,
 * for a signal that had not fired).
 */
export function interruptionPoint(
  signal: AbortSignal | undefined,
  when: () => string,
  index: number,
  every = 64,
): Promise<void> | undefined {
  if (signal === undefined) return undefined;
  if (index % every === 0)
    return nextTurn().then(() => {
      if (signal.aborted) stopLoadingIfInterrupted(signal, when());
    });
  if (signal.aborted) stopLoadingIfInterrupted(signal, when());
  return undefined;
}
