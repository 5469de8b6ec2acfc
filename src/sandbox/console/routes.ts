import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { returnAddress } from '../signing/return-address.js';
import { recipientKind, tabsByKind } from '../../envelope/index.js';
import { messagePageHtml } from '../signing/page-html.js';
import { pageText } from '../signing/page-text.js';
import { readCookie } from '../platform/http/cookies.js';
import { setSecurityHeaders } from '../signing/security-headers.js';
import { publicOrigin } from '../platform/http/public-origin.js';
import { isoTime } from '../platform/clock.js';
import { LifecycleError } from '../esignature/envelopes/lifecycle.js';
import type { EnvelopeRecord } from '../esignature/envelopes/repository.js';
import { envelopeFolders, systemFolders, type FolderType } from '../esignature/folders/repository.js';
import {
  managementViews,
  sameToken,
  type ManagementSession,
  type ManagementViewKind,
} from '../esignature/envelopes/views/management-views.js';
import { ApiError } from '../platform/http/api-error.js';
import { generateBeforeSend } from '../esignature/envelopes/docgen/docgen-form-fields.js';
import { senderPageHtml } from './sender-page-html.js';
import { consolePageHtml } from './console-page-html.js';
import { contentDisposition } from '../platform/http/content-disposition.js';

type Form = Record<string, string | undefined>;

/** Where each kind of view lives: `/sending/…` for the sender view, `/console/…` for the console. */
const roots: Record<ManagementViewKind, string> = { sender: 'sending', console: 'console' };
const cookieName = (kind: ManagementViewKind, id: string) => `sr_${roots[kind]}_${id}`;

/**
 * The pages behind `views/sender` and `views/console` (routes/views.ts): a
 * single-use address opens a session held by a cookie (HttpOnly, scoped to
 * the session's path), as the signing page does; forms carry a CSRF token
 * and are refused from another origin; the same security headers (CSP
 * without inline script, no framing by other sites, nothing cached).
 */
