import type { FastifyPluginAsync } from 'fastify';
import { apiErrors, ApiError } from '../../platform/http/api-error.js';
import { hashToken, newToken } from './view-tokens.js';

const tokenLifetimeSeconds = 8 * 3600;

/**
 * POST /oauth2/token (OAuth2_PostToken → #/definitions/oauthAccess): the
 * legacy resource-owner password grant of API v2 (`grant_type=password`,
 * `client_id` = integrator key, `username`, `password`), form-encoded or
 * JSON. The token is then sent as `Authorization: Bearer …`; only its
 * sha256 is stored.
 */
export const oauthRoutes: FastifyPluginAsync = async (app) => {
  app.post('/oauth2/token', { config: { public: true } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const field = (name: string) => (typeof body[name] === 'string' ? body[name] : undefined);
    if (field('grant_type') !== 'password') {
      throw new ApiError(400, 'INVALID_GRANT_TYPE', 'Only grant_type=password is supported by the sandbox.');
    }
    const username = field('username');
    const password = field('password');
    const integratorKey = field('client_id');
    if (!username || password === undefined || !integratorKey)
      throw apiErrors.authenticationFailed('Send username, password and client_id.');
    const { sandbox } = request.server;
    const principal = await sandbox.auth.verifyCredentials(username, password, integratorKey);
    const token = newToken();
    const now = sandbox.clock.now();
    sandbox.db
      .prepare(
        'INSERT INTO access_tokens (token_hash, user_id, integrator_key, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(hashToken(token), principal.user.id, integratorKey, now, now + tokenLifetimeSeconds * 1000);
    // 201 as the Swagger states for OAuth2_PostToken.
    void reply.status(201).header('cache-control', 'no-store');
    return { access_token: token, token_type: 'bearer', scope: 'api', expires_in: String(tokenLifetimeSeconds) };
  });
};
