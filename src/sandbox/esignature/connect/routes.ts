import type { FastifyPluginAsync } from 'fastify';
import { accountParams } from '../route-schemas.js';
import { principalOf, type AccountParams } from '../request-helpers.js';
import { ApiError, apiErrors } from '../../platform/http/api-error.js';
import { lenientObject, lenientString } from '../../platform/http/lenient.js';
import {
  connectConfigurations,
  readConnectConfiguration,
  type ConnectConfiguration,
} from './connect-configurations.js';

/** A connectId that names no configuration of the account (DocuSign documents no code for it; the sandbox's word). */
const configurationNotFound = () =>
  new ApiError(400, 'CONNECT_CONFIGURATION_NOT_FOUND', 'The Connect configuration specified does not exist.');

const connectParams = {
  params: {
    type: 'object',
    required: ['accountId', 'connectId'],
    properties: { accountId: { type: 'string' }, connectId: { type: 'string', maxLength: 32 } },
  },
} as const;

/** #/definitions/connectConfigResults. */
const results = (configurations: ConnectConfiguration[]) => ({
  configurations,
  totalRecords: String(configurations.length),
});

/**
 * The account's Connect configurations (Connect in the Swagger): list,
 * create, update (the body names its connectId), read, delete. The event
 * delivery (connect/plugin.ts) publishes to every enabled configuration
 * whose users and events an envelope's event matches.
 */
export const connectConfigurationRoutes: FastifyPluginAsync = async (app) => {
  const store = () => connectConfigurations(app.sandbox.db);

  // GET …/connect (ConnectConfigurations_GetConnectConfigs → connectConfigResults).
  app.get<{ Params: AccountParams }>('/accounts/:accountId/connect', { schema: accountParams }, async (request) =>
    results(store().list(principalOf(request).account.id)),
  );

  // POST …/connect (ConnectConfigurations_PostConnectConfiguration → 201 connectCustomConfiguration).
  app.post<{ Params: AccountParams }>(
    '/accounts/:accountId/connect',
    { schema: accountParams },
    async (request, reply) => {
      const { account } = principalOf(request);
      const created = store().create(account.id, readConnectConfiguration(request.body), app.sandbox.clock.now());
      void reply.status(201);
      return created;
    },
  );

  // PUT …/connect (ConnectConfigurations_PutConnectConfiguration → connectCustomConfiguration): the body's connectId says which.
  app.put<{ Params: AccountParams }>('/accounts/:accountId/connect', { schema: accountParams }, async (request) => {
    const { account } = principalOf(request);
    const connectId = lenientString(
      lenientObject(request.body, 'connectCustomConfiguration')?.['connectId'],
      'connectId',
    );
    if (!connectId) throw apiErrors.invalidBody("'connectId' names the configuration to update.");
    const current = store().get(account.id, connectId);
    if (!current) throw configurationNotFound();
    return store().update(account.id, connectId, readConnectConfiguration(request.body, current));
  });

  // GET …/connect/{connectId} (ConnectConfigurations_GetConnectConfig → connectConfigResults of one).
  app.get<{ Params: AccountParams & { connectId: string } }>(
    '/accounts/:accountId/connect/:connectId',
    { schema: connectParams },
    async (request) => {
      const config = store().get(principalOf(request).account.id, request.params.connectId);
      if (!config) throw configurationNotFound();
      return results([config]);
    },
  );

  // DELETE …/connect/{connectId} (ConnectConfigurations_DeleteConnectConfig → 200).
  app.delete<{ Params: AccountParams & { connectId: string } }>(
    '/accounts/:accountId/connect/:connectId',
    { schema: connectParams },
    async (request, reply) => {
      if (!store().delete(principalOf(request).account.id, request.params.connectId)) throw configurationNotFound();
      return reply.status(200).send();
    },
  );
};
