import type { FastifyPluginAsync } from 'fastify';
import { hashToken } from '../esignature/authentication/view-tokens.js';
import { publicOrigin } from '../platform/http/public-origin.js';
import { adminErrorHandler, adminErrors } from './admin-error.js';
import { createAdminContext } from './admin-context.js';
import { organizationRoutes } from './organizations/routes.js';
import { assetGroupRoutes } from './asset-groups/routes.js';
import { accountSettingsRoutes } from './account-settings/routes.js';
import { userRoutes } from './users/routes.js';
import { productRoutes } from './products/routes.js';
import { dsGroupRoutes } from './ds-groups/routes.js';
import { bulkUserRoutes } from './bulk/user-routes.js';
import { dataRedactionRoutes } from './data-redaction/routes.js';

export interface AdminApiOptions {
  /** The request log's line for an internal error. */
  log?: ((line: string) => void) | undefined;
  /** How long account creation and cloning take (ms of the sandbox's clock). Default 1000. */
  workDelayMs?: number;
}

/**
 * DocuSign's Admin API (admin.rest.swagger-v2.1.json), registered under
 * /management. Every route takes a Bearer token from the account server
 * (`/oauth/token`) whose scopes hold the route's `adminScope`; a path's
 * {organizationId} must be an organisation the caller administers. Errors
 * are the Admin API's `{ error, error_description }`. Asynchronous work
 * (account creation and cloning, bulk jobs) is done when due, at the next
 * request or tick of the sandbox's clock.
 */
export const adminApiPlugin: FastifyPluginAsync<AdminApiOptions> = async (app, options) => {
  const { sandbox } = app;
  const context = createAdminContext(sandbox, options.workDelayMs ?? 1000, () => publicOrigin(app));
  const tokenScope = sandbox.db.prepare<[string], { scope: string | null }>(
    'SELECT scope FROM access_tokens WHERE token_hash = ?',
  );
  // Closing an account (eSignature's DELETE /accounts/{accountId}) is open to the administrators of the
  // organisation that made it; the sandbox's seeded accounts, which no work made, stay protected.
  sandbox.closableByOrganizationAdmin = (accountId, email) => {
    const work = context.works.madeAccount(accountId);
    return (
      work !== undefined &&
      context.organizations.organizationOfAccount(accountId)?.organizationId === work.organizationId &&
      context.organizations.administeredBy(email).some((o) => o.id === work.organizationId)
    );
  };
  app.decorateRequest('adminCaller', null);
  app.decorateRequest('adminOrganization', null);
  app.setErrorHandler((error: Error, request, reply) => adminErrorHandler(error, request, reply, options.log));
  app.setNotFoundHandler((request, reply) => {
    request.apiErrorCode = 'not_found';
    void reply.status(404).send({
      error: 'not_found',
      error_description: `There is no ${request.method} ${request.url.split('?')[0]} in the sandbox's Admin API.`,
    });
  });

  // Work whose time has come is done before the request reads it; a tick does it when nobody calls.
  const settle = () => {
    const now = sandbox.clock.now();
    context.works.settleDue(now);
    context.jobs.settleDue(now);
  };
  app.addHook('onRequest', async () => settle());
  const tick = setInterval(() => {
    try {
      settle();
    } catch (error) {
      process.emitWarning(error instanceof Error ? error : String(error), { code: 'SIGNRUN_SANDBOX_ADMIN_TICK' });
    }
  }, 1000);
  tick.unref();
  app.addHook('onClose', async () => clearInterval(tick));

  app.addHook('preValidation', async (request, reply) => {
    const authorization = request.headers.authorization;
    if (!authorization || !/^bearer\s+/i.test(authorization))
      throw adminErrors.unauthorized('The Admin API takes an OAuth access token: send Authorization: Bearer <token>.');
    const principal = await sandbox.auth.authenticate({ authorization });
    const scope = tokenScope.get(hashToken(authorization.replace(/^bearer\s+/i, '').trim()))?.scope ?? '';
    const scopes = new Set(scope.split(' ').filter((s) => s !== ''));
    request.adminCaller = { principal, scopes };
    const wanted = request.routeOptions.config.adminScope;
    if (wanted !== undefined && !scopes.has(wanted)) throw adminErrors.missingScope(wanted);
    const organizationId = (request.params as { organizationId?: string } | undefined)?.organizationId;
    if (organizationId !== undefined) {
      const organization = context.organizations.organization(organizationId);
      const administers =
        organization !== undefined &&
        context.organizations.administeredBy(principal.user.email).some((o) => o.id === organization.id);
      if (!administers) throw adminErrors.unknownOrganization(organizationId);
      request.adminOrganization = organization;
    }
    for (const limiter of sandbox.limiters) {
      const decision = limiter.check(principal.account.id);
      for (const [name, value] of Object.entries(decision.headers)) void reply.header(name, value);
      if (decision.refuse) throw decision.refuse;
    }
  });

  await app.register(organizationRoutes, { context });
  await app.register(assetGroupRoutes, { context });
  await app.register(accountSettingsRoutes, { context });
  await app.register(userRoutes, { context });
  await app.register(productRoutes, { context });
  await app.register(dsGroupRoutes, { context });
  await app.register(bulkUserRoutes, { context });
  await app.register(dataRedactionRoutes, { context });
};
