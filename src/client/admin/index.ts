export { AdminClient, adminClientOf } from './admin-client.js';
export { adminBaseOf, docusignAdminBases } from './admin-base.js';
export { adminJwtScopes } from './admin-scopes.js';
export type * from './admin-wire.js';
export { registerSandboxKey } from './sandbox-key.js';
