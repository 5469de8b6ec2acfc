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

describe('request slots', () => {
  it('sends waiting requests highest priority first, then first come first served', async () => {
    const events: ClientEvent[] = [];
    const client = EsignatureClient.create({
      rootUrl: sandbox.rootUrl,
      auth: sandboxSeedAuth(),
      maxSockets: 1,
      onEvent: (e) => events.push(e),
    });
    try {
      const account: AccountClient = await client.login();
      let release = () => {};
      let asked = () => {};
      const delayAsked = new Promise<void>((resolve) => (asked = resolve));
      hold = { asked, released: new Promise<void>((resolve) => (release = resolve)) };
      arrived = [];
      // The one slot is taken by a call the sandbox holds.
      const first = client.loginInformation({ tag: 'first' });
      await delayAsked;
      const fromDate = '2026-01-01T00:00:00.000Z';
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
      const order = events.flatMap((e) => (e.type === 'request' && e.tag !== undefined ? [e.tag] : []));
      expect(order.slice(-4)).toEqual(['first', 'high', 'low-1', 'low-2']);
    } finally {
      client.close();
    }
  });

  it('reorders the requests waiting for a slot, and leaves the one on the wire alone', async () => {
    const events: ClientEvent[] = [];
    const client = EsignatureClient.create({
      rootUrl: sandbox.rootUrl,
      auth: sandboxSeedAuth(),
      maxSockets: 1,
      onEvent: (e) => events.push(e),
    });
    try {
      const account: AccountClient = await client.login();
      let release = () => {};
      let asked = () => {};
      const delayAsked = new Promise<void>((resolve) => (asked = resolve));
      hold = { asked, released: new Promise<void>((resolve) => (release = resolve)) };
      const first = client.loginInformation({ tag: 'first', priority: 1 });
      await delayAsked;
      const fromDate = '2026-01-01T00:00:00.000Z';
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
      const order = events.flatMap((e) => (e.type === 'request' && e.tag !== undefined ? [e.tag] : []));
      expect(order.slice(-4)).toEqual(['first', 'was-low', 'later', 'was-high']);
    } finally {
      client.close();
    }
  });
});
