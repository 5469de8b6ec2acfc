import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { EsignatureClient, type AccountClient } from '../../src/client/esignature-client.js';
import type { ClientEvent } from '../../src/client/api-request.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';

/**
 * The client's slots (with-request-slots.ts): at most maxSockets requests on
 * the wire, and the waiting ones go out by priority, then in the order they
 * came. Seen at the real sandbox over HTTP: with one slot, the answers come
 * in the order the requests went out.
 */
let sandbox: RunningSandbox;
/** Set by the test: the next answer's latency waits until released. */
let hold: { asked: () => void; released: Promise<void> } | undefined;
let arrived: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox(
    { port: 0, quiet: true, latencyMs: 1 },
    {
      delay: () => {
        const held = hold;
        hold = undefined;
        if (!held) return Promise.resolve();
        held.asked();
        return held.released;
      },
    },
  );
  sandbox.app.server.on('request', (req: { url?: string }) => arrived.push(req.url ?? ''));
});
afterAll(async () => {
  await sandbox.close();
});

/** Lets every callback that can run, run (the layers above the slots are a few promise turns deep). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * A client of one slot, logged in, whose slot is taken by a call (`first`,
 * of priority `firstPriority`) that the sandbox holds until `release()`;
 * `order()` is the tags of the requests as they went on the wire.
 */
async function oneSlotTaken(firstPriority?: number) {
  const events: ClientEvent[] = [];
  const client = EsignatureClient.create({
    rootUrl: sandbox.rootUrl,
    auth: sandboxSeedAuth(),
    maxSockets: 1,
    onEvent: (e) => events.push(e),
  });
  const account: AccountClient = await client.login();
  let release = () => {};
  let asked = () => {};
  const delayAsked = new Promise<void>((resolve) => (asked = resolve));
  hold = { asked, released: new Promise<void>((resolve) => (release = resolve)) };
  arrived = [];
  const first = client.loginInformation({
    tag: 'first',
    ...(firstPriority !== undefined ? { priority: firstPriority } : {}),
  });
  await delayAsked;
  const order = () => events.flatMap((e) => (e.type === 'request' && e.tag !== undefined ? [e.tag] : []));
  return { client, account, first, release, order };
}

const fromDate = '2026-01-01T00:00:00.000Z';

describe('request slots', () => {
  it('sends waiting requests highest priority first, then first come first served', async () => {
    const { client, account, first, release, order } = await oneSlotTaken();
    try {
      const waiting = [
        account.listEnvelopeStatusChanges({ fromDate }, { tag: 'low-1' }),
        client.loginInformation({ tag: 'low-2', priority: 0 }),
        account.listEnvelopeStatusChanges({ fromDate }, { tag: 'high', priority: 5 }),
      ];
      await settle();
      // Nothing else reached the service while the slot was taken.
      expect(arrived).toHaveLength(1);
      release();
      await Promise.all([first, ...waiting]);
      expect(order().slice(-4)).toEqual(['first', 'high', 'low-1', 'low-2']);
    } finally {
      client.close();
    }
  });

  it('reorders the requests waiting for a slot, and leaves the one on the wire alone', async () => {
    const { client, account, first, release, order } = await oneSlotTaken(1);
    try {
      // Waiting as a run's usual order puts them: the send before the draft's listing.
      const waiting = [
        account.listEnvelopeStatusChanges({ fromDate }, { tag: 'was-low', priority: 1 }),
        client.loginInformation({ tag: 'was-high', priority: 3 }),
      ];
      await settle();
      const mapped: number[] = [];
      // The last stretch's order turns them round.
      client.reorderWaiting((priority) => {
        mapped.push(priority);
        return priority === 1 ? 9 : 7;
      });
      // Only the two waiting were asked about; the one on the wire has its slot.
      expect(mapped.sort()).toEqual([1, 3]);
      // A request made after the reordering takes its place by its own priority.
      const later = client.loginInformation({ tag: 'later', priority: 8 });
      await settle();
      release();
      await Promise.all([first, later, ...waiting]);
      expect(order().slice(-4)).toEqual(['first', 'was-low', 'later', 'was-high']);
    } finally {
      client.close();
    }
  });
});
