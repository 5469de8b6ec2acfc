import type { FastifyReply } from 'fastify';
import { recipientHasActed } from '../../envelope/statuses.js';
import { recipientKind, type Tabs } from '../../envelope/index.js';
import type { TabSize } from '../../pdf/index.js';
import { envelopePageBrand } from '../esignature/brands/brand-look.js';
import { mustAct } from '../esignature/envelopes/routing.js';
import type { RecipientRecord } from '../esignature/envelopes/repository.js';
import { placeOnPages } from '../esignature/envelopes/tabs/page-places.js';
import { fillServiceTabs } from '../esignature/envelopes/tabs/tab-values.js';
import { signingFields } from '../esignature/envelopes/tabs/entered-values.js';
import { accessCodeState } from './access-code.js';
import { buttonTabs } from './button-tabs.js';
import { liveFormulaInputs } from './live-formulas.js';
import { accessCodePageHtml, messagePageHtml, signingPageHtml, viewPageHtml } from './page-html.js';
import { pageText, type PageText } from './page-text.js';
import { returnAddress } from './return-address.js';
import { marksOnPage, signaturePlaces } from './signature-places.js';
import { html, type SigningContext } from './signing-context.js';
import type { SigningSession } from './signing-sessions.js';

/** What a page shown again carries back: the error, and what the signer had typed. */
export interface PageAgain {
  error?: string;
  signatureName?: string;
  entered?: Tabs;
}

/**
 * The page of a session: closed or unknown, the access code form, the
 * documents to view (a recipient who does not sign), or the signing page
 * with every tab where the stamp will write it.
 */
export async function renderSigningPage(
  context: SigningContext,
  reply: FastifyReply,
  session: SigningSession,
  status: number,
  again: PageAgain = {},
): Promise<FastifyReply> {
  const { services } = context;
  const { error } = again;
  const envelope = services.envelopes.getById(session.envelopeId);
  const recipient = context.recipientOf(session);
  const text = pageText(recipient?.supportedLanguage);
  if (envelope === undefined || recipient === undefined) {
    return html(reply, 404, messagePageHtml(text, text.unknownTitle, text.unknownBody));
  }
  // A carbon copy reads the documents whenever it likes, completed ones included.
  if ((mustAct(recipient) && recipientHasActed(recipient.status)) || envelope.status === 'voided') {
    return html(
      reply,
      410,
      messagePageHtml(text, text.closedTitle, text.closedBody, returnAddress(session.returnUrl, 'ttl_expired')),
    );
  }
  const codeState = accessCodeState(recipient);
  if (codeState === 'locked' && !session.accessCodePassed)
    return html(reply, 403, messagePageHtml(text, text.lockedTitle, text.lockedBody));
  if (codeState === 'required' && !session.accessCodePassed) {
    return html(
      reply,
      status,
      accessCodePageHtml({
        text,
        sessionId: session.id,
        csrfToken: session.csrfToken,
        ...(error === undefined ? {} : { error }),
      }),
    );
  }
  const senderName = services.accounts.account(envelope.accountId)?.name ?? 'signrun sandbox';
  const brand = envelopePageBrand(services.db, services.blobs, envelope.id);
  const visible = context.visibleDocumentsOf(session);
  const documents = visible.map((d) => ({ documentId: d.documentId, name: d.name }));
  const page = {
    text,
    sessionId: session.id,
    csrfToken: session.csrfToken,
    senderName,
    emailSubject: envelope.emailSubject,
    documents,
    ...(brand === undefined ? {} : { brand }),
  };
  if (!recipientKind(recipient.kind).signs)
    return html(reply, status, viewPageHtml({ ...page, acts: mustAct(recipient) }));
  const notice = signingNotice(context, text, recipient);
  // Every tab on its document, where the preview draws it and the stamp will write it (page-places.ts).
  const pagesOf = new Map<string, readonly TabSize[]>();
  for (const d of visible) pagesOf.set(d.documentId, await context.pageSizesOf(d));
  const placeOf = placeOnPages(pagesOf);
  // What the service will fill when the signer finishes (today's date, the name), shown as it will be stamped.
  const shown = fillServiceTabs(again.entered ?? recipient.tabs, {
    name: recipient.details.signerName ?? recipient.name,
    email: recipient.details.signerEmail ?? recipient.email,
    envelopeId: envelope.id,
    signedAt: new Date(services.clock.now()),
  });
  return html(
    reply,
    status,
    signingPageHtml({
      ...page,
      // An in-person signer adopts the signature of the person in front of the host.
      recipientName: recipient.details.signerName ?? recipient.name,
      tabs: signaturePlaces(recipient.tabs),
      marks: marksOnPage(recipient.tabs, placeOf),
      fields: signingFields(shown, placeOf),
      buttons: buttonTabs(recipient.tabs, placeOf),
      formulas: liveFormulaInputs(shown),
      ...(error === undefined ? {} : { error }),
      ...(again.signatureName === undefined ? {} : { signatureName: again.signatureName }),
      ...(notice === undefined ? {} : { notice }),
    }),
  );
}

/** Who signs, when it is not plain: the host hands over the device; a witness signs for someone. */
function signingNotice(context: SigningContext, text: PageText, recipient: RecipientRecord): string | undefined {
  const { hostName, signerName, witnessFor } = recipient.details;
  if (hostName !== undefined && signerName !== undefined) return text.inPersonNotice(hostName, signerName);
  if (witnessFor === undefined) return undefined;
  const witnessed = context.services.envelopes
    .recipients(recipient.envelopeId)
    .find((r) => r.recipientId === witnessFor);
  return witnessed === undefined ? undefined : text.witnessNotice(witnessed.details.signerName ?? witnessed.name);
}
