import { envelopeParams } from './route-schemas.js';
import type { FastifyPluginAsync } from 'fastify';
import { envelopeOf, originOf, type EnvelopeParams } from './request-helpers.js';
import { apiErrors } from '../api-error.js';
import { lenientObject, lenientString } from '../wire/lenient.js';
import type { RecipientRecord } from '../repositories/envelopes.js';
import { frameAncestorsStore, parseOrigins } from '../signing/frame-ancestors.js';
import { hashToken } from '../repositories/view-tokens.js';

/**
 * POST …/envelopes/{envelopeId}/views/recipient (4.7; Views_PostEnvelopeRecipientView,
 * #/definitions/recipientViewRequest → 201 #/definitions/EnvelopeViews).
 * The recipient is chosen by userId, or by clientUserId + email + userName
 * (recipientId narrows it), as DocuSign does; only embedded recipients
 * (created with a clientUserId) get a view.
 */
export const viewRoutes: FastifyPluginAsync = async (app) => {
  app.post<{ Params: EnvelopeParams }>(
    '/accounts/:accountId/envelopes/:envelopeId/views/recipient',
    { schema: envelopeParams },
    async (request, reply) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      const body = lenientObject(request.body, 'recipientViewRequest');
      if (!body) throw apiErrors.invalidBody('Send a recipientViewRequest as JSON.');
      const returnUrl = lenientString(body['returnUrl'], 'returnUrl');
      if (!returnUrl)
        throw apiErrors.invalidParameter("'returnUrl' is required: the signer is sent there after signing.");
      const userId = lenientString(body['userId'], 'userId')?.toLowerCase();
      const clientUserId = lenientString(body['clientUserId'], 'clientUserId');
      const email = lenientString(body['email'], 'email');
      const userName = lenientString(body['userName'], 'userName');
      const recipientId = lenientString(body['recipientId'], 'recipientId');
      // Focused view: origins that may embed the signing page (CSP frame-ancestors).
      // messageOrigins is checked the same way; the sandbox's page posts no messages.
      const frameAncestors = parseOrigins(body['frameAncestors'], 'frameAncestors');
      parseOrigins(body['messageOrigins'], 'messageOrigins');

      const { sandbox } = request.server;
      const recipients = sandbox.envelopes.recipients(envelope.id);
      let candidates: RecipientRecord[];
      if (userId) {
        candidates = recipients.filter((r) => r.userId === userId);
      } else {
        if (!email || !userName)
          throw apiErrors.invalidParameter(
            "Name the recipient by 'userId', or by 'email' and 'userName' (with 'clientUserId').",
          );
        candidates = recipients.filter(
          (r) => r.email.toLowerCase() === email.toLowerCase() && r.name.toLowerCase() === userName.toLowerCase(),
        );
      }
      if (recipientId) candidates = candidates.filter((r) => r.recipientId === recipientId);
      // An embedded view needs the clientUserId the recipient was created with;
      // DocuSign treats a non-embedded recipient as unknown here.
      const recipient = candidates.find(
        (r) =>
          r.clientUserId !== null &&
          (clientUserId === undefined ? userId !== undefined : r.clientUserId === clientUserId),
      );
      if (!recipient) throw apiErrors.unknownRecipient();
      if (envelope.status === 'created')
        throw apiErrors.invalidStatus('The envelope is a draft: send it before asking for a signing view.');
      if (envelope.status === 'voided' || envelope.status === 'declined')
        throw apiErrors.invalidStatus(`The envelope is ${envelope.status}.`);
      if (recipient.status === 'created') throw apiErrors.notInSequence();
      const token = sandbox.viewTokens.issue(
        { envelopeId: envelope.id, accountId: envelope.accountId, recipientId: recipient.recipientId, returnUrl },
        sandbox.clock.now(),
        sandbox.config.viewTokenTtlSeconds,
      );
      frameAncestorsStore(sandbox.db).forToken(hashToken(token), frameAncestors);
      void reply.status(201);
      return { url: `${originOf(request)}/signing/${token}` };
    },
  );
};
