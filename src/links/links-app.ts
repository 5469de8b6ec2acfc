import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { OutputFolder } from '../output/output-folder.js';
import { linkIndex, tokenPattern, type LinkTarget } from './link-store.js';
import { openLink } from './open-link.js';
import { recordOpening } from './openings-log.js';
import { linkPage, notFoundPage } from './link-pages.js';
import type { ServiceSessions } from './service-sessions.js';

/** Options of the links server's app. */
export interface LinksAppOptions {
  out: OutputFolder;
  /** The address links are built on (`--base-url`, else where the server listens). */
  baseUrl: () => string;
  sessions: ServiceSessions;
  /** An unknown token reloads the index at most this often (ms); default 5000. */
  rescanMs?: number;
  now?: () => Date;
}

function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(linkPage(title, body));
}

/**
 * The links server: `GET /l/:token` answers with a 303 to a fresh signing
 * address, or a page saying why not. Nothing is cached and no referrer is
 * sent (the token is in the path); the request log is off, so neither the
 * token nor the client's address reaches a log.
 */
export function buildLinksApp(options: LinksAppOptions): { app: FastifyInstance; rescan: () => Promise<void> } {
  const app = Fastify({ logger: false, trustProxy: false });
  const now = options.now ?? (() => new Date());
  let index = new Map<string, LinkTarget>();
  let scannedAt = 0;
  const rescan = async () => {
    index = await linkIndex(options.out, options.baseUrl());
    scannedAt = Date.now();
  };
  // Envelopes sent after the server started get their tokens when someone
  // opens a token not yet known (at most once per rescanMs).
  const find = async (token: string): Promise<LinkTarget | undefined> => {
    const known = index.get(token);
    if (known || Date.now() - scannedAt < (options.rescanMs ?? 5000)) return known;
    await rescan();
    return index.get(token);
  };

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    return payload;
  });

  app.get('/healthz', async () => ({ ok: true }));

  app.get<{ Params: { token: string } }>(
    '/l/:token',
    { schema: { params: { type: 'object', properties: { token: { type: 'string' } }, required: ['token'] } } },
    async (request, reply) => {
      const token = request.params.token;
      const target = tokenPattern.test(token) ? await find(token) : undefined;
      if (!target) return page(reply, 404, notFoundPage.title, notFoundPage.body);
      const answer = await openLink(options.out, target, options.sessions, now);
      await recordOpening(options.out, target.folder, answer.opening);
      if (answer.kind === 'redirect') return reply.redirect(answer.url, 303);
      return page(reply, answer.status, answer.title, answer.body);
    },
  );

  return { app, rescan };
}
