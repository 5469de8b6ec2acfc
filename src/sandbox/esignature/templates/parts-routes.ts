import type { FastifyPluginAsync } from 'fastify';
import { tabsByKind, tabsObject, type Tabs } from '../../../envelope/index.js';
import { apiErrors } from '../../platform/http/api-error.js';
import { docGenIntake } from '../envelopes/docgen/docgen-form-fields.js';
import { checkTabs } from '../envelopes/envelope-factory.js';
import { templateDocuments } from './template-factory.js';
import { lenientObject } from '../../platform/http/lenient.js';
import { parseTemplateDefinition } from './template-definition.js';
import { templateDocumentParams, templateRecipientParams } from '../route-schemas.js';
import { templateOf } from './routes.js';

type TemplateDocumentParams = { accountId: string; templateId: string; documentId: string };
type TemplateRecipientParams = { accountId: string; templateId: string; recipientId: string };

/**
 * A template's parts changed one at a time, as DocuSign's example 42 builds
 * its DocGen template: a document put in place (Documents_PutTemplateDocument,
 * body an envelopeDefinition with the document) and tabs added to a
 * recipient (Recipients_PostTemplateRecipientTabs, body templateTabs).
 */
export const templatePartRoutes: FastifyPluginAsync = async (app) => {
  // PUT …/templates/{templateId}/documents/{documentId} → #/definitions/envelopeDocument: adds or replaces it.
  app.put<{ Params: TemplateDocumentParams }>(
    '/accounts/:accountId/templates/:templateId/documents/:documentId',
    { schema: templateDocumentParams },
    async (request) => {
      const template = templateOf(request, request.params.templateId);
      const { sandbox } = request.server;
      const { documentId } = request.params;
      const given = parseTemplateDefinition(request.body).documents ?? [];
      const document = given.find((d) => d.documentId === documentId) ?? given[0];
      if (document === undefined) throw apiErrors.invalidBody("'documents' must hold the document to put in place.");
      const current = sandbox.templates.documents(template.id);
      const position = current.find((d) => d.documentId === documentId)?.position ?? current.length + 1;
      const [stored] = await templateDocuments(
        [{ ...document, documentId, order: document.order ?? position }],
        sandbox.blobs,
        sandbox.documentWork,
        docGenIntake(sandbox, true),
      );
      const documents = [...current.filter((d) => d.documentId !== documentId), stored!].sort(
        (a, b) => a.position - b.position,
      );
      const roles = sandbox.templates.roles(template.id);
      for (const r of roles) checkTabs(r.tabs, documents);
      sandbox.templates.update(
        { ...template, lastModifiedAt: Math.max(sandbox.clock.now(), template.lastModifiedAt + 1) },
        documents,
        roles,
      );
      return {
        documentId,
        name: stored!.name,
        type: 'content',
        uri: `/templates/${template.id}/documents/${documentId}`,
        order: String(stored!.position),
      };
    },
  );

  // POST …/templates/{templateId}/recipients/{recipientId}/tabs → 201 #/definitions/tabs: the tabs added to the role's.
  app.post<{ Params: TemplateRecipientParams }>(
    '/accounts/:accountId/templates/:templateId/recipients/:recipientId/tabs',
    { schema: templateRecipientParams },
    async (request, reply) => {
      const template = templateOf(request, request.params.templateId);
      const { sandbox } = request.server;
      const roles = sandbox.templates.roles(template.id);
      const role = roles.find((r) => r.recipientId === request.params.recipientId);
      if (!role) throw apiErrors.unknownRecipient();
      const added = (lenientObject(request.body, 'templateTabs') ?? {}) as Tabs;
      const documents = sandbox.templates.documents(template.id);
      checkTabs(added, documents);
      role.tabs = tabsObject(
        [...tabsByKind(role.tabs), ...tabsByKind(added)].map(({ kind, tab }) => ({ kind: kind.name, tab })),
      );
      sandbox.templates.update(
        { ...template, lastModifiedAt: Math.max(sandbox.clock.now(), template.lastModifiedAt + 1) },
        documents,
        roles,
      );
      void reply.status(201);
      return tabsObject(tabsByKind(added).map(({ kind, tab }) => ({ kind: kind.name, tab })));
    },
  );
};
