import type { FastifyReply, FastifyRequest } from 'fastify';
import { recipientKind } from '../../envelope/index.js';
import { mustAct } from '../esignature/envelopes/routing.js';
import { applyEntered } from '../esignature/envelopes/tabs/entered-values.js';
import { StampPageError } from '../platform/pdf/stamp-signatures.js';
import { accessCodeState, tryAccessCode } from './access-code.js';
import { actsOnButtons, buttonTabs, unopenedViews } from './button-tabs.js';
import { parsePlacements, signaturePlaces, type SignaturePlace } from './signature-places.js';
import { signRecipient } from './sign-recipient.js';
import { actorOf, type Form, type SigningContext } from './signing-context.js';
import { renderSigningPage } from './signing-page.js';
import type { SigningSession } from './signing-sessions.js';

type ActionRequest = FastifyRequest<{ Params: { sessionId: string }; Body: Form }>;

/**
 * The page's actions (POSTs with the session cookie and the CSRF token):
 * sign, decline, enter the access code, act without signing, cancel. Each
 * ends with a 303 to the client's returnUrl + `event=` (DESIGN "Signing"), or
 * the page shown again with what is wrong.
 */
export function signingActionRoutes(context: SigningContext): void {
  const { app } = context;
  const route = (action: string, handler: (request: ActionRequest, reply: FastifyReply) => Promise<unknown>) =>
    app.post<{ Params: { sessionId: string }; Body: Form }>(`/signing/s/:sessionId/${action}`, handler);
  route('sign', (request, reply) => sign(context, request, reply));
  route('approve', (request, reply) => sign(context, request, reply, 'approve'));
  route('decline', (request, reply) => decline(context, request, reply));
  route('access-code', (request, reply) => enterAccessCode(context, request, reply));
  route('act', (request, reply) => act(context, request, reply));
  route('cancel', async (request, reply) => {
    const session = context.checkSession(request, reply, true);
    if (session === undefined) return reply;
    return context.finish(reply, session, 'cancel');
  });
}

/**
 * Finish (`sign`) or an approve tab (`approve`): the fields are checked the
 * same way (required ones filled, values that fit, required view tabs
 * opened); finishing adopts the typed signature and stamps it, approving
 * completes the recipient without any signature (DocuSign's approve tab).
 */
async function sign(
  context: SigningContext,
  request: ActionRequest,
  reply: FastifyReply,
  action: 'sign' | 'approve' = 'sign',
) {
  const session = context.checkSession(request, reply, true);
  if (session === undefined) return reply;
  if (!context.documentsMayShow(session)) return renderSigningPage(context, reply, session, 403);
  const form = request.body;
  const text = context.textFor(session);
  const recipient = context.recipientOf(session);
  const tabs = recipient?.tabs ?? {};
  const approving = action === 'approve';
  if (approving && !buttonTabs(tabs).some((b) => b.kind === 'approve'))
    return renderSigningPage(context, reply, session, 400);
  const signatureName = approving ? '' : (form['signatureName'] ?? '').trim().slice(0, 100);
  if (!approving && signatureName === '')
    return renderSigningPage(context, reply, session, 400, { error: text.errorNoName, signatureName });
  // What the signer entered in the fields; required ones must be filled, values must fit their kind.
  const entered = applyEntered(tabs, form);
  const unopened = unopenedViews(tabs, form, text.viewTab);
  const fieldsProblem =
    entered.missing.length > 0
      ? text.errorRequiredFields(entered.missing.join(', '))
      : entered.invalid.length > 0
        ? text.errorInvalidFields(entered.invalid.join(', '))
        : unopened.length > 0
          ? text.errorUnopenedViews(unopened.join(', '))
          : undefined;
  if (fieldsProblem !== undefined)
    return renderSigningPage(context, reply, session, 400, {
      error: fieldsProblem,
      ...(approving ? {} : { signatureName }),
      entered: entered.tabs,
    });
  const places = approving ? [] : placesToSign(context, session, tabs, form);
  if (places === undefined)
    return renderSigningPage(context, reply, session, 400, { error: text.errorNoPlacement, signatureName });
  try {
    await signInTurn(context, request, session, { signatureName, places, tabs: entered.tabs });
  } catch (error) {
    if (error instanceof StampPageError)
      return renderSigningPage(context, reply, session, 400, { error: text.errorNoPlacement, signatureName });
    return context.lifecycleRefusal(reply, text, error, session.returnUrl);
  }
  return context.finish(reply, session, 'signing_complete');
}

