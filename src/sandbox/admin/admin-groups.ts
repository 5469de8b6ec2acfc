// Generated from the API groups' folders by `npm run docs:kinds` (src/sandbox/api-groups/api-group-files.ts):
// a group's `routes.ts` and `<what>-routes.ts` files, their `<what>Routes` exports. Do not edit by hand.
import type { FastifyPluginAsync } from 'fastify';
import type { AdminContext } from './admin-context.js';
import { accountSettingsRoutes } from './account-settings/routes.js';
import { assetGroupRoutes } from './asset-groups/routes.js';
import { bulkUserRoutes } from './bulk/user-routes.js';
import { dataRedactionRoutes } from './data-redaction/routes.js';
import { dsGroupRoutes } from './ds-groups/routes.js';
import { organizationRoutes } from './organizations/routes.js';
import { productRoutes } from './products/routes.js';
import { userRoutes } from './users/routes.js';

/** The route plugins of the API's groups, in their folders' order: admin-plugin.ts registers them, each given the Admin API's context. */
export const adminGroupRoutes: readonly FastifyPluginAsync<{ context: AdminContext }>[] = [
  accountSettingsRoutes,
  assetGroupRoutes,
  bulkUserRoutes,
  dataRedactionRoutes,
  dsGroupRoutes,
  organizationRoutes,
  productRoutes,
  userRoutes,
];
