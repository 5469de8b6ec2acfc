import type { FastifyPluginAsync } from 'fastify';
import { apiErrors } from '../platform/http/api-error.js';
import { loginRoutes } from './authentication/routes.js';
import { accountRoutes } from './accounts/routes.js';
import { envelopeRoutes } from './envelopes/routes.js';
import { recipientRoutes } from './envelopes/recipients/routes.js';
import { managementViewApiRoutes, viewRoutes } from './envelopes/views/routes.js';
import { documentRoutes } from './envelopes/documents/routes.js';
import { templateRoutes } from './templates/routes.js';
import { docGenRoutes } from './envelopes/docgen/routes.js';
import { templatePartRoutes } from './templates/parts-routes.js';
import { oauthRoutes } from './authentication/token-routes.js';
import { folderRoutes } from './folders/routes.js';
import { permissionProfileRoutes } from './permission-profiles/routes.js';
import { groupRoutes } from './groups/routes.js';
import { userRoutes } from './users/routes.js';
import { bulkSendRoutes } from './bulk-send/routes.js';
import { brandRoutes } from './brands/routes.js';
import { userAuthorizationRoutes } from './user-authorizations/routes.js';
import { actingPrincipal, actOnBehalfHeader } from './authentication/act-on-behalf.js';
import type { Principal } from './authentication/authenticate.js';
import { connectConfigurationRoutes } from './connect/routes.js';
import { esignatureSettingsRoutes } from './accounts/settings-routes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No authentication (the token endpoint). */
    public?: boolean;
    /** 'route': the route checks access to :accountId itself (accounts: a distributor reads its subsidiaries). */
    accountAccess?: 'route';
  }
  interface FastifyRequest {
    /** The authenticated caller of an API route (set by the hook below); null on public routes. */
    principal: Principal | null;
  }
}

/**
 * The eSignature REST API v2, registered under /restapi/v2 and /restapi/v2.1.
 * Every route except the token endpoint authenticates the caller; paths with
 * an {accountId} must name the caller's account (USER_LACKS_MEMBERSHIP
 * otherwise, whether or not it exists); then the limiters run.
 */
export const apiRoutes: FastifyPluginAsync = async (app) => {
  // preValidation: authentication comes before the schema checks of params and query.
  app.addHook('preValidation', async (request, reply) => {
    const { sandbox } = request.server;
    if (sandbox.config.latencyMs > 0) await sandbox.delay(sandbox.config.latencyMs);
    const config = request.routeOptions.config;
    if (config.public) return;
    const principal = actingPrincipal(
      sandbox.db,
      sandbox.accounts,
      await sandbox.auth.authenticate(request.headers),
      request.headers[actOnBehalfHeader],
      sandbox.clock.now(),
    );
    request.principal = principal;
    const params = request.params as { accountId?: string } | undefined;
    if (
      params?.accountId !== undefined &&
      config.accountAccess !== 'route' &&
      params.accountId.toLowerCase() !== principal.account.id
    ) {
      throw apiErrors.userLacksMembership();
    }
    for (const limiter of sandbox.limiters) {
      const decision = limiter.check(principal.account.id);
      for (const [name, value] of Object.entries(decision.headers)) void reply.header(name, value);
      if (decision.refuse) throw decision.refuse;
    }
  });

  await app.register(loginRoutes);
  await app.register(accountRoutes);
  await app.register(envelopeRoutes);
  await app.register(recipientRoutes);
  await app.register(viewRoutes);
  await app.register(managementViewApiRoutes);
  await app.register(documentRoutes);
  await app.register(templateRoutes);
  await app.register(templatePartRoutes);
  await app.register(docGenRoutes);
  await app.register(oauthRoutes);
  await app.register(folderRoutes);
  await app.register(permissionProfileRoutes);
  await app.register(groupRoutes);
  await app.register(userRoutes);
  await app.register(bulkSendRoutes);
  await app.register(brandRoutes);
  await app.register(connectConfigurationRoutes);
  await app.register(userAuthorizationRoutes);
  await app.register(esignatureSettingsRoutes);
};
