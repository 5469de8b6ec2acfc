import { finished } from 'node:stream/promises';
import PQueue from 'p-queue';
import type { ApiRequest, Send } from './api-request.js';

/**
 * The slots layer, just above fetch-once: at most `slots` requests on the
 * wire at once (one keep-alive connection each), and when all are taken the
 * waiting requests go out by `priority`, highest first, then in the order
 * they came. Without it the HTTP agent queues first come, first served: a
 * listing that 40 drafts wait for, or a send that finishes an envelope,
 * would queue behind the creates of envelopes just begun, and the batch
 * would stall in waves. A download holds its slot until its body has been
 * read (or given up), since until then it holds the connection.
 */
export function withRequestSlots(next: Send, slots: number): Send {
  const queue = new PQueue({ concurrency: slots });
  return async (request: ApiRequest) => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // The slot is taken when this task starts and given back when `held` settles.
    // No signal here: a request aborted while it waits still takes its turn,
    // and fetch-once ends it at once with the same error as ever.
    await new Promise<void>((taken) => {
      void queue.add(
        () => {
          taken();
          return held;
        },
        { priority: request.priority ?? 0 },
      );
    });
    try {
      const response = await next(request);
      if (response.stream) finished(response.stream).then(release, release);
      else release();
      return response;
    } catch (error) {
      release();
      throw error;
    }
  };
}
