import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { namedPlugin } from '../platform/http/plugin-name.js';

/**
 * REST v2.1 under /restapi/v2.1: the same routes as v2, with the answers
 * whose shape v2.1's Swagger changed rewritten at serialization, so the
 * routes stay written once. The differences, for the operations the
 * sandbox serves (found by walking both Swaggers' response definitions):
 *
 * - Documents_GetDocuments: `envelopeDocuments[].pages` is a list of `page`
 *   objects in v2.1, a count as a string in v2 (the v2.1 SDK's
 *   listDocuments fails on the string);
 * - Templates_GetTemplate: v2.1's envelopeTemplate has no
 *   `envelopeTemplateDefinition`; its fields (templateId, name, shared,
 *   created, lastModified, pageCount — a string there) sit at the top level.
 *
 * - Templates_GetTemplates: items are `envelopeTemplate` (pageCount a
 *   string), v2's `envelopeTemplateResult` (an integer);
 * - Documents_GetTemplateDocuments: `templateDocuments[].pages` as for
 *   envelope documents.
 *
 * Other v2 → v2.1 changes touch fields the sandbox never sends (tab
 * widths, matchBoxes, nextUri/previousUri of listings, canCancelRenewal).
 * login_information and oauth2/token, which v2.1's Swagger no longer
 * lists, stay served for old clients in v2's shape.
 */
export function restApiV21(api: FastifyPluginAsync): FastifyPluginAsync {
  return async (app) => {
    // Every v2.1 answer passes here: callback style, not async (a promise and a microtask turn each).
    app.addHook('preSerialization', (request, _reply, payload, done) => {
      let shaped: unknown;
      try {
        shaped = request.method === 'GET' ? v21Shape(request.routeOptions.url ?? '', payload) : payload;
      } catch (error) {
        done(error as Error);
        return;
      }
      done(null, shaped);
    });
    await app.register(namedPlugin('esignature', api));
  };
}

/** A GET answer in v2.1's shape where it differs from v2's (the route pattern says which). */
function v21Shape(route: string, payload: unknown): unknown {
  if (route.endsWith('/envelopes/:envelopeId/documents')) return documentsV21(payload as DocumentsResult);
  if (route.endsWith('/templates/:templateId')) return templateV21(payload as Record<string, unknown>);
  if (route.endsWith('/templates/:templateId/documents')) {
    const result = payload as { templateId?: string; templateDocuments?: Array<Record<string, unknown>> };
    const pages = documentsV21({ envelopeId: result.templateId, envelopeDocuments: result.templateDocuments });
    return { ...result, templateDocuments: pages.envelopeDocuments };
  }
  if (route.endsWith('/templates'))
    return templateListV21(payload as { envelopeTemplates?: Array<Record<string, unknown>> });
  return payload;
}

interface DocumentsResult {
  envelopeId?: string;
  envelopeDocuments?: Array<Record<string, unknown>>;
}

/** `pages: "3"` → three page objects (sequence, a stable pageId, dpi), as v2.1 lists them. */
function documentsV21(result: DocumentsResult): DocumentsResult {
  if (!Array.isArray(result.envelopeDocuments)) return result;
  return {
    ...result,
    envelopeDocuments: result.envelopeDocuments.map((d) => {
      if (typeof d['pages'] !== 'string') return d;
      const count = Number(d['pages']);
      const documentId = String(d['documentId']);
      return {
        ...d,
        pages: Array.from({ length: count }, (_, i) => ({
          pageId: pageId(result.envelopeId ?? '', documentId, i + 1),
          sequence: String(i + 1),
          dpi: '72',
        })),
      };
    }),
  };
}

/** DocuSign's page ids are GUIDs; the sandbox derives one from the page's place, so it is the same on every listing. */
function pageId(envelopeId: string, documentId: string, sequence: number): string {
  const hex = createHash('sha256').update(`${envelopeId}\u0000${documentId}\u0000${sequence}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function templateV21(template: Record<string, unknown>): Record<string, unknown> {
  const definition = template['envelopeTemplateDefinition'];
  if (definition === null || typeof definition !== 'object') return template;
  const { envelopeTemplateDefinition: _moved, ...rest } = template;
  const { pageCount, ...fields } = definition as Record<string, unknown>;
  // v2's envelopeTemplateDefinition.pageCount is an integer, v2.1's envelopeTemplate.pageCount a string.
  return { ...fields, ...(typeof pageCount === 'number' ? { pageCount: String(pageCount) } : {}), ...rest };
}

/** Listing items with v2.1's pageCount, a string. */
function templateListV21(result: { envelopeTemplates?: Array<Record<string, unknown>> }) {
  if (!Array.isArray(result.envelopeTemplates)) return result;
  return {
    ...result,
    envelopeTemplates: result.envelopeTemplates.map((t) =>
      typeof t['pageCount'] === 'number' ? { ...t, pageCount: String(t['pageCount']) } : t,
    ),
  };
}
