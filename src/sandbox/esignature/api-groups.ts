// Generated from the API groups' folders by `npm run docs:kinds` (src/sandbox/api-groups/api-group-files.ts):
// a group's `routes.ts` and `<what>-routes.ts` files, their `<what>Routes` exports. Do not edit by hand.
import type { FastifyPluginAsync } from 'fastify';
import { accountRoutes } from './accounts/routes.js';
import { esignatureSettingsRoutes } from './accounts/settings-routes.js';
import { loginRoutes } from './authentication/routes.js';
import { oauthRoutes } from './authentication/token-routes.js';
import { brandRoutes } from './brands/routes.js';
import { bulkSendRoutes } from './bulk-send/routes.js';
import { connectConfigurationRoutes } from './connect/routes.js';
import { envelopeRoutes } from './envelopes/routes.js';
import { docGenRoutes } from './envelopes/docgen/routes.js';
import { documentRoutes } from './envelopes/documents/routes.js';
import { recipientRoutes } from './envelopes/recipients/routes.js';
import { managementViewApiRoutes, viewRoutes } from './envelopes/views/routes.js';
import { folderRoutes } from './folders/routes.js';
import { groupRoutes } from './groups/routes.js';
import { permissionProfileRoutes } from './permission-profiles/routes.js';
import { templatePartRoutes } from './templates/parts-routes.js';
import { templateRoutes } from './templates/routes.js';
import { userAuthorizationRoutes } from './user-authorizations/routes.js';
import { userRoutes } from './users/routes.js';

/** The route plugins of the API's groups, in their folders' order: api-routes.ts registers them. */
export const esignatureGroupRoutes: readonly FastifyPluginAsync[] = [
  accountRoutes,
  esignatureSettingsRoutes,
  loginRoutes,
  oauthRoutes,
  brandRoutes,
  bulkSendRoutes,
  connectConfigurationRoutes,
  envelopeRoutes,
  docGenRoutes,
  documentRoutes,
  recipientRoutes,
  managementViewApiRoutes,
  viewRoutes,
  folderRoutes,
  groupRoutes,
  permissionProfileRoutes,
  templatePartRoutes,
  templateRoutes,
  userAuthorizationRoutes,
  userRoutes,
];
