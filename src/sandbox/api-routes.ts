import type { FastifyPluginAsync } from 'fastify';
import { apiErrors } from './api-error.js';
import { loginRoutes } from './routes/login.js';
import { accountRoutes } from './routes/accounts.js';
import { envelopeRoutes } from './routes/envelopes.js';
import { recipientRoutes } from './routes/recipients.js';
import { managementViewApiRoutes, viewRoutes } from './routes/views.js';
import { documentRoutes } from './routes/documents.js';
import { templateRoutes } from './routes/templates.js';
import { oauthRoutes } from './routes/oauth.js';
import { folderRoutes } from './routes/folders.js';
import { permissionProfileRoutes } from './routes/permission-profiles.js';
import { groupRoutes } from './routes/groups.js';
import { userRoutes } from './routes/users.js';
import { bulkSendRoutes } from './routes/bulk-send.js';
import { brandRoutes } from './routes/brands.js';
import { userAuthorizationRoutes } from './routes/user-authorizations.js';
import { actingPrincipal, actOnBehalfHeader } from './auth/act-on-behalf.js';
import { connectConfigurationRoutes } from './routes/connect-configurations.js';
import { esignatureSettingsRoutes } from './admin/account-settings/esignature-settings-routes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No authentication (the token endpoint). */
    public?: boolean;
    /** 'route': the route checks access to :accountId itself (accounts: a distributor reads its subsidiaries). */
    accountAccess?: 'route';
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
