import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMessage } from '../../src/sandbox/esignature/connect/connect-message.js';
import { ConnectQueue } from '../../src/sandbox/esignature/connect/delivery-queue.js';
import { ConnectWorker } from '../../src/sandbox/esignature/connect/connect-worker.js';
import { checkDestination } from '../../src/sandbox/esignature/connect/destination-policy.js';
import { connectSignature, verifyConnectSignature } from '../../src/envelope/connect-signature.js';
import { defaultConnectRetryPolicy, retryTiming } from '../../src/sandbox/esignature/connect/retry-timing.js';
import { startReceiver } from './receiver.js';
import { Changes } from '../helpers/barrier.js';

const key = 'account-hmac-key';
const fast = { baseDelayMs: 30, maxDelayMs: 200, maxAttempts: 6, timeoutMs: 2000 };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function enqueueEvents(queue: ConnectQueue, url: string, envelopeId: string, events: string[]): void {
  for (const type of events) {
    const body = JSON.stringify(
      connectMessage({ type: type as never, accountId: 'acc-1', envelopeId, at: new Date() }),
    );
    queue.enqueue(
      { accountId: 'acc-1', envelopeId, event: type, url, body, signature: connectSignature(body, key) },
      Date.now(),
    );
  }
}

describe('Connect pieces', () => {
  it('signs with base64 HMAC-SHA256 and verifies in constant time', () => {
    // RFC 4231 test case 2 (HMAC-SHA-256), its published hex digest in base64.
    const rfc = Buffer.from('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843', 'hex').toString(
      'base64',
    );
    const sig = connectSignature('what do ya want for nothing?', 'Jefe');
    expect(sig).toBe(rfc);
    expect(verifyConnectSignature('what do ya want for nothing?', 'Jefe', sig)).toBe(true);
    expect(verifyConnectSignature('what do ya want for nothing!', 'Jefe', sig)).toBe(false);
    expect(verifyConnectSignature('what do ya want for nothing?', 'Jefe', undefined)).toBe(false);
  });

  it.each([
    ['http://127.0.0.1:9/x', [], true],
    ['http://127.8.9.10/x', [], true],
    ['http://localhost:3000/x', [], true],
    ['http://[::1]:8080/x', [], true],
    ['http://10.0.0.5/x', [], false],
    ['http://169.254.169.254/latest/meta-data', [], false],
    ['https://hooks.example.com/x', [], false],
    ['https://hooks.example.com/x', ['hooks.example.com'], true],
    ['https://a.hooks.example.com/x', ['*.hooks.example.com'], true],
    ['https://evilhooks.example.com/x', ['*.hooks.example.com'], false],
    ['ftp://127.0.0.1/x', [], false],
    ['http://user:pw@127.0.0.1/x', [], false],
    ['not a url', [], false],
  ])('destination %s with allow list %j → %s', (url, allowed, ok) => {
    expect(checkDestination(url, allowed).ok).toBe(ok);
  });

  it('backs off exponentially up to the cap, then gives up', () => {
    const p = { ...defaultConnectRetryPolicy, baseDelayMs: 100, maxDelayMs: 1000, maxAttempts: 6 };
    expect([1, 2, 3, 4, 5, 6].map((n) => retryTiming(n, p))).toEqual([100, 200, 400, 800, 1000, undefined]);
  });
});

