import { finished } from 'node:stream/promises';
import PQueue from 'p-queue';
import type { ApiRequest, Send } from './api-request.js';

/** The slots layer: its `send`, and a way to change the priorities of the requests waiting for a slot. */
export interface RequestSlots {
  send: Send;
  /** Gives every request still waiting for a slot the priority `map` makes of its own (those on the wire are not touched). */
  reorder: (map: (priority: number) => number) => void;
}

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
export function withRequestSlots(next: Send, slots: number): RequestSlots {
  const queue = new PQueue({ concurrency: slots });
  /** Requests waiting for a slot: their id in the queue, and their priority. */
  const waiting = new Map<string, number>();
  let lastId = 0;
  const send: Send = async (request: ApiRequest) => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const id = String((lastId += 1));
    const priority = request.priority ?? 0;
    waiting.set(id, priority);
    // The slot is taken when this task starts and given back when `held` settles.
    // No signal here: a request aborted while it waits still takes its turn,
    // and fetch-once ends it at once with the same error as ever.
    await new Promise<void>((taken) => {
      void queue.add(
        () => {
          waiting.delete(id);
          taken();
          return held;
        },
        { id, priority },
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
  return {
    send,
    reorder: (map) => {
      for (const [id, priority] of waiting) {
        const now = map(priority);
        if (now === priority) continue;
        waiting.set(id, now);
        queue.setPriority(id, now);
      }
    },
  };
}
