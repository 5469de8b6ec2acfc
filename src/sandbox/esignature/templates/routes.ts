import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  accountParams,
  listTemplatesQuery,
  templateDocumentParams,
  templateParams,
  templateRecipientParams,
} from '../route-schemas.js';
import { principalOf } from '../request-helpers.js';
import { apiErrors } from '../../platform/http/api-error.js';
import { checkTabs } from '../envelopes/envelope-factory.js';
import type { TemplateDocumentRecord, TemplateRecord, TemplateRoleRecord } from './repository.js';
import { templateDocuments, templateRoles } from './template-factory.js';
import { parseTemplateDefinition, type IncomingTemplate } from './template-definition.js';
import {
  templateCustomFieldsJson,
  templateDocumentsJson,
  templateJson,
  templateListItemJson,
  templateRecipientsJson,
} from './template-json.js';
import { contentDisposition } from '../../platform/http/content-disposition.js';
import { docGenIntake } from '../envelopes/docgen/docgen-form-fields.js';

interface TemplateParams {
  accountId: string;
  templateId: string;
}

/** Query of Templates_GetTemplates the sandbox honours (the others are accepted and ignored). */
interface ListQuery {
  search_text?: string;
  start_position?: string;
  count?: string;
  include?: string;
}

/** A live template of the caller's account; TEMPLATE_ID_INVALID for a missing, deleted or foreign one alike. */
export function templateOf(request: FastifyRequest, templateId: string): TemplateRecord {
  const { account } = principalOf(request);
  const template = request.server.sandbox.templates.get(account.id, templateId);
  if (!template) throw apiErrors.templateNotFound();
  return template;
}

