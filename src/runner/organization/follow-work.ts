import { SignrunError } from '../../errors/signrun-error.js';
import { workState } from './organization-record.js';

/** The first wait before looking at a work again, ms; it doubles up to {@link maxPollMs}. */
const firstPollMs = 250;
const maxPollMs = 5_000;

/**
 * How long a sandbox that only this process sees (run's in-process one, the
 * tests') takes over its Admin work, ms: under the first wait, so a work is
 * still Pending at the first look and done at the second, as against
 * DocuSign, without `signrun serve`'s second that made a command wait
 * 250 + 500 + 1,000 ms of real time for every work.
 */
export const privateSandboxWorkDelayMs = 100;

/**
 * Looks at an organisation's asynchronous work (an export, an import) until
 * it is over, waiting longer each time: its last answer, or
 * SR_ACCOUNT_FAILED when the organisation says it failed.
 */
export async function followWork<T extends { status?: string }>(
  what: string,
  look: () => Promise<T>,
  delay: (ms: number, signal?: AbortSignal) => Promise<void>,
  signal?: AbortSignal,
): Promise<T> {
  let wait = firstPollMs;
  for (;;) {
    const answer = await look();
    const state = workState(answer.status);
    if (state === 'done') return answer;
    if (state === 'failed') throw new SignrunError('SR_ACCOUNT_FAILED', `${what} failed (${answer.status})`);
    await delay(wait, signal);
    wait = Math.min(wait * 2, maxPollMs);
  }
}
