import { apiErrors } from '../../../platform/http/api-error.js';
import { lenientArray, lenientObject, lenientPositiveInt, lenientString } from '../../../platform/http/lenient.js';
import { parseDocument, parseRecipients } from './definition-parts.js';
import type { IncomingDocument, IncomingRecipient } from './definition-parts.js';

/** `#/definitions/serverTemplate`: a stored template, at its place in the overlay. */
export interface IncomingServerTemplate {
  kind: 'server';
  sequence: number;
  templateId: string;
}

/** `#/definitions/inlineTemplate`: recipients and documents given in the request, at their place in the overlay. */
export interface IncomingInlineTemplate {
  kind: 'inline';
  sequence: number;
  recipients: IncomingRecipient[];
  documents: IncomingDocument[];
  /**
   * True for the `templateRoles` of a templateId envelope: they are read as
   * signers (a templateRole has no kind), so a role keeps its template's kind.
   */
  fillsRolesOnly?: boolean;
}

/** `#/definitions/compositeTemplate`: templates overlaid in `sequence` order, and optionally its own document. */
export interface IncomingCompositeTemplate {
  compositeTemplateId: string | undefined;
  /** Server and inline templates together, by sequence (the order sent among equals). */
  templates: Array<IncomingServerTemplate | IncomingInlineTemplate>;
  /** The composite's `document`: replaces the templates' documents (their tabs then apply to it). */
  document: IncomingDocument | undefined;
}

/**
 * Reads `compositeTemplates` of an envelope definition. A composite with
 * neither a template nor a document contributes nothing and is refused, as a
 * request that cannot mean what it says.
 */
export function parseCompositeTemplates(raw: unknown, fileParts: Map<string, Buffer>): IncomingCompositeTemplate[] {
  return (lenientArray(raw, 'compositeTemplates') ?? []).map((item, i) => {
    const field = `compositeTemplates[${i}]`;
    const c = lenientObject(item, field) ?? {};
    const servers: IncomingServerTemplate[] = (
      lenientArray(c['serverTemplates'], `${field}.serverTemplates`) ?? []
    ).map((s, j) => {
      const server = lenientObject(s, `${field}.serverTemplates[${j}]`) ?? {};
      const templateId = lenientString(server['templateId'], `${field}.serverTemplates[${j}].templateId`);
      if (!templateId) throw apiErrors.invalidBody(`${field}.serverTemplates[${j}].templateId is required.`);
      return { kind: 'server', sequence: sequenceOf(server['sequence'], `${field}.serverTemplates[${j}]`), templateId };
    });
    const inlines: IncomingInlineTemplate[] = (
      lenientArray(c['inlineTemplates'], `${field}.inlineTemplates`) ?? []
    ).map((t, j) => {
      const inline = lenientObject(t, `${field}.inlineTemplates[${j}]`) ?? {};
      const at = `${field}.inlineTemplates[${j}]`;
      return {
        kind: 'inline',
        sequence: sequenceOf(inline['sequence'], at),
        // An inline recipient may only fill a server template's role (its tabs, say): name and email are checked once merged.
        recipients: parseRecipients(lenientObject(inline['recipients'], `${at}.recipients`), 'template'),
        documents: (lenientArray(inline['documents'], `${at}.documents`) ?? []).map((d, k) =>
          parseDocument(d, k, fileParts),
        ),
      };
    });
    const document = c['document'] == null ? undefined : parseDocument(c['document'], 0, fileParts);
    if (servers.length === 0 && inlines.length === 0 && document === undefined)
      throw apiErrors.invalidBody(`${field} has no serverTemplates, inlineTemplates or document.`);
    return {
      compositeTemplateId: lenientString(c['compositeTemplateId'], `${field}.compositeTemplateId`),
      // Array.prototype.sort is stable: templates of one sequence keep the order they were sent in.
      templates: [...servers, ...inlines].sort((a, b) => a.sequence - b.sequence),
      document,
    };
  });
}

function sequenceOf(raw: unknown, field: string): number {
  // DocuSign treats a missing sequence as the first place; the Swagger gives it as a string holding a number.
  return lenientPositiveInt(raw, `${field}.sequence`) ?? 1;
}
