import type { FastifyPluginAsync } from 'fastify';
import { principalOf, apiBaseOf } from '../request-helpers.js';

/** GET /login_information (4.1; #/definitions/loginInformation). */
export const loginRoutes: FastifyPluginAsync = async (app) => {
  app.get('/login_information', async (request) => {
    const { user, account } = principalOf(request);
    return {
      loginAccounts: [
        {
          name: account.name,
          accountId: account.id,
          accountIdGuid: account.id,
          baseUrl: `${apiBaseOf(request)}/accounts/${account.id}`,
          isDefault: 'true',
          userName: user.userName,
          userId: user.id,
          email: user.email,
          siteDescription: '',
        },
      ],
    };
  });
};
