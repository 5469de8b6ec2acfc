import { recipientKind } from '../../../envelope/index.js';
import { hashPassword } from '../../platform/password-hash.js';
import { apiErrors } from '../../platform/http/api-error.js';
import type { BlobStore } from '../../platform/db/blob-store.js';
import { checkTabs } from '../envelopes/envelope-factory.js';
import type { DocGenIntake } from '../envelopes/documents/document-intake.js';
import type { DocumentWork } from '../document-work/document-work.js';
import { quickPageCount } from '../../platform/pdf/page-count.js';
import type { TemplateDocumentRecord, TemplateRecipientFixed, TemplateRoleRecord } from './repository.js';
import type { IncomingDocument, IncomingRecipient } from '../envelopes/wire/envelope-definition.js';

/**
 * A template's documents as the sandbox keeps them: PDFs (DOCX, HTML and TXT
 * converted at intake, as for envelopes), bytes in the blob store. With
 * `docGen`, a DOCX with merge fields is a DocGen document (its DOCX kept):
 * each envelope made from the template gets its fields to set.
 */
export async function templateDocuments(
  documents: IncomingDocument[],
  blobs: BlobStore,
  work: DocumentWork,
  docGen?: DocGenIntake,
): Promise<TemplateDocumentRecord[]> {
  const out: TemplateDocumentRecord[] = [];
  // One at a time: a conversion is CPU work (as envelope-factory.ts).
  for (const [index, d] of documents.entries()) {
    const bytes = await work.convert(d, docGen);
    out.push({
      documentId: d.documentId,
      position: d.order ?? index + 1,
      name: d.name,
      sha256: blobs.put(bytes),
      size: bytes.length,
      pages: quickPageCount(bytes),
    });
  }
  return out.sort((a, b) => a.position - b.position);
}

/**
 * A template's recipients as stored: ids defaulted (position + 1), tabs
 * checked against the template's documents and kept as given (anchors are
 * placed when an envelope is made), access codes hashed, and what is fixed
 * of a recipient (name, email …) kept for every envelope made from it.
 */
export async function templateRoles(
  recipients: IncomingRecipient[],
  documents: ReadonlyArray<Pick<TemplateDocumentRecord, 'documentId' | 'pages'>>,
): Promise<TemplateRoleRecord[]> {
  const ids = new Set<string>();
  const roles: TemplateRoleRecord[] = [];
  for (const [position, r] of recipients.entries()) {
    const recipientId = r.recipientId ?? String(position + 1);
    if (ids.has(recipientId)) throw apiErrors.invalidBody(`recipientId ${recipientId} is used twice.`);
    ids.add(recipientId);
    const tabs = recipientKind(r.kind).hasTabs ? (r.tabs ?? {}) : {};
    checkTabs(tabs, documents);
    const fixed: TemplateRecipientFixed = {};
    if (r.name) fixed.name = r.name;
    if (r.email) fixed.email = r.email;
    if (r.clientUserId) fixed.clientUserId = r.clientUserId;
    if (Object.keys(r.details).length > 0) fixed.details = r.details;
    if (r.emailSubject) fixed.emailSubject = r.emailSubject;
    if (r.emailBody) fixed.emailBody = r.emailBody;
    if (r.supportedLanguage) fixed.supportedLanguage = r.supportedLanguage;
    roles.push({
      position,
      recipientId,
      roleName: r.roleName ?? '',
      routingOrder: String(r.routingOrder ?? 1),
      tabs,
      kind: r.kind,
      fixed,
      accessCodeHash: r.accessCode === undefined ? null : await hashPassword(r.accessCode),
    });
  }
  return roles;
}
