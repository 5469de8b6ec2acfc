import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { recipientHasActed } from '../../envelope/statuses.js';
import { LifecycleError, type Actor } from '../esignature/envelopes/lifecycle.js';
import { loadOrCreateSandboxCa } from '../platform/seal/sandbox-ca.js';
import { createPdfSealer, type PdfSealer } from '../platform/seal/seal-pdf.js';
import { StampPageError } from '../platform/pdf/stamp-signatures.js';
import { EnvelopeLock } from './envelope-lock.js';
import { brandCss, envelopePageBrand } from '../esignature/brands/brand-look.js';
import { brandsStore } from '../esignature/brands/brands-store.js';
import { accessCodePageHtml, messagePageHtml, signingPageHtml, viewPageHtml } from './page-html.js';
import { accessCodeState, tryAccessCode } from './access-code.js';
import { recipientKind } from '../../envelope/index.js';
import { mustAct } from '../esignature/envelopes/routing.js';
import type { RecipientRecord } from '../esignature/envelopes/repository.js';
import { pageText, pageTextFromAcceptLanguage, type PageText } from './page-text.js';
import { returnAddress, type SigningEvent } from './return-address.js';
import { setSecurityHeaders } from './security-headers.js';
import { frameAncestorsStore } from '../esignature/envelopes/views/frame-ancestors.js';
import { hashToken } from '../esignature/authentication/view-tokens.js';
import { clearedSessionCookie, readCookie, sessionCookie, sessionCookieName } from './session-cookie.js';
import { marksOnPage, parsePlacements, signaturePlaces } from './signature-places.js';
import { PageSizeCache, placeOnPages } from '../esignature/envelopes/tabs/page-places.js';
import { fillServiceTabs } from '../esignature/envelopes/tabs/tab-values.js';
import { signRecipient } from './sign-recipient.js';
import { documentVisibility } from '../esignature/envelopes/documents/document-visibility.js';
import { sameText, SigningSessions, type SigningSession } from './signing-sessions.js';
import { signingAssets, standardFontAsset } from './static-assets.js';
import { publicOrigin } from '../platform/http/public-origin.js';
import type { Tabs } from '../../envelope/index.js';
import { applyEntered, signingFields } from '../esignature/envelopes/tabs/entered-values.js';
import { contentDisposition } from '../platform/http/content-disposition.js';

/**
 * Lifetime of the signing links put in a remote signer's notification (the
 * outbox "email"), seconds. Longer than an embedded view's 300 s: a person
 * reads mail later. Default 7 days.
 */
export const remoteLinkTtlSeconds = 7 * 24 * 3600;

type Form = Record<string, string>;

const unknownSession = { ok: false, reason: 'unknown' } as const;

/**
 * The signing page behind the URLs that views/recipient returns
 * (`/signing/:token`), registered by app.ts at the root (not under /restapi).
 *
 * Flow: GET /signing/:token spends the single-use token, marks the recipient
 * delivered, opens a signing session (secret in an HttpOnly cookie) and
 * redirects to /signing/s/:session; the page's POSTs (sign, decline, cancel)
 * carry the cookie and a CSRF token, and end with a 303 to the client's
 * returnUrl + `event=` (DESIGN "Signing").
 */
