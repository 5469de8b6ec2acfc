import type { FastifyPluginAsync } from 'fastify';

/**
 * The signing page behind the URLs that views/recipient returns
 * (`/signing/:token`). app.ts registers it at the root (not under /restapi).
 * Scaffolding until the signing-page issue lands.
 */
export const signingRoutes: FastifyPluginAsync = async () => {};
