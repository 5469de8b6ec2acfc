import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { accountParams } from '../route-schemas.js';
import { apiBaseOf, principalOf, type AccountParams } from '../request-helpers.js';
import { ApiError, apiErrors } from '../../platform/http/api-error.js';
import { lenientArray, lenientObject, lenientString } from '../../platform/http/lenient.js';
import { LifecycleError } from '../envelopes/lifecycle.js';
import { isoTime } from '../../platform/clock.js';
import type { EnvelopeRecord } from '../envelopes/repository.js';
import { envelopeFolders, folderIdOf, folderTypeOf, systemFolders, type FolderType } from './repository.js';

/** Why an envelope moved to the recycle bin while in process is voided (DocuSign voids it: Swagger, Folders_PutFolderById). */
export const recycledVoidReason = 'The envelope was deleted by its sender.';

const folderParams = {
  params: {
    type: 'object',
    required: ['accountId', 'folderId'],
    properties: { accountId: { type: 'string' }, folderId: { type: 'string', maxLength: 64 } },
  },
} as const;

const unknownFolder = () => new ApiError(400, 'FOLDER_NOT_FOUND', 'The folder specified was not found.');

/**
 * The account's folders (Folders in the Swagger): the list, the envelopes of
 * one, and moving envelopes between them — `recyclebin` deletes (a draft is
 * discarded, an envelope in process is voided, as DocuSign does), and moving
 * one out of it (`fromFolderId: recyclebin`) restores it. The runner deletes
 * the drafts that lost a race for one identity this way (docs/exactly-once.md).
 *
 * A template id among `envelopeIds` moved to the recycle bin deletes that
 * template, as the Swagger describes this operation ("You can also use this
 * method to delete templates"): DocuSign has no DELETE of a template.
 * Envelopes already made from it are unaffected.
 */
