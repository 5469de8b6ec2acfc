import Fastify, { type FastifyInstance } from 'fastify';
import { faultInjectionPlugin, type FaultInjectionOptions } from '../../src/sandbox/platform/faults/index.js';

/** A document of known bytes, for truncation checks. */
export const documentBytes = Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => i % 251));

/**
 * A tiny API with the fault plugin in front: a POST that commits (counts), a
 * document download, and a /sandbox route that faults must never touch.
 * Listening on 127.0.0.1:0.
 */
export async function startTinyApp(
  options: FaultInjectionOptions,
): Promise<{ app: FastifyInstance; origin: string; committed: () => number; log: string[] }> {
  let committed = 0;
  const log: string[] = [];
  const app = Fastify({ logger: false });
  await app.register(faultInjectionPlugin, { ...options, log: (line) => log.push(line) });
  app.post('/restapi/v2/accounts/:accountId/envelopes', async (_request, reply) => {
    committed += 1;
    return reply.code(201).send({ envelopeId: `env-${committed}`, status: 'sent' });
  });
  app.get('/restapi/v2/accounts/:accountId/envelopes/:envelopeId/documents/:documentId', async (_request, reply) =>
    reply.type('application/pdf').send(documentBytes),
  );
  app.get('/sandbox/health', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, origin: `http://127.0.0.1:${port}`, committed: () => committed, log };
}

/** The outcome of one call, as a client sees it. */
export type Outcome =
  { kind: 'answer'; status: number; headers: Headers; body: Buffer } | { kind: 'broken'; error: string };

/** One request over a fresh connection; a broken connection or body is an outcome, not an exception. */
export async function call(url: string, init: RequestInit = {}): Promise<Outcome> {
  try {
    const response = await fetch(url, {
      ...init,
      headers: { connection: 'close', ...(init.headers as Record<string, string> | undefined) },
    });
    const body = Buffer.from(await response.arrayBuffer());
    return { kind: 'answer', status: response.status, headers: response.headers, body };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { kind: 'broken', error: cause?.code ?? cause?.message ?? String(error) };
  }
}