export const signingRoutes: FastifyPluginAsync = async (app) => {
  const services = app.sandbox;
  const sessions = new SigningSessions(services.db);
  // The CA is created at the first start with a data folder and kept in
  // <data>/ca. In memory it is made on the first seal instead: two RSA keys
  // cost about a second, which every in-memory start (tests, `run`) would pay.
  const dataDir = services.config.dataDir;
  let sealer = dataDir === undefined ? undefined : createPdfSealer(loadOrCreateSandboxCa(dataDir));
  const seal: PdfSealer = (pdf, options) => (sealer ??= createPdfSealer(loadOrCreateSandboxCa(dataDir)))(pdf, options);
  const lock = new EnvelopeLock();
  const pageSizes = new PageSizeCache();

  // Remote signers (no clientUserId) get their own link in the outbox message.
  services.notificationLinks = (envelope, recipient) => {
    // From configuration, as every address handed out (public-origin.ts).
    const origin = publicOrigin(app);
    const token = services.viewTokens.issue(
      {
        envelopeId: envelope.id,
        accountId: envelope.accountId,
        recipientId: recipient.recipientId,
        returnUrl: `${origin}/signing/done`,
      },
      services.clock.now(),
      remoteLinkTtlSeconds,
    );
    return [`${origin}/signing/${token}`];
  };

  // HTML forms post urlencoded bodies: app.ts parses them, with their own
  // limit (wire/form-body.ts).

  const frames = frameAncestorsStore(services.db);
  // The origins a view request allowed to embed this page (focused view), by session or by token.
  const frameAncestorsOf = (request: FastifyRequest): string[] => {
    const params = request.params as { sessionId?: string; token?: string } | undefined;
    if (params?.sessionId !== undefined) return frames.ofSession(params.sessionId);
    if (params?.token !== undefined) return frames.ofToken(hashToken(params.token));
    return [];
  };
  app.addHook('onSend', async (request, reply, payload) => {
    setSecurityHeaders(reply, frameAncestorsOf(request));
    return payload;
  });

  app.get<{ Params: { name: string } }>('/signing/assets/:name', async (request, reply) => {
    const asset = signingAssets.get(request.params.name)?.();
    if (asset === undefined) return reply.code(404).type('text/plain').send('not found');
    return reply.type(asset.contentType).send(asset.body);
  });

  app.get<{ Params: { name: string } }>('/signing/assets/standard_fonts/:name', async (request, reply) => {
    const asset = standardFontAsset(request.params.name);
    if (asset === undefined) return reply.code(404).type('text/plain').send('not found');
    return reply.type(asset.contentType).send(asset.body);
  });

  // A brand's colours (brands/brand-look.ts): not secret, and checked to be #rrggbb when stored.
  app.get<{ Params: { file: string } }>('/signing/brands/:file', async (request, reply) => {
    const brand = /^([0-9a-fA-F-]{36})\.css$/.exec(request.params.file);
    const found = brand === null ? undefined : brandsStore(services.db).getById(brand[1]!);
    if (found === undefined) return reply.code(404).type('text/plain').send('not found');
    return reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(brandCss(found));
  });

  // Where remote signers land after finishing (they have no client application).
  app.get<{ Querystring: { event?: string } }>('/signing/done', async (request, reply) => {
    const text = pageTextFromAcceptLanguage(request.headers['accept-language']);
    const event = request.query.event;
    if (event === 'signing_complete' || event === 'viewing_complete')
      return html(reply, 200, messagePageHtml(text, text.doneTitle, text.doneBody));
    if (event === 'decline') return html(reply, 200, messagePageHtml(text, text.declinedTitle, text.declinedBody));
    return html(reply, 200, messagePageHtml(text, text.closedTitle, text.closedBody));
  });

  app.get<{ Params: { token: string } }>('/signing/:token', async (request, reply) => {
    const grant = services.consumeViewToken(request.params.token);
    if (!grant.ok) {
      const text = pageTextFromAcceptLanguage(request.headers['accept-language']);
      if (grant.returnUrl === undefined)
        return html(reply, 404, messagePageHtml(text, text.unknownTitle, text.unknownBody));
      const body = grant.reason === 'used' ? text.usedBody : text.expiredBody;
      return html(
        reply,
        410,
        messagePageHtml(text, text.expiredTitle, body, returnAddress(grant.returnUrl, 'ttl_expired')),
      );
    }
    const recipient = services.envelopes.recipients(grant.envelopeId).find((r) => r.recipientId === grant.recipientId);
    const text = pageText(recipient?.supportedLanguage);
    // Opened means delivered, once the documents can show: a recipient with an access code is delivered
    // when it enters it (POST …/access-code). A carbon copy only reads: opening changes nothing.
    if (recipient !== undefined && mustAct(recipient) && accessCodeState(recipient) === 'none') {
      try {
        services.lifecycle.markDelivered(grant.envelopeId, grant.recipientId, actorOf(request));
      } catch (error) {
        return lifecycleRefusal(reply, text, error, grant.returnUrl);
      }
    }
    const { session, secret } = sessions.open(grant, services.clock.now());
    frames.toSession(hashToken(request.params.token), session.id);
    const framed = frames.ofSession(session.id).length > 0;
    void reply.header('set-cookie', sessionCookie(session.id, secret, request.protocol === 'https', framed));
    return reply.redirect(`/signing/s/${session.id}`, 303);
  });

  app.get<{ Params: { sessionId: string } }>('/signing/s/:sessionId', async (request, reply) => {
    const session = checkSession(request, reply);
    if (session === undefined) return reply;
    return renderSigningPage(reply, session, 200);
  });

  app.get<{ Params: { sessionId: string; documentId: string } }>(
    '/signing/s/:sessionId/documents/:documentId',
    async (request, reply) => {
      const session = checkSession(request, reply);
      if (session === undefined) return reply;
      // No document before the access code.
      if (!documentsMayShow(session)) return reply.code(403).type('text/plain').send('enter the access code first');
      const doc = visibleDocumentsOf(session).find((d) => d.documentId === request.params.documentId);
      if (doc === undefined) return reply.code(404).type('text/plain').send('no such document');
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition('inline', doc.name))
        .send(services.blobs.get(doc.sha256));
    },
  );

  app.post<{ Params: { sessionId: string }; Body: Form }>('/signing/s/:sessionId/sign', async (request, reply) => {
    const session = checkSession(request, reply, true);
    if (session === undefined) return reply;
    if (!documentsMayShow(session)) return renderSigningPage(reply, session, 403);
    const form = request.body;
    const text = textFor(session);
    const signatureName = (form['signatureName'] ?? '').trim().slice(0, 100);
    if (signatureName === '') return renderSigningPage(reply, session, 400, text.errorNoName, signatureName);
    const recipient = services.envelopes
      .recipients(session.envelopeId)
      .find((r) => r.recipientId === session.recipientId);
    // What the signer entered in the fields; required ones must be filled, values must fit their kind.
    const entered = applyEntered(recipient?.tabs ?? {}, form);
    const fieldsProblem =
      entered.missing.length > 0
        ? text.errorRequiredFields(entered.missing.join(', '))
        : entered.invalid.length > 0
          ? text.errorInvalidFields(entered.invalid.join(', '))
          : undefined;
    if (fieldsProblem !== undefined)
      return renderSigningPage(reply, session, 400, fieldsProblem, signatureName, entered.tabs);
    const tabs = signaturePlaces(recipient?.tabs ?? {});
    let places = tabs;
    if (tabs.length === 0) {
      const ids = new Set(visibleDocumentsOf(session).map((d) => d.documentId));
      const chosen = parsePlacements(form['placements'], ids);
      if (chosen === undefined || chosen.length === 0)
        return renderSigningPage(reply, session, 400, text.errorNoPlacement, signatureName);
      places = chosen;
    }
    try {
      await lock.run(session.envelopeId, () =>
        signRecipient(services, seal, {
          envelopeId: session.envelopeId,
          recipientId: session.recipientId,
          signatureName,
          places,
          tabs: entered.tabs,
          actor: actorOf(request),
        }),
      );
    } catch (error) {
      if (error instanceof StampPageError)
        return renderSigningPage(reply, session, 400, text.errorNoPlacement, signatureName);
      return lifecycleRefusal(reply, text, error, session.returnUrl);
    }
    return finish(reply, session, 'signing_complete');
  });

  app.post<{ Params: { sessionId: string }; Body: Form }>('/signing/s/:sessionId/decline', async (request, reply) => {
    const session = checkSession(request, reply, true);
    if (session === undefined) return reply;
    if (!documentsMayShow(session)) return renderSigningPage(reply, session, 403);
    const reason = (request.body['reason'] ?? '').trim().slice(0, 500);
    if (reason === '') return renderSigningPage(reply, session, 400, textFor(session).errorNoReason);
    try {
      await lock.run(session.envelopeId, async () =>
        services.lifecycle.markDeclined(session.envelopeId, session.recipientId, { ...actorOf(request), reason }),
      );
    } catch (error) {
      return lifecycleRefusal(reply, textFor(session), error, session.returnUrl);
    }
    return finish(reply, session, 'decline');
  });

  // The access code, checked against its hash; a wrong one counts against the recipient (access-code.ts).
  app.post<{ Params: { sessionId: string }; Body: Form }>(
    '/signing/s/:sessionId/access-code',
    async (request, reply) => {
      const session = checkSession(request, reply, true);
      if (session === undefined) return reply;
      const recipient = recipientOf(session);
      const text = textFor(session);
      if (recipient === undefined || accessCodeState(recipient) === 'none' || session.accessCodePassed)
        return renderSigningPage(reply, session, 200);
      const entered = (request.body['accessCode'] ?? '').trim();
      if (entered === '') return renderSigningPage(reply, session, 400, text.errorNoAccessCode);
      const attempt = await tryAccessCode(services.envelopes, recipient, entered);
      if (attempt.outcome === 'wrong')
        return renderSigningPage(reply, session, 400, text.errorWrongAccessCode(attempt.left));
      if (attempt.outcome === 'locked') return renderSigningPage(reply, session, 403);
      sessions.passAccessCode(session.id, services.clock.now());
      if (mustAct(recipient)) {
        try {
          services.lifecycle.markDelivered(session.envelopeId, session.recipientId, actorOf(request));
        } catch (error) {
          return lifecycleRefusal(reply, text, error, session.returnUrl);
        }
      }
      return reply.redirect(`/signing/s/${session.id}`, 303);
    },
  );

  // A recipient who acts without signing (certified delivery, editor, agent, intermediary) finishes its part.
  app.post<{ Params: { sessionId: string }; Body: Form }>('/signing/s/:sessionId/act', async (request, reply) => {
    const session = checkSession(request, reply, true);
    if (session === undefined) return reply;
    if (!documentsMayShow(session)) return renderSigningPage(reply, session, 403);
    const recipient = recipientOf(session);
    if (recipient === undefined || !mustAct(recipient) || recipientKind(recipient.kind).signs)
      return renderSigningPage(reply, session, 400);
    try {
      await lock.run(session.envelopeId, () =>
        signRecipient(services, seal, {
          envelopeId: session.envelopeId,
          recipientId: session.recipientId,
          signatureName: '',
          places: [],
          actor: actorOf(request),
        }),
      );
    } catch (error) {
      return lifecycleRefusal(reply, textFor(session), error, session.returnUrl);
    }
    // DocuSign's event for a recipient who only had to view.
    return finish(
      reply,
      session,
      recipientKind(recipient.kind).completesOn === 'viewing' ? 'viewing_complete' : 'signing_complete',
    );
  });

  app.post<{ Params: { sessionId: string }; Body: Form }>('/signing/s/:sessionId/cancel', async (request, reply) => {
    const session = checkSession(request, reply, true);
    if (session === undefined) return reply;
    return finish(reply, session, 'cancel');
  });

  function recipientOf(session: SigningSession): RecipientRecord | undefined {
    return services.envelopes.recipients(session.envelopeId).find((r) => r.recipientId === session.recipientId);
  }

  /** The envelope's documents the session's recipient may see (document-visibility.ts: eg040's excludedDocuments). */
  function visibleDocumentsOf(session: { envelopeId: string; recipientId: string }) {
    const documents = services.envelopes.documents(session.envelopeId);
    const recipients = services.envelopes.recipients(session.envelopeId);
    const recipient = recipients.find((r) => r.recipientId === session.recipientId);
    if (recipient === undefined) return [];
    return documentVisibility(services.db).visibleDocuments(session.envelopeId, recipient, recipients, documents);
  }

  /** True when the session may see the documents: the recipient has no access code, or entered it here. */
  function documentsMayShow(session: SigningSession): boolean {
    const recipient = recipientOf(session);
    return recipient !== undefined && (accessCodeState(recipient) === 'none' || session.accessCodePassed);
  }

  function textFor(session: SigningSession): PageText {
    const recipient = services.envelopes
      .recipients(session.envelopeId)
      .find((r) => r.recipientId === session.recipientId);
    return pageText(recipient?.supportedLanguage);
  }

  /** The session of a request, or undefined after answering with an explanation. POSTs also need the CSRF token. */
  function checkSession(
    request: FastifyRequest<{ Params: { sessionId: string } }>,
    reply: FastifyReply,
    post = false,
  ): SigningSession | undefined {
    const id = request.params.sessionId;
    const text = pageTextFromAcceptLanguage(request.headers['accept-language']);
    const checked = sessions.check(id, readCookie(request.headers.cookie, sessionCookieName(id)), services.clock.now());
    // A session opened before its account was deleted ends with it.
    const result = checked.ok && !services.accountIsLive(checked.session.accountId) ? unknownSession : checked;
    if (!result.ok) {
      if (result.reason === 'unknown')
        void html(reply, 404, messagePageHtml(text, text.unknownTitle, text.unknownBody));
      else if (result.reason === 'forbidden')
        void html(reply, 403, messagePageHtml(text, text.forbiddenTitle, text.forbiddenBody));
      else {
        const event: SigningEvent = result.reason === 'expired' ? 'session_timeout' : 'ttl_expired';
        void html(
          reply,
          410,
          messagePageHtml(text, text.sessionTitle, text.sessionBody, returnAddress(result.returnUrl, event)),
        );
      }
      return undefined;
    }
    if (post) {
      const body = request.body as Form | undefined;
      const origin = request.headers.origin;
      // The page's own origin: as the browser reached it (its Host passed the
      // allow-list), or the configured public one (behind a TLS proxy the
      // browser says https while the sandbox hears http).
      const own = [`${request.protocol}://${request.headers.host ?? ''}`, new URL(publicOrigin(app)).origin];
      // Synchronizer token plus Origin check (when the browser sends one).
      if (
        !sameText(body?.['csrfToken'], result.session.csrfToken) ||
        (origin !== undefined && origin !== 'null' && !own.includes(origin))
      ) {
        void html(reply, 403, messagePageHtml(text, text.forbiddenTitle, text.forbiddenBody));
        return undefined;
      }
    }
    return result.session;
  }

  async function renderSigningPage(
    reply: FastifyReply,
    session: SigningSession,
    status: number,
    error?: string,
    signatureName?: string,
    entered?: Tabs,
  ) {
    const envelope = services.envelopes.getById(session.envelopeId);
    const recipient = services.envelopes
      .recipients(session.envelopeId)
      .find((r) => r.recipientId === session.recipientId);
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
    const documents = visibleDocumentsOf(session).map((d) => ({ documentId: d.documentId, name: d.name }));
    const kind = recipientKind(recipient.kind);
    if (!kind.signs) {
      return html(
        reply,
        status,
        viewPageHtml({
          text,
          sessionId: session.id,
          csrfToken: session.csrfToken,
          senderName,
          emailSubject: envelope.emailSubject,
          documents,
          acts: mustAct(recipient),
          ...(brand === undefined ? {} : { brand }),
        }),
      );
    }
    const notice = signingNotice(text, recipient);
    // Every tab on its document, where the preview draws it and the stamp will write it (page-places.ts).
    const pagesOf = new Map<string, readonly { width: number; height: number }[]>();
    for (const d of visibleDocumentsOf(session))
      pagesOf.set(d.documentId, await pageSizes.of(d.sha256, () => services.blobs.get(d.sha256)));
    const placeOf = placeOnPages(pagesOf);
    // What the service will fill when the signer finishes (today's date, the name), shown as it will be stamped.
    const shown = fillServiceTabs(entered ?? recipient.tabs, {
      name: recipient.details.signerName ?? recipient.name,
      email: recipient.details.signerEmail ?? recipient.email,
      envelopeId: envelope.id,
      signedAt: new Date(services.clock.now()),
    });
    return html(
      reply,
      status,
      signingPageHtml({
        text,
        sessionId: session.id,
        csrfToken: session.csrfToken,
        senderName,
        emailSubject: envelope.emailSubject,
        // An in-person signer adopts the signature of the person in front of the host.
        recipientName: recipient.details.signerName ?? recipient.name,
        documents,
        tabs: signaturePlaces(recipient.tabs),
        marks: marksOnPage(recipient.tabs, placeOf),
        fields: signingFields(shown, placeOf),
        ...(error === undefined ? {} : { error }),
        ...(signatureName === undefined ? {} : { signatureName }),
        ...(notice === undefined ? {} : { notice }),
        ...(brand === undefined ? {} : { brand }),
      }),
    );
  }

  /** Who signs, when it is not plain: the host hands over the device; a witness signs for someone. */
  function signingNotice(text: PageText, recipient: RecipientRecord): string | undefined {
    const { hostName, signerName, witnessFor } = recipient.details;
    if (hostName !== undefined && signerName !== undefined) return text.inPersonNotice(hostName, signerName);
    if (witnessFor === undefined) return undefined;
    const witnessed = services.envelopes.recipients(recipient.envelopeId).find((r) => r.recipientId === witnessFor);
    return witnessed === undefined ? undefined : text.witnessNotice(witnessed.details.signerName ?? witnessed.name);
  }

  function finish(reply: FastifyReply, session: SigningSession, event: SigningEvent) {
    sessions.finish(session.id, services.clock.now());
    void reply.header('set-cookie', clearedSessionCookie(session.id));
    return reply.redirect(returnAddress(session.returnUrl, event), 303);
  }

  function lifecycleRefusal(reply: FastifyReply, text: PageText, error: unknown, returnUrl: string) {
    if (!(error instanceof LifecycleError)) throw error;
    if (error.reason === 'not-in-sequence')
      return html(reply, 409, messagePageHtml(text, text.notYourTurnTitle, text.notYourTurnBody));
    return html(
      reply,
      409,
      messagePageHtml(text, text.closedTitle, text.closedBody, returnAddress(returnUrl, 'exception')),
    );
  }
};

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

function actorOf(request: FastifyRequest): Actor {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}
