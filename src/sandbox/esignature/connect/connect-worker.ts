import { checkDestination } from './destination-policy.js';
import type { ConnectDelivery, ConnectQueue } from './delivery-queue.js';
import { connectSignatureHeader } from '../../../envelope/connect-signature.js';
import { retryTiming, type ConnectRetryPolicy } from './retry-timing.js';

/** Options of {@link ConnectWorker}. */
export interface ConnectWorkerOptions {
  queue: ConnectQueue;
  policy: ConnectRetryPolicy;
  /** Hosts allowed besides loopback. Default none. */
  allowedHosts?: readonly string[];
  /** Deliveries in flight at once (distinct addresses). Default 4. */
  concurrency?: number;
  /** Milliseconds since the epoch. Default Date.now. */
  now?: () => number;
  /** Longest sleep between two looks at the queue, ms. Default 1000. */
  idleMs?: number;
  /**
   * The bytes to POST for an attempt and their signature. Default: the
   * queued body and signature as they are. The plugin uses it to put the
   * attempt number in `retryCount` (as Connect does) and sign that body.
   */
  prepare?: (d: ConnectDelivery) => { body: string; signature?: string | undefined };
  /** Called after each attempt (logging, tests). Never receives the body. */
  onAttempt?: (info: { id: number; event: string; ok: boolean; error?: string }) => void;
}

/**
 * Sends queued Connect messages. One timer, at most `concurrency` POSTs in
 * flight, woken early by `wake()` when something is queued; `stop()` aborts
 * in-flight POSTs (they stay queued and are sent again on the next start).
 */
export class ConnectWorker {
  private readonly inFlight = new Map<number, AbortController>();
  private readonly pending = new Set<Promise<void>>();
  private stopped = true;
  private loopDone: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;

  constructor(private readonly options: ConnectWorkerOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loopDone = this.loop();
  }

  /** Something was queued (or a delivery ended): look at the queue now. */
  wake(): void {
    const w = this.wakeUp;
    this.wakeUp = undefined;
    w?.();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const c of this.inFlight.values()) c.abort(new Error('sandbox stopping'));
    this.wake();
    await this.loopDone;
    await Promise.all([...this.pending]);
  }

  private async loop(): Promise<void> {
    const now = this.options.now ?? Date.now;
    const idle = this.options.idleMs ?? 1000;
    while (!this.stopped) {
      const free = (this.options.concurrency ?? 4) - this.inFlight.size;
      const due = free > 0 ? this.options.queue.claimDue(now(), free) : [];
      for (const d of due) {
        const p: Promise<void> = this.deliver(d)
          .catch(() => undefined)
          .finally(() => {
            this.pending.delete(p);
            this.wake();
          });
        this.pending.add(p);
      }
      if (due.length > 0) continue;
      const next = this.options.queue.nextDueAt();
      await this.sleep(next === undefined ? idle : Math.min(idle, Math.max(1, next - now())));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake(), ms);
      timer.unref();
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async deliver(d: ConnectDelivery): Promise<void> {
    const now = this.options.now ?? Date.now;
    const { queue, policy } = this.options;
    const error = await this.post(d);
    if (this.stopped && error !== undefined) {
      // Aborted by stop(): not the receiver's fault; due again at the next start
      // (it may have arrived: Connect delivers at least once).
      queue.release(d.id);
      return;
    }
    if (error === undefined) queue.delivered(d.id, now());
    else {
      // A refused destination is never retried: the address will not change.
      const delay = checkDestination(d.url, this.options.allowedHosts).ok
        ? retryTiming(d.attempts + 1, policy)
        : undefined;
      queue.attemptFailed(d.id, error, now(), delay === undefined ? undefined : now() + delay);
    }
    this.options.onAttempt?.({
      id: d.id,
      event: d.event,
      ok: error === undefined,
      ...(error === undefined ? {} : { error }),
    });
  }

  /** One POST; returns an error description, or undefined on 2xx. */
  private async post(d: ConnectDelivery): Promise<string | undefined> {
    const allowed = checkDestination(d.url, this.options.allowedHosts);
    if (!allowed.ok)
      return `destination refused (${allowed.reason}): only loopback and the configured hosts are allowed`;
    const controller = new AbortController();
    this.inFlight.set(d.id, controller);
    const timeout = setTimeout(() => controller.abort(new Error('timeout')), this.options.policy.timeoutMs);
    try {
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
      const { body, signature } = this.options.prepare?.(d) ?? d;
      if (signature !== undefined) headers[connectSignatureHeader] = signature;
      const res = await fetch(allowed.url, {
        method: 'POST',
        headers,
        body,
        // A redirect could point anywhere (internal addresses): never follow one.
        redirect: 'manual',
        signal: controller.signal,
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.status >= 200 && res.status < 300) return undefined;
      return `HTTP ${res.status} from the receiver`;
    } catch (e) {
      if (controller.signal.aborted) {
        const reason = controller.signal.reason as Error | undefined;
        return reason?.message === 'timeout'
          ? `no answer within ${this.options.policy.timeoutMs} ms`
          : 'aborted: sandbox stopping';
      }
      const cause = (e as { cause?: { code?: string } }).cause;
      return `connection failed${cause?.code ? ` (${cause.code})` : ''}`;
    } finally {
      clearTimeout(timeout);
      this.inFlight.delete(d.id);
    }
  }
}