// eslint-disable-next-line max-lines-per-function -- one fastify plugin per API group, as the sandbox is organised: its routes one after another, each handler short; the length is the group's list of endpoints. Splitting a group into a plugin per resource is the next step (issue 33).
export const managementViewRoutes: FastifyPluginAsync = async (app) => {
  const services = app.sandbox;
  const views = managementViews(services.db);
  const text = pageText('en');
  app.addHook('onSend', async (_request, reply, payload) => {
    setSecurityHeaders(reply);
    return payload;
  });
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).type('text/html; charset=utf-8').send(body);

  for (const kind of ['sender', 'console'] as const) {
    const root = roots[kind];
    app.get<{ Params: { token: string } }>(`/${root}/:token`, async (request, reply) => {
      const opened = views.open(request.params.token, kind, services.clock.now());
      if (!opened.ok) {
        if (opened.returnUrl === undefined)
          return html(reply, 404, messagePageHtml(text, 'Unknown link', 'This address does not open anything.'));
        return html(
          reply,
          410,
          messagePageHtml(
            text,
            'Link no longer valid',
            opened.reason === 'used'
              ? 'This address was already used: ask the application for a new one.'
              : 'This address has expired: ask the application for a new one.',
            returnAddress(opened.returnUrl, 'ttl_expired'),
          ),
        );
      }
      const { session, secret } = opened;
      const secure = request.protocol === 'https' ? '; Secure' : '';
      void reply.header(
        'set-cookie',
        `${cookieName(kind, session.id)}=${secret}; Path=/${root}/s/${session.id}; HttpOnly; SameSite=Lax${secure}`,
      );
      return reply.redirect(`/${root}/s/${session.id}`, 303);
    });
  }

  /** The live session a request names (its cookie, its account), else an error page already sent. */
  function sessionOf(
    request: FastifyRequest<{ Params: { sessionId: string } }>,
    reply: FastifyReply,
    kind: ManagementViewKind,
    post = false,
  ): ManagementSession | undefined {
    const id = request.params.sessionId;
    const session = views.check(
      id,
      kind,
      readCookie(request.headers.cookie, cookieName(kind, id)),
      services.clock.now(),
    );
    if (session === undefined || !services.accountIsLive(session.accountId)) {
      void html(reply, 403, messagePageHtml(text, 'Session ended', 'Open the page again from the application.'));
      return undefined;
    }
    if (post) {
      const origin = request.headers.origin;
      const own = [`${request.protocol}://${request.headers.host ?? ''}`, new URL(publicOrigin(app)).origin];
      if (
        !sameToken((request.body as Form | undefined)?.['csrfToken'], session.csrfToken) ||
        (origin !== undefined && origin !== 'null' && !own.includes(origin))
      ) {
        void html(reply, 403, messagePageHtml(text, 'Refused', 'This form did not come from this page.'));
        return undefined;
      }
    }
    return session;
  }

  const envelopeOf = (session: ManagementSession, envelopeId: string | null | undefined): EnvelopeRecord | undefined =>
    envelopeId ? services.envelopes.get(session.accountId, envelopeId.toLowerCase()) : undefined;

  const sendDocument = (reply: FastifyReply, envelope: EnvelopeRecord, documentId: string) => {
    const doc = services.envelopes.documents(envelope.id).find((d) => d.documentId === documentId);
    if (doc === undefined) return reply.code(404).type('text/plain').send('no such document');
    return reply
      .type('application/pdf')
      .header('content-disposition', contentDisposition('inline', doc.name))
      .send(services.blobs.get(doc.sha256));
  };

  const people = (envelopeId: string) =>
    services.envelopes.recipients(envelopeId).map((r) => ({
      role: recipientKind(r.kind).role,
      name: r.name,
      email: r.email,
      routingOrder: r.routingOrder,
      status: r.status,
      fields: tabsByKind(r.tabs).length,
    }));

  // The sender view.
  const renderSender = (reply: FastifyReply, session: ManagementSession, status = 200, error?: string) => {
    const envelope = envelopeOf(session, session.envelopeId);
    if (envelope === undefined)
      return html(reply, 404, messagePageHtml(text, 'No such envelope', 'The envelope no longer exists.'));
    if (envelope.status !== 'created')
      return html(
        reply,
        409,
        messagePageHtml(
          text,
          'Already sent',
          `This envelope is ${envelope.status}.`,
          returnAddress(session.returnUrl, 'Send'),
        ),
      );
    const sender = services.accounts.user(session.userId);
    return html(
      reply,
      status,
      senderPageHtml({
        sessionId: session.id,
        csrfToken: session.csrfToken,
        accountName: services.accounts.account(session.accountId)?.name ?? '',
        senderName: sender?.userName ?? '',
        emailSubject: envelope.emailSubject,
        emailBlurb: envelope.emailBlurb,
        documents: services.envelopes
          .documents(envelope.id)
          .map((d) => ({ documentId: d.documentId, name: d.name, pages: d.pages })),
        recipients: people(envelope.id),
        ...(error === undefined ? {} : { error }),
      }),
    );
  };

  app.get<{ Params: { sessionId: string } }>('/sending/s/:sessionId', async (request, reply) => {
    const session = sessionOf(request, reply, 'sender');
    return session === undefined ? reply : renderSender(reply, session);
  });
  app.get<{ Params: { sessionId: string; documentId: string } }>(
    '/sending/s/:sessionId/documents/:documentId',
    async (request, reply) => {
      const session = sessionOf(request, reply, 'sender');
      if (session === undefined) return reply;
      const envelope = envelopeOf(session, session.envelopeId);
      return envelope === undefined ? reply.code(404).send() : sendDocument(reply, envelope, request.params.documentId);
    },
  );
  app.post<{ Params: { sessionId: string }; Body: Form }>('/sending/s/:sessionId/send', async (request, reply) => {
    const session = sessionOf(request, reply, 'sender', true);
    if (session === undefined) return reply;
    try {
      // A DocGen draft's letter is generated (or its missing values refused) as when the API sends it.
      await generateBeforeSend(services, session.envelopeId!);
      services.lifecycle.send(session.envelopeId!, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
    } catch (error) {
      if (!(error instanceof LifecycleError) && !(error instanceof ApiError)) throw error;
      return renderSender(reply, session, 409, `The envelope could not be sent: ${error.message.replace(/\.$/, '')}.`);
    }
    views.finish(session.id, services.clock.now());
    return reply.redirect(returnAddress(session.returnUrl, 'Send'), 303);
  });
  app.post<{ Params: { sessionId: string }; Body: Form }>('/sending/s/:sessionId/save', async (request, reply) => {
    const session = sessionOf(request, reply, 'sender', true);
    if (session === undefined) return reply;
    views.finish(session.id, services.clock.now());
    return reply.redirect(returnAddress(session.returnUrl, 'Save'), 303);
  });

  // The console view.
  app.get<{ Params: { sessionId: string }; Querystring: { folder?: string; envelope?: string } }>(
    '/console/s/:sessionId',
    async (request, reply) => {
      const session = sessionOf(request, reply, 'console');
      if (session === undefined) return reply;
      const folders = envelopeFolders(services.db);
      const opened = envelopeOf(session, request.query.envelope ?? session.envelopeId);
      const asked = systemFolders.find((f) => f.type === request.query.folder)?.type;
      const folder: FolderType = asked ?? (opened ? (folders.folderOf(opened.id) ?? 'sentitems') : 'sentitems');
      const counts = folders.counts(session.accountId);
      const row = (e: EnvelopeRecord) => ({
        envelopeId: e.id,
        subject: e.emailSubject,
        status: e.status,
        at: isoTime(e.sentAt ?? e.createdAt),
        recipients: services.envelopes.recipients(e.id).length,
      });
      const envelopes = folders
        .envelopeIds(session.accountId, folder)
        .slice(0, 200)
        .map((id) => services.envelopes.get(session.accountId, id))
        .filter((e): e is EnvelopeRecord => e !== undefined)
        .map(row);
      return html(
        reply,
        200,
        consolePageHtml({
          sessionId: session.id,
          accountName: services.accounts.account(session.accountId)?.name ?? '',
          userName: services.accounts.user(session.userId)?.userName ?? '',
          folders: systemFolders.map((f) => ({ type: f.type, name: f.name, count: counts[f.type] ?? 0 })),
          folder,
          envelopes,
          ...(opened === undefined
            ? {}
            : {
                detail: {
                  ...row(opened),
                  people: people(opened.id),
                  documents: services.envelopes
                    .documents(opened.id)
                    .map((d) => ({ documentId: d.documentId, name: d.name })),
                },
              }),
          returnUrl: session.returnUrl,
        }),
      );
    },
  );
  app.get<{ Params: { sessionId: string; envelopeId: string; documentId: string } }>(
    '/console/s/:sessionId/envelopes/:envelopeId/documents/:documentId',
    async (request, reply) => {
      const session = sessionOf(request, reply, 'console');
      if (session === undefined) return reply;
      const envelope = envelopeOf(session, request.params.envelopeId);
      return envelope === undefined ? reply.code(404).send() : sendDocument(reply, envelope, request.params.documentId);
    },
  );
};
