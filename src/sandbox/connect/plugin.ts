import type { FastifyPluginAsync } from 'fastify';

/**
 * Event notifications (DocuSign Connect-style webhooks) and the
 * `…/connect/failures` endpoint. app.ts registers it once the services are
 * decorated on the app. Scaffolding until the event-notification issue lands.
 */
export const connectPlugin: FastifyPluginAsync = async () => {};
