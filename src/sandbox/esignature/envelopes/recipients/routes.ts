import { envelopeParams, recipientParams } from '../../route-schemas.js';
import type { FastifyPluginAsync } from 'fastify';
import { envelopeOf, type EnvelopeParams } from '../../request-helpers.js';
import { recipientsJson } from '../wire/envelope-json.js';
import { envelopeFormDataJson } from './form-data-json.js';
import { apiErrors } from '../../../platform/http/api-error.js';
import { documentVisibility } from '../documents/document-visibility.js';

/**
 * GET …/envelopes/{envelopeId}/recipients (4.6; #/definitions/EnvelopeRecipients): signers in
 * submission order, each with userId and tabs (with their values, `include_tabs=true` or not);
 * GET …/recipients/{recipientId}/tabs (#/definitions/EnvelopeRecipientTabs);
 * GET …/envelopes/{envelopeId}/form_data (#/definitions/envelopeFormData);
 * GET …/recipients/{recipientId}/document_visibility (#/definitions/documentVisibilityList).
 */
export const recipientRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: EnvelopeParams }>(
    '/accounts/:accountId/envelopes/:envelopeId/recipients',
    { schema: envelopeParams },
    async (request) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      return recipientsJson(request.server.sandbox.envelopes.recipients(envelope.id));
    },
  );

  app.get<{ Params: EnvelopeParams & { recipientId: string } }>(
    '/accounts/:accountId/envelopes/:envelopeId/recipients/:recipientId/tabs',
    { schema: recipientParams },
    async (request) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      const wanted = request.params.recipientId.toLowerCase();
      const recipient = request.server.sandbox.envelopes
        .recipients(envelope.id)
        .find((r) => r.recipientId === wanted || r.recipientIdGuid.toLowerCase() === wanted);
      if (recipient === undefined) throw apiErrors.unknownRecipient();
      return recipient.tabs;
    },
  );

  // Which documents the recipient sees (document-visibility.ts; DocuSign's eg040).
  app.get<{ Params: EnvelopeParams & { recipientId: string } }>(
    '/accounts/:accountId/envelopes/:envelopeId/recipients/:recipientId/document_visibility',
    { schema: recipientParams },
    async (request) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      const { sandbox } = request.server;
      const recipients = sandbox.envelopes.recipients(envelope.id);
      const wanted = request.params.recipientId.toLowerCase();
      const recipient = recipients.find((r) => r.recipientId === wanted || r.recipientIdGuid.toLowerCase() === wanted);
      if (recipient === undefined) throw apiErrors.unknownRecipient();
      const visibility = documentVisibility(sandbox.db);
      return {
        documentVisibility: sandbox.envelopes.documents(envelope.id).map((d) => ({
          documentId: d.documentId,
          recipientId: recipient.recipientId,
          visible: String(visibility.visible(envelope.id, recipient, recipients, d.documentId)),
          rights: 'editable',
        })),
      };
    },
  );

  app.get<{ Params: EnvelopeParams }>(
    '/accounts/:accountId/envelopes/:envelopeId/form_data',
    { schema: envelopeParams },
    async (request) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      return envelopeFormDataJson(envelope, request.server.sandbox.envelopes.recipients(envelope.id));
    },
  );
};