describe('ConnectWorker', () => {
  it('a receiver failing three times then recovering gets every event, in order, across a restart', async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const dbPath = join(mkdtempSync(join(tmpdir(), 'signrun-connect-')), 'sandbox.db');

    receiver.failNext(3);
    let db = new Database(dbPath);
    let queue = new ConnectQueue(db);
    // Slower backoff here: the 4th attempt comes 600 ms after the 3rd failure,
    // so the "restart" below reliably happens before the receiver recovers.
    const slower = { ...fast, baseDelayMs: 150, maxDelayMs: 1000 };
    let worker = new ConnectWorker({ queue, policy: slower, idleMs: 50 });
    enqueueEvents(queue, receiver.url, 'env-1', ['envelope-sent', 'recipient-sent', 'recipient-delivered']);
    worker.start();
    // Wait for the three failures, then "restart the sandbox" before recovery.
    await receiver.waitForReceived((r) => r.length >= 3);
    await worker.stop();
    expect(queue.failures('acc-1').length).toBeGreaterThan(0);
    expect(queue.failures('acc-1')[0]?.lastError).toContain('503');
    db.close();

    db = new Database(dbPath);
    cleanups.push(() => void db.close());
    queue = new ConnectQueue(db);
    // The receiver has a POST before the worker has its answer: wait for the queue to settle.
    const settled = new Changes();
    worker = new ConnectWorker({ queue, policy: fast, idleMs: 50, onAttempt: () => settled.changed() });
    cleanups.push(() => worker.stop());
    enqueueEvents(queue, receiver.url, 'env-1', ['recipient-completed', 'envelope-completed']);
    worker.start();
    await settled.until(() => queue.forEnvelope('env-1').every((d) => d.status === 'delivered'));

    const events = receiver.accepted().map((r) => (JSON.parse(r.raw) as { event: string }).event);
    expect(events).toEqual([
      'envelope-sent',
      'recipient-sent',
      'recipient-delivered',
      'recipient-completed',
      'envelope-completed',
    ]);
    for (const r of receiver.received) {
      expect(verifyConnectSignature(r.raw, key, r.headers['x-docusign-signature-1'] as string)).toBe(true);
    }
    expect(receiver.received.filter((r) => r.status === 503)).toHaveLength(3);
    expect(queue.failures('acc-1')).toEqual([]);
    expect(queue.forEnvelope('env-1').every((d) => d.status === 'delivered')).toBe(true);
  });

  it('never calls a refused destination and lists it as a failure at once', async () => {
    const db = new Database(':memory:');
    cleanups.push(() => void db.close());
    const queue = new ConnectQueue(db);
    const attempts: { ok: boolean; error?: string }[] = [];
    const changes = new Changes();
    const worker = new ConnectWorker({
      queue,
      policy: fast,
      idleMs: 20,
      onAttempt: (a) => {
        attempts.push(a);
        changes.changed();
      },
    });
    cleanups.push(() => worker.stop());
    enqueueEvents(queue, 'http://169.254.169.254/latest', 'env-2', ['envelope-sent']);
    worker.start();
    await changes.until(() => attempts.length >= 1);
    expect(attempts[0]?.ok).toBe(false);
    const failures = queue.failures('acc-1');
    expect(failures).toHaveLength(1);
    expect(failures[0]?.status).toBe('failed');
    expect(failures[0]?.lastError).toContain('destination refused');
  });

  it('gives up after maxAttempts on a receiver that times out', async () => {
    const { createServer } = await import('node:http');
    const hanging = createServer(() => undefined);
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          hanging.closeAllConnections();
          hanging.close(() => r());
        }),
    );
    const port = (hanging.address() as { port: number }).port;
    const db = new Database(':memory:');
    cleanups.push(() => void db.close());
    const queue = new ConnectQueue(db);
    const attempts: { ok: boolean; error?: string }[] = [];
    const changes = new Changes();
    const worker = new ConnectWorker({
      queue,
      policy: { baseDelayMs: 10, maxDelayMs: 20, maxAttempts: 2, timeoutMs: 100 },
      idleMs: 20,
      onAttempt: (a) => {
        attempts.push(a);
        changes.changed();
      },
    });
    cleanups.push(() => worker.stop());
    enqueueEvents(queue, `http://127.0.0.1:${port}/slow`, 'env-3', ['envelope-sent']);
    worker.start();
    await changes.until(() => attempts.length >= 2);
    expect(attempts.map((a) => a.ok)).toEqual([false, false]);
    expect(attempts[0]?.error).toContain('no answer within 100 ms');
    expect(queue.failures('acc-1')[0]?.status).toBe('failed');
  });
});
