import { apiErrors } from '../../platform/http/api-error.js';
import { camelCaseKeys } from '../envelopes/wire/camel-case-keys.js';
import { parseDocument, parseRecipients } from '../envelopes/wire/definition-parts.js';
import {
  parseCustomFields,
  type IncomingCustomField,
  type IncomingDocument,
  type IncomingRecipient,
} from '../envelopes/wire/envelope-definition.js';
import { lenientArray, lenientObject, lenientString } from '../../platform/http/lenient.js';

/**
 * `#/definitions/envelopeTemplate` of Templates_PostTemplates and
 * Templates_PutTemplate, after DocuSign's leniencies. A member left out is
 * undefined: a PUT keeps what the template had.
 */
export interface IncomingTemplate {
  name: string | undefined;
  description: string | undefined;
  emailSubject: string | undefined;
  emailBlurb: string | undefined;
  documents: IncomingDocument[] | undefined;
  /** Every kind, in catalogue order then submission order; a role may be a placeholder (no name, no email). */
  recipients: IncomingRecipient[] | undefined;
  /** Its text custom fields (list fields are not kept on a template by the sandbox). */
  customFields: IncomingCustomField[] | undefined;
}

/**
 * Reads a template definition. v2.1 puts `name` and `description` at the
 * top; v2's Swagger nests them in `envelopeTemplateDefinition`: both are read,
 * the top level first.
 */
export function parseTemplateDefinition(body: unknown): IncomingTemplate {
  const def = lenientObject(camelCaseKeys(body), 'envelopeTemplate');
  if (!def) throw apiErrors.invalidBody('Send a template definition (envelopeTemplate) as JSON.');
  const nested = lenientObject(def['envelopeTemplateDefinition'], 'envelopeTemplateDefinition') ?? {};
  const text = (key: string) =>
    lenientString(def[key], key) ?? lenientString(nested[key], `envelopeTemplateDefinition.${key}`);
  const rawDocuments = lenientArray(def['documents'], 'documents');
  const documents = rawDocuments?.map((raw, i) => parseDocument(raw, i, new Map()));
  const seen = new Set<string>();
  for (const d of documents ?? []) {
    if (seen.has(d.documentId)) throw apiErrors.invalidBody(`documentId ${d.documentId} is used twice.`);
    seen.add(d.documentId);
  }
  const recipients = lenientObject(def['recipients'], 'recipients');
  return {
    name: text('name'),
    description: text('description'),
    emailSubject: lenientString(def['emailSubject'], 'emailSubject'),
    emailBlurb: lenientString(def['emailBlurb'], 'emailBlurb'),
    documents,
    recipients: recipients === undefined ? undefined : parseRecipients(recipients, 'template'),
    customFields:
      def['customFields'] === undefined
        ? undefined
        : parseCustomFields(def['customFields']).filter((f) => f.kind === 'text'),
  };
}
