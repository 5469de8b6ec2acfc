import type { FastifyPluginAsync } from 'fastify';
import { hashPassword } from '../platform/password-hash.js';
import { activationAccessCodeDetail } from '../esignature/users/people-json.js';
import { hashToken } from '../esignature/authentication/view-tokens.js';
import type { OutboxMessage } from '../platform/outbox.js';
import { outboxHtml } from './outbox-html.js';

/**
 * Sandbox-only endpoints, under /sandbox (never under /restapi):
 * health, the outbox (JSON, or HTML for browsers / `?format=html`), and the
 * activation links of new subsidiary accounts and of users added through the API.
 */
/** The shortest password the activation page accepts. */
const minPasswordLength = 8;

export const sandboxRoutes: FastifyPluginAsync = async (app) => {
  // `pollingRule` tells signrun's sync whether to keep DocuSign's 15-minute
  // rule here (src/sync/service-polling-rule.ts): by default the sandbox has none.
  app.get('/sandbox/health', async () => {
    const { db, config } = app.sandbox;
    db.prepare('SELECT 1').get();
    // documentWork: what the document pool is doing (document-work/document-work.ts), so that an operator — or a
    // test — sees a conversion in flight while this answers.
    return { status: 'ok', pollingRule: config.pollingRule, documentWork: app.sandbox.documentWork.stats() };
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

  const page = (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
  const activated = page('Account activated', '<p>The account is active: its user can now log in through the API.</p>');
  const notValid = (reason: 'unknown' | 'used') =>
    page(
      'Activation link not valid',
      `<p>${reason === 'used' ? 'This link was already used: the account is active.' : 'This link is not known.'}</p>`,
    );
  // A user added through the API without a password (DocuSign's eg043 adds its agent so) chooses one on the
  // activation page, as at DocuSign: without it they could never sign in (the consent page asks for it). A user
  // added with an activationAccessCode gives it there too.
  /** What the link's page must ask for; undefined: nothing (opening the link activates), or no usable link. */
  const asks = (token: string): { password: boolean; accessCode: string | undefined } | undefined => {
    const link = app.sandbox.accounts.activationOf(hashToken(token));
    const user = link === undefined || link.used ? undefined : app.sandbox.accounts.user(link.userId);
    if (user === undefined) return undefined;
    const wanted = { password: user.passwordHash === '', accessCode: user.details?.[activationAccessCodeDetail] };
    return wanted.password || wanted.accessCode !== undefined ? wanted : undefined;
  };
  const activationForm = (
    token: string,
    wanted: { password: boolean; accessCode: string | undefined },
    error?: string,
  ) =>
    page(
      'Activate your membership',
      `${error ? `<p role="alert">${error}</p>` : ''}<form method="post" action="/sandbox/activate/${encodeURIComponent(token)}">` +
        (wanted.accessCode !== undefined
          ? '<label for="activationAccessCode">Activation code (from the person who added you)</label> ' +
            '<input id="activationAccessCode" name="activationAccessCode" autocomplete="off" required> '
          : '') +
        (wanted.password
          ? `<label for="password">Choose a password (at least ${minPasswordLength} characters)</label> ` +
            `<input id="password" type="password" name="password" autocomplete="new-password" required minlength="${minPasswordLength}"> `
          : '') +
        '<button type="submit">Activate</button></form>',
    );

  // Opening the link (GET, as from an email) activates the account: single use. A user without a password, or
  // added with an activation code, gets the form first; the link is used when they send it.
  app.get<{ Params: { token: string } }>('/sandbox/activate/:token', async (request, reply) => {
    const { token } = request.params;
    const wanted = asks(token);
    if (wanted !== undefined) return reply.type('text/html; charset=utf-8').send(activationForm(token, wanted));
    const result = app.sandbox.accounts.activate(hashToken(token), app.sandbox.clock.now());
    app.sandbox.auth.clearCache();
    if (result.ok) return reply.type('text/html; charset=utf-8').send(activated);
    return reply
      .status(result.reason === 'used' ? 410 : 404)
      .type('text/html; charset=utf-8')
      .send(notValid(result.reason));
  });

  app.post<{ Params: { token: string }; Body: Record<string, string> | undefined }>(
    '/sandbox/activate/:token',
    async (request, reply) => {
      const { token } = request.params;
      const link = app.sandbox.accounts.activationOf(hashToken(token));
      if (link === undefined || link.used)
        return reply
          .status(link === undefined ? 404 : 410)
          .type('text/html; charset=utf-8')
          .send(notValid(link === undefined ? 'unknown' : 'used'));
      const wanted = asks(token);
      if (wanted === undefined)
        return reply
          .status(400)
          .type('text/html; charset=utf-8')
          .send(page('Nothing to fill in', '<p>Open the link to activate.</p>'));
      const field = (name: string) => (typeof request.body?.[name] === 'string' ? request.body[name] : '');
      const refuse = (error: string) =>
        reply
          .status(400)
          .type('text/html; charset=utf-8')
          .send(activationForm(token, wanted, error));
      if (wanted.accessCode !== undefined && field('activationAccessCode').trim() !== wanted.accessCode)
        return refuse('The activation code is not right.');
      const password = field('password');
      if (wanted.password && password.length < minPasswordLength)
        return refuse(`The password must have at least ${minPasswordLength} characters.`);
      const result = app.sandbox.accounts.activate(
        hashToken(token),
        app.sandbox.clock.now(),
        wanted.password ? await hashPassword(password) : undefined,
      );
      app.sandbox.auth.clearCache();
      if (!result.ok)
        return reply
          .status(result.reason === 'used' ? 410 : 404)
          .type('text/html; charset=utf-8')
          .send(notValid(result.reason));
      return reply.type('text/html; charset=utf-8').send(activated);
    },
  );
};
