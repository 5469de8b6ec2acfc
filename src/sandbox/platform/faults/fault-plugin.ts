import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { chooseFault, isApiRequest, type FaultCounts } from './fault-choice.js';
import { faultKinds, formatFaultSpec, parseFaultSpec, type FaultRule, type FaultSpec } from './fault-spec.js';
import { randomSeed, seededRandom } from './seeded-random.js';

/** Options of the fault-injection plugin (`serve --faults SPEC --fault-seed N`). */
export interface FaultInjectionOptions {
  /** The spec, as text (`parseFaultSpec` syntax) or parsed. Required. */
  spec: string | FaultSpec;
  /** Seed of the random draws; default: random (reported by `log` and GET /sandbox/faults so the run can be replayed). */
  seed?: number;
  /** Receives one line at start (spec and seed) and one per injected fault (kind, method, route pattern). Default: none. */
  log?: (line: string) => void;
  /** How a `slow` fault waits; default a timer. A test holds it to see the answer wait, without waiting itself. */
  delay?: (ms: number) => Promise<void>;
}

/** What GET /sandbox/faults answers. */
export interface FaultReport {
  /** The spec in canonical form. */
  spec: string;
  seed: number;
  /** API requests seen (each drew once). */
  apiRequests: number;
  /** Faults injected, per kind. */
  injected: FaultCounts;
}

/** Sent with injected 429/500/503 answers, in DocuSign's error shape (`#/definitions/errorDetails`). */
const faultBodies = {
  '429': {
    errorCode: 'SANDBOX_INJECTED_FAULT',
    message: 'Too many requests (fault injected by serve --faults); retry after the Retry-After delay.',
  },
  '500': {
    errorCode: 'SANDBOX_INJECTED_FAULT',
    message: 'An internal error occurred (fault injected by serve --faults); nothing was done.',
  },
  '503': {
    errorCode: 'SANDBOX_INJECTED_FAULT',
    message: 'The service is unavailable (fault injected by serve --faults); nothing was done.',
  },
} as const;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Injects faults into /restapi/** requests, as a fastify plugin registered on
 * the root app before the API routes (it is not encapsulated: its hooks apply
 * to every route). One random draw per API request decides its fate (see
 * `chooseFault`); faults before processing answer from `onRequest` (the
 * handler never runs: nothing is committed), faults after processing act in
 * `onSend` (the handler ran and committed; the answer is delayed, cut short
 * or never sent). Also answers GET /sandbox/faults with what it injected.
 */
export const faultInjectionPlugin: FastifyPluginAsync<FaultInjectionOptions> = async (app, options) => {
  const spec = typeof options.spec === 'string' ? parseFaultSpec(options.spec) : options.spec;
  const seed = options.seed ?? randomSeed();
  const random = seededRandom(seed);
  const log = options.log;
  const delay = options.delay ?? sleep;
  const injected = Object.fromEntries(faultKinds.map((k) => [k, 0])) as FaultCounts;
  let apiRequests = 0;
  const pending = new WeakMap<FastifyRequest, FaultRule>();
  log?.(`fault injection: ${formatFaultSpec(spec) || '(none)'} with --fault-seed ${seed}`);

  app.addHook('onRequest', async (request, reply) => {
    if (!isApiRequest(request.url)) return;
    apiRequests += 1;
    const rule = chooseFault(spec, random, { method: request.method, url: request.url });
    if (!rule) return;
    injected[rule.kind] += 1;
    log?.(`fault ${rule.kind} on ${request.method} ${request.routeOptions.url ?? '(no route)'}`);
    switch (rule.kind) {
      case '429':
        return reply
          .code(429)
          .header('retry-after', String(rule.param ?? 1))
          .send(faultBodies['429']);
      case '500':
      case '503':
        return reply.code(Number(rule.kind)).send(faultBodies[rule.kind]);
      case 'reset-before':
        // Nothing has been read or done: end the connection as a crashed
        // front end would. hijack() stops fastify's lifecycle here.
        reply.hijack();
        request.raw.socket?.destroy();
        return reply;
      default:
        pending.set(request, rule);
        return;
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const rule = pending.get(request);
    if (!rule) return payload;
    pending.delete(request);
    switch (rule.kind) {
      case 'slow':
        await delay(rule.param ?? 0);
        return payload;
      case 'reset-after':
        // The handler ran and its changes are committed; the client never
        // hears of it. Writes fastify attempts after this go nowhere.
        request.raw.socket?.destroy();
        return payload;
      case 'truncate':
        return truncated(request, reply, payload);
      default:
        return payload;
    }
  });

  app.get('/sandbox/faults', async (): Promise<FaultReport> => ({
    spec: formatFaultSpec(spec),
    seed,
    apiRequests,
    injected: { ...injected },
  }));
};
// Not encapsulated (what fastify-plugin does, without the dependency): the
// hooks must see routes registered by sibling plugins.
(faultInjectionPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

/**
 * Sends the first half of a download's body under the full Content-Length,
 * then destroys the connection: the client sees a body that ends early
 * ("premature close"), as when a proxy or the network drops mid-download.
 */
async function truncated(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (reply.statusCode !== 200) return payload;
  const bytes = await toBuffer(payload);
  if (bytes === undefined || bytes.length < 2) return payload;
  void reply.header('content-length', String(bytes.length));
  const cut = bytes.subarray(0, Math.floor(bytes.length / 2));
  const socket = request.raw.socket;
  let sent = false;
  // The stream never ends: after the cut bytes, the connection is dropped
  // (a moment later, so those bytes leave first) and fastify sees it close.
  return new Readable({
    read() {
      if (sent) return;
      sent = true;
      this.push(cut);
      setTimeout(() => socket?.destroy(), 20);
    },
  });
}

async function toBuffer(payload: unknown): Promise<Buffer | undefined> {
  if (Buffer.isBuffer(payload)) return payload;
  if (typeof payload === 'string') return Buffer.from(payload);
  if (payload instanceof Readable) {
    const chunks: Buffer[] = [];
    for await (const chunk of payload) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
    return Buffer.concat(chunks);
  }
  return undefined;
}
