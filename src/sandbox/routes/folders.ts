import type { FastifyPluginAsync } from 'fastify';
import { principalOf, type AccountParams } from './request-helpers.js';
import { apiErrors } from '../api-error.js';
import { lenientObject } from '../wire/lenient.js';
import { LifecycleError } from '../lifecycle.js';

/**
 * PUT …/folders/{folderId} (Folders_PutFolderById, #/definitions/foldersRequest
 * → #/definitions/foldersResponse), for the one folder the runner uses:
 * `recyclebin`, where DocuSign deletes drafts. Only drafts are accepted; a
 * draft moved there is `deleted` (never sendable). The runner deletes the
 * drafts that lost a race for one identity (docs/exactly-once.md).
 *
 * A template id among `envelopeIds` deletes that template, as the Swagger
 * describes this operation ("You can also use this method to delete
 * templates"): DocuSign has no DELETE of a template. Envelopes already made
 * from it are unaffected (they hold their own documents and recipients).
 */
export const folderRoutes: FastifyPluginAsync = async (app) => {
  app.put<{ Params: AccountParams & { folderId: string } }>(
    '/accounts/:accountId/folders/:folderId',
    {
      schema: {
        params: {
          type: 'object',
          required: ['accountId', 'folderId'],
          properties: { accountId: { type: 'string' }, folderId: { type: 'string', enum: ['recyclebin'] } },
        },
      },
    },
    async (request) => {
      const { account } = principalOf(request);
      const body = lenientObject(request.body, 'foldersRequest') ?? {};
      const ids = body['envelopeIds'];
      if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string'))
        throw apiErrors.invalidParameter("'envelopeIds' must list the envelopes to move.");
      const { sandbox } = request.server;
      // Every id is checked before anything moves: one unknown id moves nothing.
      const templates = ids.map((id) => sandbox.templates.get(account.id, id));
      for (const [i, id] of ids.entries())
        if (!templates[i] && !sandbox.envelopes.get(account.id, id.toLowerCase())) throw apiErrors.envelopeNotFound();
      for (const [i, id] of ids.entries()) {
        const template = templates[i];
        if (template) {
          sandbox.templates.delete(template.id, sandbox.clock.now());
          continue;
        }
        const envelope = sandbox.envelopes.get(account.id, id.toLowerCase())!;
        try {
          sandbox.lifecycle.discardDraft(envelope.id);
        } catch (error) {
          if (error instanceof LifecycleError) throw apiErrors.invalidStatus(error.message);
          throw error;
        }
      }
      return { envelopes: [], folders: [] };
    },
  );
};
