import { envelopeParams } from './route-schemas.js';
import type { FastifyPluginAsync } from 'fastify';
import { envelopeOf, type EnvelopeParams } from './request-helpers.js';
import { recipientsJson } from '../wire/envelope-json.js';

/** GET …/envelopes/{envelopeId}/recipients (4.6; #/definitions/EnvelopeRecipients): signers in submission order, each with userId. */
export const recipientRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: EnvelopeParams }>(
    '/accounts/:accountId/envelopes/:envelopeId/recipients',
    { schema: envelopeParams },
    async (request) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      return recipientsJson(request.server.sandbox.envelopes.recipients(envelope.id));
    },
  );
};
