import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TabSize } from '../../pdf/index.js';
import type { SandboxServices } from '../services.js';
import type { SealingKey } from '../esignature/document-work/document-tasks.js';
import { LifecycleError, type Actor } from '../esignature/envelopes/lifecycle.js';
import type { DocumentRecord, RecipientRecord } from '../esignature/envelopes/repository.js';
import { documentVisibility } from '../esignature/envelopes/documents/document-visibility.js';
import { frameAncestorsStore } from '../esignature/envelopes/views/frame-ancestors.js';
import { PageSizeCache } from '../esignature/envelopes/tabs/page-places.js';
import { loadOrCreateSandboxCa, type SandboxCa } from '../platform/seal/sandbox-ca.js';
import { publicOrigin } from '../platform/http/public-origin.js';
import { accessCodeState } from './access-code.js';
import { EnvelopeLock } from './envelope-lock.js';
import { messagePageHtml } from './page-html.js';
import { pageText, pageTextFromAcceptLanguage, type PageText } from './page-text.js';
import { returnAddress, type SigningEvent } from './return-address.js';
import { clearedSessionCookie, sessionCookieName } from './session-cookie.js';
import { readCookie } from '../platform/http/cookies.js';
import { sameText, SigningSessions, type SigningSession } from './signing-sessions.js';

/** A form the page posts (urlencoded, parsed by app.ts with its own limit: wire/form-body.ts). */
export type Form = Record<string, string>;

const unknownSession = { ok: false, reason: 'unknown' } as const;

/**
 * What the signing page's routes share (signing/routes.ts registers them):
 * the sessions, the per-envelope lock, the sealing key, the page sizes, and
 * the answers every page and action gives the same way.
 */
export interface SigningContext {
  app: FastifyInstance;
  services: SandboxServices;
  sessions: SigningSessions;
  /** Serialises the signing of one envelope (envelope-lock.ts). */
  lock: EnvelopeLock;
  /** The CA's sealing key, made at the first seal when the sandbox keeps no data folder. */
  sealingKey: () => SealingKey;
  frames: ReturnType<typeof frameAncestorsStore>;
  /** A document's page sizes, read on the document pool and kept by content hash. */
  pageSizesOf(document: DocumentRecord): Promise<readonly TabSize[]>;
  recipientOf(session: { envelopeId: string; recipientId: string }): RecipientRecord | undefined;
  /** The envelope's documents the session's recipient may see (document-visibility.ts: eg040's excludedDocuments). */
  visibleDocumentsOf(session: { envelopeId: string; recipientId: string }): DocumentRecord[];
  /** True when the session may see the documents: the recipient has no access code, or entered it here. */
  documentsMayShow(session: SigningSession): boolean;
  textFor(session: SigningSession): PageText;
  /** The session of a request, or undefined after answering with an explanation. POSTs also need the CSRF token. */
  checkSession(
    request: FastifyRequest<{ Params: { sessionId: string } }>,
    reply: FastifyReply,
    post?: boolean,
  ): SigningSession | undefined;
  /** Ends the session and sends the signer back to the client's returnUrl with the event. */
  finish(reply: FastifyReply, session: SigningSession, event: SigningEvent): FastifyReply;
  /** The page for what the lifecycle refused (not this recipient's turn, envelope closed); anything else thrown on. */
  lifecycleRefusal(reply: FastifyReply, text: PageText, error: unknown, returnUrl: string): FastifyReply;
}

export function signingContext(app: FastifyInstance): SigningContext {
  const services = app.sandbox;
  const sessions = new SigningSessions(services.db);
  // The CA is created at the first start with a data folder and kept in
  // <data>/ca. In memory it is made on the first seal instead, once for the
  // process (sandbox-ca.ts): two RSA keys cost about a second, which every
  // in-memory start (tests, `run`) would pay.
  const dataDir = services.config.dataDir;
  let ca: SandboxCa | undefined = dataDir === undefined ? undefined : loadOrCreateSandboxCa(dataDir);
  const pageSizes = new PageSizeCache();

  const recipientOf = (session: { envelopeId: string; recipientId: string }) =>
    services.envelopes.recipients(session.envelopeId).find((r) => r.recipientId === session.recipientId);

  const context: SigningContext = {
    app,
    services,
    sessions,
    lock: new EnvelopeLock(),
    sealingKey: () => (ca ??= loadOrCreateSandboxCa(dataDir)),
    frames: frameAncestorsStore(services.db),
    pageSizesOf: (document) =>
      pageSizes.of(document.sha256, () =>
        // A document the pool gives up on is still shown by pdf.js; its fields stay in the list beside it.
        services.documentWork.pageSizes(services.blobs.get(document.sha256)).catch(() => []),
      ),
    recipientOf,
    visibleDocumentsOf(session) {
      const documents = services.envelopes.documents(session.envelopeId);
      const recipients = services.envelopes.recipients(session.envelopeId);
      const recipient = recipients.find((r) => r.recipientId === session.recipientId);
      if (recipient === undefined) return [];
      return documentVisibility(services.db).visibleDocuments(session.envelopeId, recipient, recipients, documents);
    },
    documentsMayShow(session) {
      const recipient = recipientOf(session);
      return recipient !== undefined && (accessCodeState(recipient) === 'none' || session.accessCodePassed);
    },
    textFor: (session) => pageText(recipientOf(session)?.supportedLanguage),
    checkSession(request, reply, post = false) {
      const id = request.params.sessionId;
      const text = pageTextFromAcceptLanguage(request.headers['accept-language']);
      const checked = sessions.check(
        id,
        readCookie(request.headers.cookie, sessionCookieName(id)),
        services.clock.now(),
      );
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
      if (post && !samePageRequest(app, request, result.session)) {
        void html(reply, 403, messagePageHtml(text, text.forbiddenTitle, text.forbiddenBody));
        return undefined;
      }
      return result.session;
    },
    finish(reply, session, event) {
      sessions.finish(session.id, services.clock.now());
      void reply.header('set-cookie', clearedSessionCookie(session.id));
      return reply.redirect(returnAddress(session.returnUrl, event), 303);
    },
    lifecycleRefusal(reply, text, error, returnUrl) {
      if (!(error instanceof LifecycleError)) throw error;
      if (error.reason === 'not-in-sequence')
        return html(reply, 409, messagePageHtml(text, text.notYourTurnTitle, text.notYourTurnBody));
      return html(
        reply,
        409,
        messagePageHtml(text, text.closedTitle, text.closedBody, returnAddress(returnUrl, 'exception')),
      );
    },
  };
  return context;
}

/**
 * A POST from the page itself: the synchronizer token, plus the Origin check
 * when the browser sends one. The page's own origin is as the browser reached
 * it (its Host passed the allow-list), or the configured public one (behind a
 * TLS proxy the browser says https while the sandbox hears http).
 */
function samePageRequest(app: FastifyInstance, request: FastifyRequest, session: SigningSession): boolean {
  const body = request.body as Form | undefined;
  const origin = request.headers.origin;
  const own = [`${request.protocol}://${request.headers.host ?? ''}`, new URL(publicOrigin(app)).origin];
  return (
    sameText(body?.['csrfToken'], session.csrfToken) &&
    (origin === undefined || origin === 'null' || own.includes(origin))
  );
}

export function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

export function actorOf(request: FastifyRequest): Actor {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}
