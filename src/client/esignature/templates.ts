import type { CallOptions, DownloadSink, WrittenFile } from '../call-options.js';
import type { EnvelopeTemplate, EnvelopeTemplateResults, TemplateDefinition } from '../../envelope/wire.js';
import { answerJson, requiredString, type AccountScope } from './account-scope.js';
import { accountEndpointUrl as urlOf } from './endpoints.js';

/**
 * POST …/templates (Templates_PostTemplates). Not idempotent: templates as
 * code make a duplicate harmless (the earliest of an identity counts, the
 * others are deleted), and say so with `repeatable`.
 */
export async function createTemplate(
  account: AccountScope,
  definition: TemplateDefinition,
  options: CallOptions & { repeatable?: boolean } = {},
): Promise<{ templateId: string }> {
  const { repeatable, ...call } = options;
  const request = {
    method: 'POST' as const,
    url: urlOf(account.baseUrl, 'createTemplate', {}),
    operation: 'createTemplate',
  };
  const summary = await answerJson<Record<string, unknown>>(
    account.client,
    { ...request, body: definition, idempotent: repeatable === true },
    call,
  );
  return { templateId: requiredString(summary, 'templateId', request) };
}

/** PUT …/templates/{templateId} (Templates_PutTemplate): the definition replaces the template's. */
export async function updateTemplate(
  account: AccountScope,
  templateId: string,
  definition: TemplateDefinition,
  options: CallOptions = {},
): Promise<void> {
  await account.client.request(
    {
      method: 'PUT',
      url: urlOf(account.baseUrl, 'updateTemplate', { templateId }),
      body: definition,
      operation: 'updateTemplate',
      idempotent: true,
    },
    options,
  );
}

/** One page of GET …/templates (Templates_GetTemplates), with `include` (custom_fields, recipients, documents…). */
export async function listTemplates(
  account: AccountScope,
  query: { startPosition: number; count: number; include?: string[]; searchText?: string },
  options: CallOptions = {},
): Promise<EnvelopeTemplateResults> {
  const params = new URLSearchParams({ start_position: String(query.startPosition), count: String(query.count) });
  if (query.include?.length) params.set('include', query.include.join(','));
  if (query.searchText !== undefined) params.set('search_text', query.searchText);
  const url = urlOf(account.baseUrl, 'listTemplates', {}, params);
  return answerJson<EnvelopeTemplateResults>(
    account.client,
    { method: 'GET', url, operation: 'listTemplates' },
    options,
  );
}

/** Deletes templates: DocuSign has no DELETE of a template; it moves them to the recycle bin (Folders_PutFolderById). */
export async function deleteTemplates(
  account: AccountScope,
  templateIds: string[],
  options: CallOptions = {},
): Promise<void> {
  await account.client.request(
    {
      method: 'PUT',
      url: urlOf(account.baseUrl, 'deleteTemplates', { folderId: 'recyclebin' }),
      body: { envelopeIds: templateIds },
      operation: 'deleteTemplates',
      idempotent: true,
    },
    options,
  );
}

/** GET …/templates/{templateId}/documents/{documentId}: the document's PDF, streamed into `sink`. */
export async function downloadTemplateDocument<T extends WrittenFile>(
  account: AccountScope,
  templateId: string,
  documentId: string,
  sink: DownloadSink<T>,
  options: CallOptions = {},
): Promise<T> {
  const url = urlOf(account.baseUrl, 'downloadTemplateDocument', { templateId, documentId });
  return account.client.download(url, 'downloadTemplateDocument', sink, options);
}

/** GET …/templates/{templateId} (4.11). */
export async function getTemplate(
  account: AccountScope,
  templateId: string,
  options: CallOptions = {},
): Promise<EnvelopeTemplate> {
  const url = urlOf(account.baseUrl, 'getTemplate', { templateId });
  return answerJson<EnvelopeTemplate>(account.client, { method: 'GET', url, operation: 'getTemplate' }, options);
}
