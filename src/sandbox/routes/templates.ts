import { recipientsObject, shorthandRecipientKind } from '../../envelope/index.js';
import { templateParams } from './route-schemas.js';
import type { FastifyPluginAsync } from 'fastify';
import { principalOf } from './request-helpers.js';
import { apiErrors } from '../api-error.js';
import { isoTime } from '../clock.js';

/** GET /accounts/{accountId}/templates/{templateId} (4.11, 2.6; #/definitions/envelopeTemplate). */
export const templateRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { accountId: string; templateId: string } }>(
    '/accounts/:accountId/templates/:templateId',
    { schema: templateParams },
    async (request) => {
      const { account } = principalOf(request);
      const { templates } = request.server.sandbox;
      const template = templates.get(account.id, request.params.templateId);
      if (!template) throw apiErrors.templateNotFound();
      const documents = templates.documents(template.id);
      const roles = templates.roles(template.id);
      return {
        envelopeTemplateDefinition: {
          templateId: template.id,
          name: template.name,
          shared: 'false',
          created: isoTime(template.createdAt),
          lastModified: isoTime(template.createdAt),
          pageCount: documents.reduce((n, d) => n + (d.pages ?? 0), 0),
        },
        emailSubject: template.emailSubject ?? '',
        emailBlurb: template.emailBlurb ?? '',
        status: 'created',
        documents: documents.map((d) => ({
          documentId: d.documentId,
          name: d.name,
          order: String(d.position + 1),
          pages: d.pages === null ? undefined : String(d.pages),
          uri: `/templates/${template.id}/documents/${d.documentId}`,
        })),
        recipients: {
          ...recipientsObject(
            roles.map((r) => ({
              kind: shorthandRecipientKind,
              recipient: {
                recipientId: r.recipientId,
                roleName: r.roleName,
                routingOrder: r.routingOrder,
                name: '',
                email: '',
                // The tabs as the template was given them (DocuSign's tabs object, values stringified).
                tabs: Object.keys(r.tabs).length ? r.tabs : undefined,
              },
            })),
          ),
          recipientCount: String(roles.length),
        },
      };
    },
  );
};