export const folderRoutes: FastifyPluginAsync = async (app) => {
  const folderOf = (request: FastifyRequest<{ Params: AccountParams & { folderId: string } }>): FolderType => {
    const type = folderTypeOf(principalOf(request).account.id, request.params.folderId);
    if (type === undefined) throw unknownFolder();
    return type;
  };

  // GET …/folders (Folders_GetFolders → #/definitions/foldersResponse).
  app.get<{ Params: AccountParams }>('/accounts/:accountId/folders', { schema: accountParams }, async (request) => {
    const { account } = principalOf(request);
    const counts = envelopeFolders(app.sandbox.db).counts(account.id);
    const base = `${apiBaseOf(request)}/accounts/${account.id}/folders`;
    const folders = systemFolders.map((f) => ({
      folderId: folderIdOf(account.id, f.type),
      name: f.name,
      type: f.type,
      uri: `${base}/${folderIdOf(account.id, f.type)}`,
      itemCount: String(counts[f.type] ?? 0),
      hasAccess: 'true',
      hasSubFolders: 'false',
      subFolderCount: '0',
    }));
    return {
      folders,
      resultSetSize: String(folders.length),
      totalSetSize: String(folders.length),
      startPosition: '0',
      endPosition: String(folders.length - 1),
    };
  });

  // GET …/folders/{folderId} (Folders_GetFolderItems → #/definitions/folderItemsResponse).
  app.get<{ Params: AccountParams & { folderId: string }; Querystring: { start_position?: string } }>(
    '/accounts/:accountId/folders/:folderId',
    { schema: folderParams },
    async (request) => {
      const { account } = principalOf(request);
      const folder = folderOf(request);
      const start = Number(request.query.start_position ?? '0');
      if (!Number.isInteger(start) || start < 0)
        throw apiErrors.invalidParameter("'start_position' must be a whole number.");
      const ids = envelopeFolders(app.sandbox.db).envelopeIds(account.id, folder);
      const page = ids.slice(start, start + 100);
      const envelopes = page
        .map((id) => app.sandbox.envelopes.get(account.id, id))
        .filter((e): e is EnvelopeRecord => e !== undefined)
        .map((e) => folderItem(request, e, folderIdOf(account.id, folder)));
      return {
        envelopes,
        resultSetSize: String(envelopes.length),
        totalSetSize: String(ids.length),
        startPosition: String(start),
        endPosition: String(start + Math.max(envelopes.length - 1, 0)),
      };
    },
  );

  // PUT …/folders/{folderId} (Folders_PutFolderById, #/definitions/foldersRequest → #/definitions/foldersResponse).
  app.put<{ Params: AccountParams & { folderId: string } }>(
    '/accounts/:accountId/folders/:folderId',
    { schema: folderParams },
    async (request) => {
      const { account } = principalOf(request);
      const target = folderOf(request);
      const body = lenientObject(request.body, 'foldersRequest') ?? {};
      const ids = lenientArray(body['envelopeIds'], 'envelopeIds');
      if (!ids || ids.length === 0 || !ids.every((id) => typeof id === 'string'))
        throw apiErrors.invalidParameter("'envelopeIds' must list the envelopes to move.");
      const fromText = lenientString(body['fromFolderId'], 'fromFolderId');
      const from = fromText === undefined ? undefined : folderTypeOf(account.id, fromText);
      if (fromText !== undefined && from === undefined) throw unknownFolder();
      const { sandbox } = request.server;
      const folders = envelopeFolders(sandbox.db);
      // Every id is checked before anything moves: one unknown id moves nothing.
      const items = ids.map((id) => {
        const template = target === 'recyclebin' ? sandbox.templates.get(account.id, id) : undefined;
        const envelope = template ? undefined : sandbox.envelopes.get(account.id, id.toLowerCase());
        if (!template && !envelope) throw apiErrors.envelopeNotFound();
        if (envelope && from !== undefined && folders.folderOf(envelope.id) !== from)
          throw apiErrors.invalidParameter(`The envelope ${envelope.id} is not in the folder 'fromFolderId' names.`);
        return { template, envelope };
      });
      const now = sandbox.clock.now();
      for (const { template, envelope } of items) {
        if (template) {
          sandbox.templates.delete(template.id, now);
          continue;
        }
        if (target === 'recyclebin') recycle(envelope!);
        folders.move(envelope!.id, target, now);
      }
      return { envelopes: [], folders: [] };

      function recycle(envelope: EnvelopeRecord): void {
        try {
          if (envelope.status === 'created') sandbox.lifecycle.discardDraft(envelope.id);
          else if (envelope.status === 'sent' || envelope.status === 'delivered')
            sandbox.lifecycle.void(envelope.id, recycledVoidReason, {
              ip: request.ip,
              userAgent: request.headers['user-agent'] ?? null,
            });
        } catch (error) {
          if (error instanceof LifecycleError) throw apiErrors.invalidStatus(error.message);
          throw error;
        }
      }
    },
  );
};

/** One envelope of a folder (#/definitions/folderItem_v2). */
function folderItem(request: FastifyRequest, e: EnvelopeRecord, folderId: string): Record<string, string> {
  const sender = request.server.sandbox.accounts.user(e.senderUserId);
  const base = `${apiBaseOf(request)}/accounts/${e.accountId}`;
  const item: Record<string, string> = {
    envelopeId: e.id,
    envelopeUri: `${base}/envelopes/${e.id}`,
    status: e.status,
    subject: e.emailSubject,
    createdDateTime: isoTime(e.createdAt),
    folderId,
    folderUri: `${base}/folders/${folderId}`,
    senderUserId: e.senderUserId,
  };
  if (e.sentAt !== null) item['sentDateTime'] = isoTime(e.sentAt);
  if (e.completedAt !== null) item['completedDateTime'] = isoTime(e.completedAt);
  if (e.templateId !== null) item['templateId'] = e.templateId;
  if (sender) {
    item['senderName'] = sender.userName;
    item['senderEmail'] = sender.email;
    item['ownerName'] = sender.userName;
  }
  return item;
}
