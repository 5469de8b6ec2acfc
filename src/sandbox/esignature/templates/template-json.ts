import { recipientKind, recipientsObject, type EnvelopeRecipients } from '../../../envelope/index.js';
import { isoTime } from '../../platform/clock.js';
import type { UserRecord } from '../accounts/repository.js';
import type { TemplateDocumentRecord, TemplateRecord, TemplateRoleRecord } from './repository.js';

// Answers of the templates API, in v2's shapes (the v2.1 ones are rewritten
// at serialization, wire/v21-shapes.ts); every value a string, as in the
// Swagger definitions named on each function.

const pageCountOf = (documents: readonly TemplateDocumentRecord[]) => documents.reduce((n, d) => n + (d.pages ?? 0), 0);

/** `#/definitions/userInfo` of a template's owner (absent for a seed's template). */
function ownerJson(owner: UserRecord | undefined) {
  return owner && { userId: owner.id, userName: owner.userName, email: owner.email };
}

/** `#/definitions/document` items of `envelopeTemplate.documents` (metadata: the bytes are at their uri). */
export function templateDocumentJson(template: TemplateRecord, d: TemplateDocumentRecord, index: number) {
  return {
    documentId: d.documentId,
    name: d.name,
    order: String(index + 1),
    pages: d.pages === null ? undefined : String(d.pages),
    uri: `/templates/${template.id}/documents/${d.documentId}`,
  };
}

/** `#/definitions/envelopeDocument` items of `templateDocumentsResult.templateDocuments`. */
export function templateDocumentsJson(template: TemplateRecord, documents: readonly TemplateDocumentRecord[]) {
  return {
    templateId: template.id,
    templateDocuments: documents.map((d, i) => ({
      documentId: d.documentId,
      name: d.name,
      type: 'content',
      uri: `/templates/${template.id}/documents/${d.documentId}`,
      order: String(i + 1),
      pages: String(d.pages ?? 0),
      display: 'inline',
      includeInDownload: 'true',
      signerMustAcknowledge: 'no_interaction',
      authoritativeCopy: 'false',
    })),
  };
}

/**
 * `#/definitions/recipients` of a template: each recipient under its kind's
 * collection with its role, routing, what the template fixes of it and
 * (unless `includeTabs` is false) its tabs.
 */
export function templateRecipientsJson(roles: readonly TemplateRoleRecord[], includeTabs = true): EnvelopeRecipients {
  return {
    ...recipientsObject(
      roles.map((r) => ({
        kind: r.kind,
        recipient: {
          recipientId: r.recipientId,
          recipientType: r.kind,
          roleName: r.roleName || undefined,
          routingOrder: r.routingOrder,
          // A role is a placeholder until an envelope names its person: DocuSign answers empty strings.
          name: r.fixed.name ?? '',
          email: r.fixed.email ?? '',
          clientUserId: r.fixed.clientUserId,
          ...r.fixed.details,
          emailNotification:
            r.fixed.emailSubject || r.fixed.emailBody || r.fixed.supportedLanguage
              ? {
                  emailSubject: r.fixed.emailSubject,
                  emailBody: r.fixed.emailBody,
                  supportedLanguage: r.fixed.supportedLanguage,
                }
              : undefined,
          tabs: includeTabs && recipientKind(r.kind).hasTabs && Object.keys(r.tabs).length > 0 ? r.tabs : undefined,
        },
      })),
    ),
    recipientCount: String(roles.length),
  };
}

/**
 * A template's identity as every answer gives it: id, name, dates, size,
 * owner (at the top of a listing's item; in v2's `envelopeTemplateDefinition`).
 */
function templateIdentityJson(
  template: TemplateRecord,
  documents: readonly TemplateDocumentRecord[],
  owner: UserRecord | undefined,
) {
  return {
    templateId: template.id,
    name: template.name,
    description: template.description ?? '',
    shared: 'false',
    created: isoTime(template.createdAt),
    lastModified: isoTime(template.lastModifiedAt),
    pageCount: pageCountOf(documents),
    uri: `/templates/${template.id}`,
    folderName: 'Templates',
    owner: ownerJson(owner),
  };
}

/**
 * One template of the listing (v2: `#/definitions/envelopeTemplateResult`,
 * v2.1: `envelopeTemplate`): its identity and message, `pageCount` an
 * integer as v2 has it.
 */
export function templateListItemJson(
  template: TemplateRecord,
  documents: readonly TemplateDocumentRecord[],
  owner: UserRecord | undefined,
) {
  return {
    ...templateIdentityJson(template, documents, owner),
    emailSubject: template.emailSubject ?? '',
    emailBlurb: template.emailBlurb ?? '',
    status: 'created',
  };
}

/**
 * `#/definitions/envelopeTemplate` of Templates_GetTemplate, v2's shape: the
 * template's identity in `envelopeTemplateDefinition` (v2.1 moves it up).
 */
export function templateJson(
  template: TemplateRecord,
  documents: readonly TemplateDocumentRecord[],
  roles: readonly TemplateRoleRecord[],
  owner: UserRecord | undefined,
) {
  return {
    envelopeTemplateDefinition: templateIdentityJson(template, documents, owner),
    emailSubject: template.emailSubject ?? '',
    emailBlurb: template.emailBlurb ?? '',
    status: 'created',
    documents: documents.map((d, i) => templateDocumentJson(template, d, i)),
    recipients: templateRecipientsJson(roles),
    customFields: templateCustomFieldsJson(template),
  };
}

/** `#/definitions/customFields` of a template: its text fields (numbered as DocuSign numbers them), no list fields. */
export function templateCustomFieldsJson(template: TemplateRecord) {
  return {
    textCustomFields: template.customFields.map((f, i) => ({
      fieldId: String(i + 1),
      name: f.name,
      value: f.value,
      show: f.show,
      required: 'false',
    })),
    listCustomFields: [],
  };
}
