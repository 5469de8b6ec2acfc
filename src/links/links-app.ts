import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { OutputFolder } from '../output/output-folder.js';
import { linkIndex, tokenPattern, type LinkTarget } from './link-store.js';
import { openLink } from './open-link.js';
import { recordOpening } from './openings-log.js';
import { linkPage, notFoundPage, waitPage } from './link-pages.js';
import { ViewLimits, type ViewLimitSettings } from './view-limits.js';
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
  /** The rate of new signing addresses (view-limits.ts); default {@link defaultViewLimits}. */
  viewLimits?: Partial<ViewLimitSettings>;
  /** Where signers go after signing, by envelope folder, from the job files; absent: signing.json's. */
  returnUrls?: ReadonlyMap<string, string>;
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
  const limits = new ViewLimits(options.viewLimits, () => now().getTime());
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
      const base = { at: now().toISOString(), recipientId: target.recipientId, clientUserId: target.clientUserId };
      // A live address is handed out again; beyond the rate of new ones, the visitor is asked to wait.
      const decision = limits.decide(token);
      if (decision.kind === 'reuse') {
        await recordOpening(options.out, target.folder, { ...base, outcome: 'reused' });
        return reply.redirect(decision.url, 303);
      }
      if (decision.kind === 'wait') {
        await recordOpening(options.out, target.folder, {
          ...base,
          outcome: 'throttled',
          code: decision.scope === 'link' ? 'SR_LINKS_RATE_LINK' : 'SR_LINKS_RATE_SERVER',
        });
        const wait = waitPage(decision.retryAfterSeconds);
        return page(reply.header('retry-after', String(decision.retryAfterSeconds)), 429, wait.title, wait.body);
      }
      const answer = await openLink(options.out, target, options.sessions, now, options.returnUrls);
      limits.done(token, decision.at, {
        calledService: answer.calledService === true,
        ...(answer.kind === 'redirect' ? { url: answer.url } : {}),
      });
      await recordOpening(options.out, target.folder, answer.opening);
      if (answer.kind === 'redirect') return reply.redirect(answer.url, 303);
      return page(reply, answer.status, answer.title, answer.body);
    },
  );

  return { app, rescan };
}