/** The recipient's signature tabs, or (none placed by the sender) the places the signer chose on the page. */
function placesToSign(
  context: SigningContext,
  session: SigningSession,
  tabs: Parameters<typeof signaturePlaces>[0],
  form: Form,
): SignaturePlace[] | undefined {
  const placed = signaturePlaces(tabs);
  // A signer the sender gave an approve or decline tab (and no signature tab) finishes without one, as on DocuSign.
  if (placed.length > 0 || actsOnButtons(tabs)) return placed;
  const ids = new Set(context.visibleDocumentsOf(session).map((d) => d.documentId));
  const chosen = parsePlacements(form['placements'], ids);
  return chosen === undefined || chosen.length === 0 ? undefined : chosen;
}

/** Signs under the envelope's lock (the stamp and seal on the document pool: sign-recipient.ts). */
function signInTurn(
  context: SigningContext,
  request: FastifyRequest,
  session: SigningSession,
  signature: { signatureName: string; places: SignaturePlace[]; tabs?: Parameters<typeof signaturePlaces>[0] },
) {
  return context.lock.run(session.envelopeId, () =>
    signRecipient(context.services, context.sealingKey, {
      envelopeId: session.envelopeId,
      recipientId: session.recipientId,
      ...signature,
      actor: actorOf(request),
    }),
  );
}

async function decline(context: SigningContext, request: ActionRequest, reply: FastifyReply) {
  const session = context.checkSession(request, reply, true);
  if (session === undefined) return reply;
  if (!context.documentsMayShow(session)) return renderSigningPage(context, reply, session, 403);
  const reason = (request.body['reason'] ?? '').trim().slice(0, 500);
  if (reason === '')
    return renderSigningPage(context, reply, session, 400, { error: context.textFor(session).errorNoReason });
  try {
    await context.lock.run(session.envelopeId, async () =>
      context.services.lifecycle.markDeclined(session.envelopeId, session.recipientId, {
        ...actorOf(request),
        reason,
      }),
    );
  } catch (error) {
    return context.lifecycleRefusal(reply, context.textFor(session), error, session.returnUrl);
  }
  return context.finish(reply, session, 'decline');
}

// The access code, checked against its hash; a wrong one counts against the recipient (access-code.ts).
async function enterAccessCode(context: SigningContext, request: ActionRequest, reply: FastifyReply) {
  const { services } = context;
  const session = context.checkSession(request, reply, true);
  if (session === undefined) return reply;
  const recipient = context.recipientOf(session);
  const text = context.textFor(session);
  if (recipient === undefined || accessCodeState(recipient) === 'none' || session.accessCodePassed)
    return renderSigningPage(context, reply, session, 200);
  const entered = (request.body['accessCode'] ?? '').trim();
  if (entered === '') return renderSigningPage(context, reply, session, 400, { error: text.errorNoAccessCode });
  const attempt = await tryAccessCode(services.envelopes, recipient, entered);
  if (attempt.outcome === 'wrong')
    return renderSigningPage(context, reply, session, 400, { error: text.errorWrongAccessCode(attempt.left) });
  if (attempt.outcome === 'locked') return renderSigningPage(context, reply, session, 403);
  context.sessions.passAccessCode(session.id, services.clock.now());
  if (mustAct(recipient)) {
    try {
      services.lifecycle.markDelivered(session.envelopeId, session.recipientId, actorOf(request));
    } catch (error) {
      return context.lifecycleRefusal(reply, text, error, session.returnUrl);
    }
  }
  return reply.redirect(`/signing/s/${session.id}`, 303);
}

// A recipient who acts without signing (certified delivery, editor, agent, intermediary) finishes its part.
async function act(context: SigningContext, request: ActionRequest, reply: FastifyReply) {
  const session = context.checkSession(request, reply, true);
  if (session === undefined) return reply;
  if (!context.documentsMayShow(session)) return renderSigningPage(context, reply, session, 403);
  const recipient = context.recipientOf(session);
  if (recipient === undefined || !mustAct(recipient) || recipientKind(recipient.kind).signs)
    return renderSigningPage(context, reply, session, 400);
  try {
    await signInTurn(context, request, session, { signatureName: '', places: [] });
  } catch (error) {
    return context.lifecycleRefusal(reply, context.textFor(session), error, session.returnUrl);
  }
  // DocuSign's event for a recipient who only had to view.
  const event = recipientKind(recipient.kind).completesOn === 'viewing' ? 'viewing_complete' : 'signing_complete';
  return context.finish(reply, session, event);
}
