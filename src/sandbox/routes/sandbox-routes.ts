import type { FastifyPluginAsync } from 'fastify';
import { hashToken } from '../repositories/view-tokens.js';
import type { OutboxMessage } from '../outbox.js';
import { outboxHtml } from './outbox-html.js';

/**
 * Sandbox-only endpoints, under /sandbox (never under /restapi):
 * health, the outbox (JSON, or HTML for browsers / `?format=html`), and the
 * activation links of new subsidiary accounts.
 */
export const sandboxRoutes: FastifyPluginAsync = async (app) => {
  // `pollingRule` tells signrun's sync whether to keep DocuSign's 15-minute
  // rule here (src/sync/service-polling-rule.ts): by default the sandbox has none.
  app.get('/sandbox/health', async () => {
    const { db, config } = app.sandbox;
    db.prepare('SELECT 1').get();
    return { status: 'ok', pollingRule: config.pollingRule };
  });

  app.get<{ Querystring: { format?: string; to?: string; envelopeId?: string; accountId?: string } }>(
    '/sandbox/outbox',
    async (request, reply) => {
      const { format, to, envelopeId, accountId } = request.query;
      const messages: OutboxMessage[] = app.sandbox.outbox.list({ to, envelopeId, accountId });
      const accept = request.headers.accept ?? '';
      const wantsHtml = format === 'html' || (format !== 'json' && accept.includes('text/html'));
      if (wantsHtml) return reply.type('text/html; charset=utf-8').send(outboxHtml(messages));
      return { messages };
    },
  );

  app.get('/sandbox/outbox.html', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(outboxHtml(app.sandbox.outbox.list())),
  );

  // Opening the link (GET, as from an email) activates the account: single use.
  app.get<{ Params: { token: string } }>('/sandbox/activate/:token', async (request, reply) => {
    const result = app.sandbox.accounts.activate(hashToken(request.params.token), app.sandbox.clock.now());
    app.sandbox.auth.clearCache();
    const page = (title: string, text: string) =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;
    if (result.ok) {
      return reply
        .type('text/html; charset=utf-8')
        .send(page('Account activated', 'The account is active: its user can now log in through the API.'));
    }
    return reply
      .status(result.reason === 'used' ? 410 : 404)
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Activation link not valid',
          result.reason === 'used' ? 'This link was already used: the account is active.' : 'This link is not known.',
        ),
      );
  });
};
