import type { FastifyPluginAsync } from 'fastify';
import { apiErrors } from '../../platform/http/api-error.js';
import { requirePermission } from '../permission-profiles/permissions.js';
import { accountParams } from '../route-schemas.js';
import { accountSettingsStore, settingNamePattern } from './settings-store.js';

type AccountParams = { accountId: string };

/**
 * The eSignature API's account settings (`GET/PUT /accounts/{accountId}/settings`,
 * `#/definitions/accountSettingsInformation`), over the same store as the
 * Admin API's settings export/import and account clone: a setting is a
 * string-valued property of accountSettingsInformation; the metadata objects
 * (`…Metadata`) and the nested settings objects are not kept. GET lists the
 * settings that were set (absent: DocuSign's default).
 */
export const esignatureSettingsRoutes: FastifyPluginAsync = async (app) => {
  const store = accountSettingsStore(app.sandbox.db);

  app.get<{ Params: AccountParams }>('/accounts/:accountId/settings', { schema: accountParams }, async (request) =>
    store.of(request.params.accountId.toLowerCase()),
  );

  app.put<{ Params: AccountParams }>('/accounts/:accountId/settings', { schema: accountParams }, async (request) => {
    requirePermission(request, 'allowAccountManagement');
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw apiErrors.invalidBody('Send an accountSettingsInformation object.');
    const settings: Record<string, string> = {};
    for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
      if (!settingNamePattern.test(name)) throw apiErrors.invalidBody(`'${name}' is not a setting name.`);
      settings[name] = String(value);
    }
    store.put(request.params.accountId.toLowerCase(), settings);
    return {};
  });
};