function pdfName(name: string): string {
  const base = name.replace(/["\\\r\n]/g, '_');
  return base.toLowerCase().endsWith('.pdf') ? base : `${base}.pdf`;
}

/**
 * The templates API (Swagger: Templates_PostTemplates, Templates_GetTemplates,
 * Templates_GetTemplate, Templates_PutTemplate, Documents_GetTemplateDocuments,
 * Documents_GetTemplateDocument, Recipients_GetTemplateRecipients,
 * Recipients_GetTemplateRecipientTabs). DocuSign has no DELETE of a
 * template: it is moved to the recycle bin (Folders_PutFolderById,
 * routes/folders.ts).
 */
// eslint-disable-next-line max-lines-per-function -- one fastify plugin per API group, as the sandbox is organised: its routes one after another, each handler short; the length is the group's list of endpoints. Splitting a group into a plugin per resource is the next step (issue 33).
export const templateRoutes: FastifyPluginAsync = async (app) => {
  // POST …/templates → 201 #/definitions/templateSummary.
  app.post<{ Params: { accountId: string } }>(
    '/accounts/:accountId/templates',
    { schema: accountParams },
    async (request, reply) => {
      const { account, user } = principalOf(request);
      const { sandbox } = request.server;
      const incoming = parseTemplateDefinition(request.body);
      const documents = await templateDocuments(
        incoming.documents ?? [],
        sandbox.blobs,
        sandbox.documentWork,
        docGenIntake(sandbox, true),
      );
      const roles = await templateRoles(incoming.recipients ?? [], documents);
      const now = sandbox.clock.now();
      const template: TemplateRecord = {
        id: randomUUID(),
        accountId: account.id,
        name: incoming.name ?? '',
        description: incoming.description ?? null,
        emailSubject: incoming.emailSubject ?? null,
        emailBlurb: incoming.emailBlurb ?? null,
        ownerUserId: user.id,
        createdAt: now,
        lastModifiedAt: now,
        customFields: customFieldsOf(incoming),
      };
      sandbox.templates.insert(template, documents, roles);
      void reply.status(201);
      return { templateId: template.id, name: template.name, uri: `/templates/${template.id}` };
    },
  );

  // GET …/templates → #/definitions/envelopeTemplateResults: by name, search_text a substring of it (any case).
  app.get<{ Params: { accountId: string }; Querystring: ListQuery }>(
    '/accounts/:accountId/templates',
    {
      // Module constants: fastify's validators are compiled once per process, by schema object (app.ts).
      schema: { ...accountParams, ...listTemplatesQuery },
    },
    async (request) => {
      const { account } = principalOf(request);
      const { sandbox } = request.server;
      const startPosition = Number(request.query.start_position ?? 0);
      const count = Number(request.query.count ?? 100);
      if (count < 1) throw apiErrors.invalidParameter("'count' must be a whole number of 1 or more.");
      const include = (request.query.include ?? '').split(',').map((s) => s.trim());
      const { total, templates } = sandbox.templates.list(account.id, {
        searchText: request.query.search_text ?? '',
        startPosition,
        // DocuSign's largest page of templates.
        count: Math.min(count, 2000),
      });
      return {
        resultSetSize: String(templates.length),
        startPosition: String(startPosition),
        endPosition: String(Math.max(startPosition + templates.length - 1, 0)),
        totalSetSize: String(total),
        envelopeTemplates: templates.map((t) => {
          const documents = sandbox.templates.documents(t.id);
          const owner = t.ownerUserId === null ? undefined : sandbox.accounts.user(t.ownerUserId);
          return {
            ...templateListItemJson(t, documents, owner),
            ...(include.includes('recipients')
              ? { recipients: templateRecipientsJson(sandbox.templates.roles(t.id)) }
              : {}),
            ...(include.includes('documents') ? { documents: templateJson(t, documents, [], owner).documents } : {}),
            ...(include.includes('custom_fields') ? { customFields: templateCustomFieldsJson(t) } : {}),
          };
        }),
      };
    },
  );

  // GET …/templates/{templateId} → #/definitions/envelopeTemplate (4.11, 2.6).
  app.get<{ Params: TemplateParams }>(
    '/accounts/:accountId/templates/:templateId',
    { schema: templateParams },
    async (request) => {
      const template = templateOf(request, request.params.templateId);
      const { templates, accounts } = request.server.sandbox;
      const owner = template.ownerUserId === null ? undefined : accounts.user(template.ownerUserId);
      return templateJson(template, templates.documents(template.id), templates.roles(template.id), owner);
    },
  );

  // PUT …/templates/{templateId} → #/definitions/templateUpdateSummary. Members left out keep their value;
  // documents and recipients, when given, replace the template's.
  app.put<{ Params: TemplateParams }>(
    '/accounts/:accountId/templates/:templateId',
    { schema: templateParams },
    async (request) => {
      const template = templateOf(request, request.params.templateId);
      const { sandbox } = request.server;
      const incoming = parseTemplateDefinition(request.body);
      const documents =
        incoming.documents === undefined
          ? undefined
          : await templateDocuments(
              incoming.documents,
              sandbox.blobs,
              sandbox.documentWork,
              docGenIntake(sandbox, true),
            );
      const current = documents ?? sandbox.templates.documents(template.id);
      // Recipients kept are checked too: their tabs must still land on a document.
      const roles =
        incoming.recipients === undefined
          ? documents === undefined
            ? undefined
            : keptRoles(sandbox.templates.roles(template.id), current)
          : await templateRoles(incoming.recipients, current);
      sandbox.templates.update(
        {
          ...template,
          name: incoming.name ?? template.name,
          description: incoming.description ?? template.description,
          emailSubject: incoming.emailSubject ?? template.emailSubject,
          emailBlurb: incoming.emailBlurb ?? template.emailBlurb,
          // Never earlier than the last change: an update always moves lastModified on.
          lastModifiedAt: Math.max(sandbox.clock.now(), template.lastModifiedAt + 1),
          // Given: they replace the template's (DocuSign's Templates_PutTemplate does the same with its members).
          customFields: incoming.customFields === undefined ? template.customFields : customFieldsOf(incoming),
        },
        documents,
        roles,
      );
      return {
        // DocuSign keeps a template as an envelope of its own: its id is the template's.
        envelopeId: template.id,
        ...(roles && incoming.recipients !== undefined
          ? { recipientUpdateResults: roles.map((r) => ({ recipientId: r.recipientId })) }
          : {}),
      };
    },
  );

  // DELETE …/templates/{templateId}: not in DocuSign's Swagger (it deletes a template through
  // PUT …/folders/recyclebin, folders.ts), but in signrun's sandbox contract (DESIGN.md, templates as
  // code): the same deletion, for clients that ask this way. 200 with the template's id and name.
  app.delete<{ Params: TemplateParams }>(
    '/accounts/:accountId/templates/:templateId',
    { schema: templateParams },
    async (request) => {
      const template = templateOf(request, request.params.templateId);
      const { sandbox } = request.server;
      sandbox.templates.delete(template.id, sandbox.clock.now());
      return { templateId: template.id, name: template.name };
    },
  );

  // GET …/templates/{templateId}/documents → #/definitions/templateDocumentsResult.
  app.get<{ Params: TemplateParams }>(
    '/accounts/:accountId/templates/:templateId/documents',
    { schema: templateParams },
    async (request) => {
      const template = templateOf(request, request.params.templateId);
      return templateDocumentsJson(template, request.server.sandbox.templates.documents(template.id));
    },
  );

  // GET …/templates/{templateId}/documents/{documentId}: the PDF (converted documents as their rendition).
  app.get<{ Params: TemplateParams & { documentId: string } }>(
    '/accounts/:accountId/templates/:templateId/documents/:documentId',
    { schema: templateDocumentParams },
    async (request, reply) => {
      const template = templateOf(request, request.params.templateId);
      const { sandbox } = request.server;
      const document = sandbox.templates.documents(template.id).find((d) => d.documentId === request.params.documentId);
      if (!document) throw apiErrors.documentNotFound();
      const bytes = sandbox.blobs.get(document.sha256);
      void reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition('file', pdfName(document.name)))
        .header('content-length', bytes.length);
      return bytes;
    },
  );

  // GET …/templates/{templateId}/recipients → #/definitions/recipients; tabs only with include_tabs=true, as DocuSign.
  app.get<{ Params: TemplateParams; Querystring: { include_tabs?: string } }>(
    '/accounts/:accountId/templates/:templateId/recipients',
    { schema: templateParams },
    async (request) => {
      const template = templateOf(request, request.params.templateId);
      const includeTabs = (request.query.include_tabs ?? '').toLowerCase() === 'true';
      return templateRecipientsJson(request.server.sandbox.templates.roles(template.id), includeTabs);
    },
  );

  // GET …/templates/{templateId}/recipients/{recipientId}/tabs → #/definitions/tabs.
  app.get<{ Params: TemplateParams & { recipientId: string } }>(
    '/accounts/:accountId/templates/:templateId/recipients/:recipientId/tabs',
    { schema: templateRecipientParams },
    async (request) => {
      const template = templateOf(request, request.params.templateId);
      const role = request.server.sandbox.templates
        .roles(template.id)
        .find((r) => r.recipientId === request.params.recipientId);
      if (!role) throw apiErrors.unknownRecipient();
      return role.tabs;
    },
  );
};

/** The text custom fields of a definition, as the template keeps them. */
function customFieldsOf(incoming: IncomingTemplate): TemplateRecord['customFields'] {
  return (incoming.customFields ?? []).map((f) => ({ name: f.name, value: f.value, show: f.show }));
}

/** The template's recipients, unchanged, once their tabs are checked against its new documents. */
function keptRoles(roles: TemplateRoleRecord[], documents: readonly TemplateDocumentRecord[]): TemplateRoleRecord[] {
  for (const r of roles) checkTabs(r.tabs, documents);
  return roles;
}
