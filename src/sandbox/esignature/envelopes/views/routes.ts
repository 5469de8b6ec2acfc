import { accountParams, envelopeParams } from '../../route-schemas.js';
import { managementViews } from './management-views.js';
import type { FastifyPluginAsync } from 'fastify';
import { envelopeOf, originOf, principalOf, type AccountParams, type EnvelopeParams } from '../../request-helpers.js';
import { recipientKind } from '../../../../envelope/index.js';
import { witnessedStillToSign } from '../routing.js';
import { apiErrors } from '../../../platform/http/api-error.js';
import { lenientObject, lenientString } from '../../../platform/http/lenient.js';
import type { RecipientRecord } from '../repository.js';
import { frameAncestorsStore, parseOrigins } from './frame-ancestors.js';
import { hashToken } from '../../authentication/view-tokens.js';

/**
 * POST …/envelopes/{envelopeId}/views/recipient (4.7; Views_PostEnvelopeRecipientView,
 * #/definitions/recipientViewRequest → 201 #/definitions/EnvelopeViews).
 * The recipient is chosen by userId, or by clientUserId + email + userName
 * (recipientId narrows it), as DocuSign does; only embedded recipients
 * (created with a clientUserId) get a view, and in-person signers, whose
 * host asks for it: email = hostEmail, userName = hostName (an in-person
 * signer's name and email are its host's), clientUserId when it has one.
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
      // DocuSign treats a non-embedded recipient as unknown here. An in-person
      // signer is the exception: its host, a user of the account, opens the
      // session for it (email and userName are the host's; DocuSign's eg039
      // asks for the view with no clientUserId).
      const principal = principalOf(request);
      const recipient = candidates.find((r) =>
        r.clientUserId !== null
          ? clientUserId === undefined
            ? userId !== undefined
            : r.clientUserId === clientUserId
          : clientUserId === undefined && hostedByCaller(r, principal.user.email),
      );
      if (!recipient) throw apiErrors.unknownRecipient();
      if (envelope.status === 'created')
        throw apiErrors.invalidStatus('The envelope is a draft: send it before asking for a signing view.');
      if (envelope.status === 'voided' || envelope.status === 'declined')
        throw apiErrors.invalidStatus(`The envelope is ${envelope.status}.`);
      // A witness's turn comes once the signer it witnesses has signed, even in the same routing order.
      if (recipient.status === 'created' || witnessedStillToSign(recipient, recipients) !== undefined)
        throw apiErrors.notInSequence();
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

/**
 * POST …/envelopes/{envelopeId}/views/sender (Views_PostEnvelopeSenderView,
 * #/definitions/returnUrlRequest — DocuSign's newer envelopeViewRequest with
 * `viewAccess` and `settings` is read the same way → 201 EnvelopeViews) and
 * POST …/views/console (Views_PostAccountConsoleView, #/definitions/consoleViewRequest
 * → 201 EnvelopeViews): single-use addresses of the sender view of a draft
 * and of the console (console/routes.ts), living as long as a signing view's.
 * The settings of the sender view (starting screen, which buttons show) are
 * accepted; the sandbox's page has one screen and shows Send and Save.
 */
export const managementViewApiRoutes: FastifyPluginAsync = async (app) => {
  app.post<{ Params: EnvelopeParams }>(
    '/accounts/:accountId/envelopes/:envelopeId/views/sender',
    { schema: envelopeParams },
    async (request, reply) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      const body = lenientObject(request.body, 'envelopeViewRequest');
      const returnUrl = lenientString(body?.['returnUrl'], 'returnUrl');
      if (!returnUrl) throw apiErrors.invalidParameter("'returnUrl' is required: the sender is sent there afterwards.");
      lenientObject(body?.['settings'], 'settings');
      if (envelope.status !== 'created')
        throw apiErrors.invalidStatus(`The envelope is ${envelope.status}: a sender view opens a draft.`);
      const { sandbox } = request.server;
      const token = managementViews(sandbox.db).issue(
        {
          kind: 'sender',
          accountId: envelope.accountId,
          userId: principalOf(request).user.id,
          envelopeId: envelope.id,
          returnUrl,
        },
        sandbox.clock.now(),
        sandbox.config.viewTokenTtlSeconds,
      );
      void reply.status(201);
      return { url: `${originOf(request)}/sending/${token}` };
    },
  );

  app.post<{ Params: AccountParams }>(
    '/accounts/:accountId/views/console',
    { schema: accountParams },
    async (request, reply) => {
      const { account, user } = principalOf(request);
      const body = lenientObject(request.body, 'consoleViewRequest') ?? {};
      const envelopeId = lenientString(body['envelopeId'], 'envelopeId');
      if (envelopeId) envelopeOf(request, envelopeId);
      const { sandbox } = request.server;
      const token = managementViews(sandbox.db).issue(
        {
          kind: 'console',
          accountId: account.id,
          userId: user.id,
          envelopeId: envelopeId ? envelopeId.toLowerCase() : null,
          // DocuSign does not require one: without, leaving the console lands on the sandbox's own page.
          returnUrl: lenientString(body['returnUrl'], 'returnUrl') || `${originOf(request)}/signing/done`,
        },
        sandbox.clock.now(),
        sandbox.config.viewTokenTtlSeconds,
      );
      void reply.status(201);
      return { url: `${originOf(request)}/console/${token}` };
    },
  );
};

/** An in-person signer whose host is the calling user (DocuSign: the host must be a user of the sending account). */
function hostedByCaller(recipient: RecipientRecord, callerEmail: string): boolean {
  return (
    recipientKind(recipient.kind).needsHost && recipient.details.hostEmail?.toLowerCase() === callerEmail.toLowerCase()
  );
}
