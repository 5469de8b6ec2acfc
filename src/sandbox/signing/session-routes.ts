import { accessCodeState } from './access-code.js';
import { mustAct } from '../esignature/envelopes/routing.js';
import { hashToken } from '../esignature/authentication/view-tokens.js';
import { contentDisposition } from '../platform/http/content-disposition.js';
import { messagePageHtml } from './page-html.js';
import { pageText, pageTextFromAcceptLanguage } from './page-text.js';
import { returnAddress } from './return-address.js';
import { sessionCookie } from './session-cookie.js';
import { actorOf, html, type SigningContext } from './signing-context.js';
import { renderSigningPage } from './signing-page.js';

/**
 * The link and the session: GET /signing/:token spends the single-use token,
 * marks the recipient delivered, opens a signing session (secret in an
 * HttpOnly cookie) and redirects to /signing/s/:session, which shows the
 * page; the page fetches its documents from under it.
 */
export function signingSessionRoutes(context: SigningContext): void {
  const { app, services, sessions, frames } = context;

  app.get<{ Params: { token: string } }>('/signing/:token', async (request, reply) => {
    const grant = services.consumeViewToken(request.params.token);
    if (!grant.ok) {
      const text = pageTextFromAcceptLanguage(request.headers['accept-language']);
      if (grant.returnUrl === undefined)
        return html(reply, 404, messagePageHtml(text, text.unknownTitle, text.unknownBody));
      const body = grant.reason === 'used' ? text.usedBody : text.expiredBody;
      return html(
        reply,
        410,
        messagePageHtml(text, text.expiredTitle, body, returnAddress(grant.returnUrl, 'ttl_expired')),
      );
    }
    const recipient = context.recipientOf(grant);
    const text = pageText(recipient?.supportedLanguage);
    // Opened means delivered, once the documents can show: a recipient with an access code is delivered
    // when it enters it (POST …/access-code). A carbon copy only reads: opening changes nothing.
    if (recipient !== undefined && mustAct(recipient) && accessCodeState(recipient) === 'none') {
      try {
        services.lifecycle.markDelivered(grant.envelopeId, grant.recipientId, actorOf(request));
      } catch (error) {
        return context.lifecycleRefusal(reply, text, error, grant.returnUrl);
      }
    }
    const { session, secret } = sessions.open(grant, services.clock.now());
    frames.toSession(hashToken(request.params.token), session.id);
    const framed = frames.ofSession(session.id).length > 0;
    void reply.header('set-cookie', sessionCookie(session.id, secret, request.protocol === 'https', framed));
    return reply.redirect(`/signing/s/${session.id}`, 303);
  });

  app.get<{ Params: { sessionId: string } }>('/signing/s/:sessionId', async (request, reply) => {
    const session = context.checkSession(request, reply);
    if (session === undefined) return reply;
    return renderSigningPage(context, reply, session, 200);
  });

  app.get<{ Params: { sessionId: string; documentId: string } }>(
    '/signing/s/:sessionId/documents/:documentId',
    async (request, reply) => {
      const session = context.checkSession(request, reply);
      if (session === undefined) return reply;
      // No document before the access code.
      if (!context.documentsMayShow(session))
        return reply.code(403).type('text/plain').send('enter the access code first');
      const doc = context.visibleDocumentsOf(session).find((d) => d.documentId === request.params.documentId);
      if (doc === undefined) return reply.code(404).type('text/plain').send('no such document');
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition('inline', doc.name))
        .send(services.blobs.get(doc.sha256));
    },
  );
}
