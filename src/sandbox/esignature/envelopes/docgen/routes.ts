import type { FastifyPluginAsync } from 'fastify';
import { docGenFormFieldsJson, updateDocGenFormFields } from './docgen-form-fields.js';
import { envelopeParams } from '../../route-schemas.js';
import { envelopeOf, type EnvelopeParams } from '../../request-helpers.js';

/**
 * DocuSign's Document Generation (docusign-esign 10's
 * EnvelopesApi.getEnvelopeDocGenFormFields / updateEnvelopeDocGenFormFields;
 * the checked-in Swagger predates them): an envelope's DocGen documents and
 * their merge fields, read, and set on a draft.
 */
export const docGenRoutes: FastifyPluginAsync = async (app) => {
  // GET …/envelopes/{envelopeId}/docGenFormFields → DocGenFormFieldResponse.
  app.get<{ Params: EnvelopeParams }>(
    '/accounts/:accountId/envelopes/:envelopeId/docGenFormFields',
    { schema: envelopeParams },
    async (request) => docGenFormFieldsJson(request.server.sandbox, envelopeOf(request, request.params.envelopeId)),
  );

  // PUT …/envelopes/{envelopeId}/docGenFormFields[?update_docgen_formfields_only=true] (DocGenFormFieldRequest) → DocGenFormFieldResponse.
  app.put<{ Params: EnvelopeParams; Querystring: { update_docgen_formfields_only?: string } }>(
    '/accounts/:accountId/envelopes/:envelopeId/docGenFormFields',
    { schema: envelopeParams },
    async (request) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      const fieldsOnly = (request.query.update_docgen_formfields_only ?? '').trim().toLowerCase() === 'true';
      return updateDocGenFormFields(request.server.sandbox, envelope, request.body, fieldsOnly);
    },
  );
};
