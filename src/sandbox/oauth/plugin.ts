import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { oauthStore } from './oauth-store.js';
import { OAuthError } from './oauth-error.js';
import { tokenRoutes } from './token-routes.js';
import { rsaKeyRoutes } from './rsa-key-routes.js';
import { consentRoutes } from './consent-routes.js';
import { namedPlugin } from '../platform/http/plugin-name.js';

/**
 * DocuSign's account server, played by the sandbox on the same host and
 * port as /restapi (DESIGN.md, "Contract: today's DocuSign"): /oauth/token,
 * /oauth/userinfo, /oauth/auth, and the sandbox-only key registration.
 * Errors under /oauth are OAuth's `{ error, error_description }`, so this
 * plugin has its own error handler (fastify scopes it to these routes).
 */
export const accountServerPlugin: FastifyPluginAsync = async (app) => {
  const store = oauthStore(app.sandbox.db);
  await app.register(
    namedPlugin('oauth', async (oauth: FastifyInstance) => {
      oauth.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
        if (error instanceof OAuthError) return reply.status(error.statusCode).send(error.toJSON());
        // Body parsing and fastify's own 4xx (e.g. an unsupported content type).
        if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
          return reply.status(400).send({ error: 'invalid_request', error_description: error.message });
        // Anything else is a bug: the sandbox's own handler logs it and answers 500.
        throw error;
      });
      await oauth.register(namedPlugin('oauth-token', tokenRoutes(store)));
      await oauth.register(namedPlugin('oauth-consent', consentRoutes(store)));
    }),
  );
  await app.register(namedPlugin('oauth-rsa-keys', rsaKeyRoutes(store)));
};
