// Request schemas of the API routes (fastify validates them before the
// handler; a failure answers 400 INVALID_REQUEST_PARAMETER, as DocuSign does
// for a malformed id). Bodies are read by the lenient readers in wire/,
// because DocuSign accepts numbers for strings and more (issue item 2).

const guid = {
  type: 'string',
  pattern: '^[0-9A-Fa-f]{8}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{12}$',
} as const;
// Account ids: GUIDs here, but a seed may choose other ids (letters, digits, . _ -).
const accountId = { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' } as const;

/** Params of /accounts/{accountId}. */
export const accountParams = {
  params: { type: 'object', required: ['accountId'], properties: { accountId } },
} as const;

/** Params of /accounts/{accountId}/envelopes/{envelopeId}[/…]. */
export const envelopeParams = {
  params: { type: 'object', required: ['accountId', 'envelopeId'], properties: { accountId, envelopeId: guid } },
} as const;

/** Params of …/documents/{documentId}: a positive number, `certificate`, `combined`, `archive`, `portfolio` (any case). */
export const documentParams = {
  params: {
    type: 'object',
    required: ['accountId', 'envelopeId', 'documentId'],
    properties: {
      accountId,
      envelopeId: guid,
      documentId: {
        type: 'string',
        pattern:
          '^([1-9][0-9]{0,9}|[Cc][Ee][Rr][Tt][Ii][Ff][Ii][Cc][Aa][Tt][Ee]|[Cc][Oo][Mm][Bb][Ii][Nn][Ee][Dd]|[Aa][Rr][Cc][Hh][Ii][Vv][Ee]|[Pp][Oo][Rr][Tt][Ff][Oo][Ll][Ii][Oo])$',
      },
    },
  },
  querystring: { type: 'object', properties: { certificate: { type: 'string', enum: ['true', 'false'] } } },
} as const;

/** Params of /accounts/{accountId}/templates/{templateId} (seeded ids need not be GUIDs). */
export const templateParams = {
  params: {
    type: 'object',
    required: ['accountId', 'templateId'],
    properties: { accountId, templateId: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' } },
  },
} as const;

const templateId = { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' } as const;

/** Params of …/templates/{templateId}/documents/{documentId}. */
export const templateDocumentParams = {
  params: {
    type: 'object',
    required: ['accountId', 'templateId', 'documentId'],
    properties: { accountId, templateId, documentId: { type: 'string', pattern: '^[1-9][0-9]{0,9}$' } },
  },
} as const;

/** Params of …/templates/{templateId}/recipients/{recipientId}/tabs. */
export const templateRecipientParams = {
  params: {
    type: 'object',
    required: ['accountId', 'templateId', 'recipientId'],
    properties: { accountId, templateId, recipientId: { type: 'string', pattern: '^[1-9][0-9]{0,9}$' } },
  },
} as const;

/** Query of the status-changes listing (Envelopes_GetEnvelopes). */
export const listEnvelopesQuery = {
  querystring: {
    type: 'object',
    properties: {
      from_date: { type: 'string' },
      to_date: { type: 'string' },
      status: { type: 'string' },
      envelope_ids: { type: 'string' },
      transaction_ids: { type: 'string' },
      custom_field: { type: 'string' },
      start_position: { type: 'string', pattern: '^[0-9]+$' },
      count: { type: 'string', pattern: '^[0-9]+$' },
      include: { type: 'string' },
    },
  },
} as const;

/** Params of …/envelopes/{envelopeId}/recipients/{recipientId}[/…]: a recipientId (a number) or its GUID. */
export const recipientParams = {
  params: {
    type: 'object',
    required: ['accountId', 'envelopeId', 'recipientId'],
    properties: { accountId, envelopeId: guid, recipientId: { type: 'string', pattern: '^[A-Za-z0-9-]{1,64}$' } },
  },
} as const;

const smallId = { type: 'string', pattern: '^[0-9]{1,18}$' } as const;

/** Params of …/permission_profiles/{permissionProfileId} (DocuSign's profile ids are numbers). */
export const permissionProfileParams = {
  params: {
    type: 'object',
    required: ['accountId', 'permissionProfileId'],
    properties: { accountId, permissionProfileId: smallId },
  },
  querystring: {
    type: 'object',
    properties: { include: { type: 'string' }, move_users_to: { type: 'string', pattern: '^[0-9]{1,18}$' } },
  },
} as const;

/** Params of …/groups/{groupId}/users (DocuSign's group ids are numbers). */
export const groupParams = {
  params: { type: 'object', required: ['accountId', 'groupId'], properties: { accountId, groupId: smallId } },
  querystring: {
    type: 'object',
    properties: {
      start_position: { type: 'string', pattern: '^[0-9]+$' },
      count: { type: 'string', pattern: '^[0-9]+$' },
    },
  },
} as const;

/** Params of …/users/{userId}. */
export const userParams = {
  params: {
    type: 'object',
    required: ['accountId', 'userId'],
    properties: { accountId, userId: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' } },
  },
  querystring: { type: 'object', properties: { additional_info: { type: 'string' }, email: { type: 'string' } } },
} as const;

/** Query of the groups listing (Groups_GetGroups). */
export const listGroupsQuery = {
  querystring: {
    type: 'object',
    properties: {
      group_type: { type: 'string' },
      search_text: { type: 'string' },
      include_usercount: { type: 'string' },
      start_position: { type: 'string', pattern: '^[0-9]+$' },
      count: { type: 'string', pattern: '^[0-9]+$' },
    },
  },
} as const;

/** Query of the templates listing (Templates_GetTemplates). */
export const listTemplatesQuery = {
  querystring: {
    type: 'object',
    properties: {
      search_text: { type: 'string' },
      start_position: { type: 'string', pattern: '^[0-9]+$' },
      count: { type: 'string', pattern: '^[0-9]+$' },
      include: { type: 'string' },
    },
  },
} as const;

/** Query of the users listing (Users_GetUsers). */
export const listUsersQuery = {
  querystring: {
    type: 'object',
    properties: {
      additional_info: { type: 'string' },
      email: { type: 'string' },
      email_substring: { type: 'string' },
      user_name_substring: { type: 'string' },
      status: { type: 'string' },
      group_id: { type: 'string' },
      not_group_id: { type: 'string' },
      login_status: { type: 'string' },
      include_usersettings_for_csv: { type: 'string' },
      start_position: { type: 'string', pattern: '^[0-9]+$' },
      count: { type: 'string', pattern: '^[0-9]+$' },
    },
  },
} as const;

/** Params of …/bulk_send_lists/{bulkSendListId}[/…]. */
export const bulkSendListParams = {
  params: {
    type: 'object',
    required: ['accountId', 'bulkSendListId'],
    properties: { accountId, bulkSendListId: guid },
  },
} as const;

/** Params of …/bulk_send_batch/{bulkSendBatchId}[/…]. */
export const bulkSendBatchParams = {
  params: {
    type: 'object',
    required: ['accountId', 'bulkSendBatchId'],
    properties: { accountId, bulkSendBatchId: guid },
  },
} as const;

/** Query of the batches' listing (BulkSendV2Batch_GetBulkSendBatches) and of a batch's envelopes. */
export const bulkSendBatchesQuery = {
  querystring: {
    type: 'object',
    properties: {
      batch_ids: { type: 'string' },
      status: { type: 'string' },
      start_position: { type: 'string', pattern: '^[0-9]+$' },
      count: { type: 'string', pattern: '^[0-9]+$' },
      include: { type: 'string' },
    },
  },
} as const;
