import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { hashToken } from '../esignature/authentication/view-tokens.js';
import { publicOrigin } from '../platform/http/public-origin.js';
import { signingActionRoutes } from './action-routes.js';
import { signingAssetRoutes } from './asset-routes.js';
import { setSecurityHeaders } from './security-headers.js';
import { signingContext } from './signing-context.js';
import { signingSessionRoutes } from './session-routes.js';

/**
 * Lifetime of the signing links put in a remote signer's notification (the
 * outbox "email"), seconds. Longer than an embedded view's 300 s: a person
 * reads mail later. Default 7 days.
 */
export const remoteLinkTtlSeconds = 7 * 24 * 3600;

/**
 * The signing page behind the URLs that views/recipient returns
 * (`/signing/:token`), registered by app.ts at the root (not under /restapi).
 *
 * Flow: GET /signing/:token spends the single-use token, marks the recipient
 * delivered, opens a signing session (secret in an HttpOnly cookie) and
 * redirects to /signing/s/:session (session-routes.ts); the page's POSTs
 * (sign, decline, cancel … action-routes.ts) carry the cookie and a CSRF
 * token, and end with a 303 to the client's returnUrl + `event=` (DESIGN
 * "Signing"). What they share is signing-context.ts; the page itself,
 * signing-page.ts; its files, asset-routes.ts.
 */
export const signingRoutes: FastifyPluginAsync = async (app) => {
  const context = signingContext(app);
  const { services, frames } = context;

  // Remote signers (no clientUserId) get their own link in the outbox message.
  services.notificationLinks = (envelope, recipient) => {
    // From configuration, as every address handed out (public-origin.ts).
    const origin = publicOrigin(app);
    const token = services.viewTokens.issue(
      {
        envelopeId: envelope.id,
        accountId: envelope.accountId,
        recipientId: recipient.recipientId,
        returnUrl: `${origin}/signing/done`,
      },
      services.clock.now(),
      remoteLinkTtlSeconds,
    );
    return [`${origin}/signing/${token}`];
  };

  // The origins a view request allowed to embed this page (focused view), by session or by token.
  const frameAncestorsOf = (request: FastifyRequest): string[] => {
    const params = request.params as { sessionId?: string; token?: string } | undefined;
    if (params?.sessionId !== undefined) return frames.ofSession(params.sessionId);
    if (params?.token !== undefined) return frames.ofToken(hashToken(params.token));
    return [];
  };
  app.addHook('onSend', async (request, reply, payload) => {
    setSecurityHeaders(reply, frameAncestorsOf(request));
    return payload;
  });

  signingAssetRoutes(app);
  signingSessionRoutes(context);
  signingActionRoutes(context);
};
