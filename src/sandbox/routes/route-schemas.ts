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
