import { randomUUID } from 'node:crypto';
import {
  fieldLengthProblem,
  fieldLimits,
  mayBeWitnessed,
  recipientKind,
  type FieldLimitName,
} from '../../../envelope/index.js';
import { hashPassword } from '../../platform/password-hash.js';
import { orderedGuid } from '../../platform/db/ordered-guid.js';
import type { BlobStore } from '../../platform/db/blob-store.js';
import type { TemplatesRepository } from '../templates/repository.js';
import type { EnvelopeRecord, RecipientRecord, DocumentRecord, CustomFieldRecord } from './repository.js';
import type { IncomingEnvelope } from './wire/envelope-definition.js';
import { ApiError, apiErrors } from '../../platform/http/api-error.js';
import type { DocGenIntake } from './documents/document-intake.js';
import type { DocumentWork } from '../document-work/document-work.js';
import { quickPageCount } from '../../platform/pdf/page-count.js';
import { EnvelopeText, placeTabs } from './tabs/place-tabs.js';
import { resolveComposites, type SourcePerson } from './composite-templates.js';
import type { IncomingCompositeTemplate } from './wire/composite-definition.js';

/** The rows of a new envelope, ready for lifecycle.create (document bytes already stored). */
export interface NewEnvelope {
  envelope: EnvelopeRecord;
  recipients: RecipientRecord[];
  documents: DocumentRecord[];
  customFields: CustomFieldRecord[];
}

/**
 * Turns a parsed creation request into rows: from documents (bytes written to
 * the blob store now, before any row refers to them) or from a template
 * (its documents reused by sha256; `templateRoles` matched by roleName, in
 * the order the client sent them, 4.5 and 2.5).
 */
// eslint-disable-next-line max-lines-per-function -- a creation request's rows made in one order (documents' bytes stored before any row refers to them, then recipients, tabs, custom fields); to be split by part (issue 33).
export async function buildEnvelope(
  incoming: IncomingEnvelope,
  context: {
    accountId: string;
    userId: string;
    now: number;
    blobs: BlobStore;
    templates: TemplatesRepository;
    /** Keeps a DocGen draft's DOCX (absent: a DocGen document needs its values at creation). */
    docGen?: DocGenIntake;
    /** Where documents are converted and read for anchors (off the event loop in `serve`). */
    work: DocumentWork;
  },
): Promise<NewEnvelope> {
  // Time-ordered: the new rows of a group commit share leaf pages (db/ordered-guid.ts).
  const id = orderedGuid();
  const { now } = context;
  let documents: DocumentRecord[];
  let people: SourcePerson[];
  let emailSubject = incoming.emailSubject;
  let emailBlurb = incoming.emailBlurb;

  if (incoming.templateId !== undefined || incoming.compositeTemplates.length > 0) {
    const sources = await resolveComposites(
      incoming.templateId !== undefined
        ? templateAsComposite(incoming, context.templates, context.accountId)
        : incoming.compositeTemplates,
      context,
    );
    emailSubject ??= sources.emailSubject;
    emailBlurb ??= sources.emailBlurb;
    documents = sources.documents.map((d, position) => ({
      envelopeId: id,
      documentId: d.documentId,
      position: position + 1,
      name: d.name,
      sha256: d.sha256,
      originalSha256: d.sha256,
      size: d.size,
      pages: d.pages,
    }));
    people = sources.people;
    if (incoming.templateId !== undefined) {
      // The roles in the order the client named them (4.6); recipients fixed by the template after them.
      const order = (p: SourcePerson) => {
        const at = (incoming.templateRoles ?? []).findIndex(
          (r) => r.roleName!.toLowerCase() === (p.roleName ?? '').toLowerCase(),
        );
        return at < 0 ? Number.MAX_SAFE_INTEGER : at;
      };
      people = [...people].sort((a, b) => order(a) - order(b));
    }
  } else {
    // A PDF as sent, or the rendition of a DOCX, HTML or TXT document (converted one at a time: a
    // conversion is CPU work, and several at once would only take turns).
    for (const d of incoming.documents) d.bytes = await context.work.convert(d, context.docGen);
    // Hashed and appended on the blob writer's thread in a data folder (db/blob-writer.ts), off the event loop.
    const hashes = await Promise.all(incoming.documents.map((d) => context.blobs.putAsync(d.bytes)));
    documents = incoming.documents.map((d, position) => {
      const sha256 = hashes[position]!;
      return {
        envelopeId: id,
        documentId: d.documentId,
        position: d.order ?? position + 1,
        name: d.name,
        sha256,
        originalSha256: sha256,
        size: d.bytes.length,
        pages: quickPageCount(d.bytes),
      };
    });
    documents.sort((a, b) => a.position - b.position);
    people = incoming.recipients.map((s, i) => ({
      ...s,
      recipientId: s.recipientId ?? String(i + 1),
      routingOrder: s.routingOrder ?? 1,
      tabs: s.tabs ?? {},
      accessCodeHash: null,
    }));
  }

  if (incoming.status === 'sent' && people.length === 0) {
    throw apiErrors.invalidBody('An envelope sent at once needs at least one recipient.');
  }
  if (incoming.status === 'sent' && !emailSubject) {
    // DocuSign refuses to send an envelope without a subject.
    throw apiErrors.invalidBody("'emailSubject' is required to send an envelope.");
  }
  checkFieldLengths(emailSubject, emailBlurb, people);
  // A document's name longer than DocuSign keeps is cut, as DocuSign cuts it (field-limits.ts).
  for (const d of documents)
    if (fieldLengthProblem('documentName', d.name)) d.name = d.name.slice(0, fieldLimits.documentName.max);

  const recipientIds = new Set<string>();
  const recipients: RecipientRecord[] = people.map((s, position) => {
    const recipientId = s.recipientId;
    if (recipientIds.has(recipientId)) throw apiErrors.invalidBody(`recipientId ${recipientId} is used twice.`);
    recipientIds.add(recipientId);
    // A template role's tabs were filled by label already (composite-templates.ts); documents' recipients bring their own.
    // A kind without tabs (a carbon copy, an editor …) has nothing to fill: tabs sent for one are left out.
    const tabs = recipientKind(s.kind).hasTabs ? s.tabs : {};
    checkTabs(tabs, documents);
    return {
      envelopeId: id,
      recipientId,
      kind: s.kind,
      details: s.details,
      accessCodeHash: s.accessCodeHash,
      accessCodeFailures: 0,
      position,
      recipientIdGuid: randomUUID(),
      userId: randomUUID(),
      name: s.name,
      email: s.email,
      clientUserId: s.clientUserId ?? null,
      routingOrder: s.routingOrder,
      roleName: s.roleName ?? null,
      status: 'created',
      tabs,
      emailSubject: s.emailSubject ?? null,
      emailBody: s.emailBody ?? null,
      supportedLanguage: s.supportedLanguage ?? null,
      sentAt: null,
      deliveredAt: null,
      signedAt: null,
      declinedAt: null,
      declinedReason: null,
    };
  });

  checkWitnesses(recipients);
  // Hashed before anything is stored: the code itself is kept nowhere (signing/access-code.ts checks it).
  for (const [i, s] of people.entries())
    if (s.accessCode !== undefined) recipients[i]!.accessCodeHash = await hashPassword(s.accessCode);

  // Every tab gets its id and recipient; anchored tabs go wherever their anchor is (documents read only then).
  const incomingBytes = new Map(
    incoming.compositeTemplates.length > 0 ? [] : incoming.documents.map((d) => [d.documentId, d.bytes]),
  );
  const text = new EnvelopeText(
    documents.map((d) => ({
      documentId: d.documentId,
      bytes: () => incomingBytes.get(d.documentId) ?? context.blobs.get(d.sha256),
    })),
    (doc) => context.work.readText(doc),
  );
  // A DocGen draft's letter is written later: an anchor its values will write waits for it (place-tabs.ts).
  const lettersToCome =
    incoming.templateId === undefined &&
    incoming.compositeTemplates.length === 0 &&
    context.docGen?.keepSource !== undefined &&
    incoming.documents.some((d) => d.docGen !== undefined && d.docGen.fields === undefined);
  for (const recipient of recipients)
    recipient.tabs = await placeTabs(recipient.tabs, recipient.recipientId, text, { lettersToCome });

  const customFields: CustomFieldRecord[] = incoming.customFields.map((f, i) => ({
    kind: f.kind,
    fieldId: f.fieldId ?? String(i + 1),
    name: f.name,
    value: f.value,
    show: f.show,
    required: f.required,
    listItems: f.listItems,
  }));

  return {
    envelope: {
      id,
      accountId: context.accountId,
      senderUserId: context.userId,
      status: incoming.status,
      emailSubject: emailSubject ?? '',
      emailBlurb: emailBlurb ?? '',
      templateId: incoming.templateId ?? null,
      transactionId: incoming.transactionId ?? null,
      eventNotification: incoming.eventNotification ?? null,
      ...newEnvelopeTimes(now),
    },
    recipients,
    documents,
    customFields,
  };
}

/**
 * A witness must witness a recipient of the envelope who signs in their own
 * name (DocuSign's `witnessFor`); one for nobody, or for another witness (a
 * cycle: W2 for W3, W3 for W2), is refused at creation, never left to wait
 * for ever. DocuSign publishes no code for it; INVALID_RECIPIENT_ID is its
 * code for a recipient id that names no recipient.
 */
function checkWitnesses(recipients: readonly RecipientRecord[]): void {
  for (const r of recipients) {
    const witnessFor = r.details.witnessFor;
    if (witnessFor === undefined) continue;
    const witnessed = recipients.find((x) => x.recipientId === witnessFor);
    // The rule validate applies (mayBeWitnessed): a signer or an in-person signer, never a witness, so no cycle can wait for ever.
    if (witnessed === undefined || witnessed === r || !mayBeWitnessed(recipientKind(witnessed.kind))) {
      throw new ApiError(
        400,
        'INVALID_RECIPIENT_ID',
        `Witness ${r.recipientId}: witnessFor ${witnessFor} is not a recipient of the envelope who signs.`,
      );
    }
  }
}

/**
 * Tabs must point at a document of the envelope, or of the template
 * (DocuSign: INVALID_DOCUMENT_ID / TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT).
 */
export function checkTabs(
  tabs: Record<string, unknown>,
  documents: ReadonlyArray<Pick<DocumentRecord, 'documentId' | 'pages'>>,
): void {
  for (const [kind, list] of Object.entries(tabs)) {
    if (!Array.isArray(list)) continue;
    for (const [i, tab] of list.entries()) {
      if (!tab || typeof tab !== 'object') continue;
      const t = tab as Record<string, unknown>;
      const raw = t['documentId'];
      if (raw === undefined) continue;
      const documentId =
        typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean'
          ? String(raw)
          : JSON.stringify(raw);
      const doc = documents.find((d) => d.documentId === documentId);
      if (!doc)
        throw new ApiError(
          400,
          'INVALID_DOCUMENT_ID',
          `${kind}[${i}].documentId ${documentId} is not a document of the envelope.`,
        );
      const page = Number(t['pageNumber'] ?? 1);
      if (doc.pages !== null && (!Number.isInteger(page) || page < 1 || page > doc.pages)) {
        throw new ApiError(
          400,
          'TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT',
          `${kind}[${i}].pageNumber ${String(t['pageNumber'])} is not in document ${doc.documentId}, which has ${doc.pages} page(s).`,
        );
      }
    }
  }
}

/**
 * `templateId` + `templateRoles` is DocuSign's shorthand for one composite:
 * the server template, then an inline template whose recipients are the
 * roles named. Every role named must be a role of the template, once.
 */
function templateAsComposite(
  incoming: IncomingEnvelope,
  templates: TemplatesRepository,
  accountId: string,
): IncomingCompositeTemplate[] {
  const template = templates.get(accountId, incoming.templateId!);
  if (!template) throw apiErrors.templateNotFound();
  if (incoming.recipients.length > 0)
    throw apiErrors.invalidBody('With a templateId, name the signers in templateRoles, not recipients.');
  const roles = templates.roles(template.id).filter((r) => r.roleName !== '');
  const used = new Set<string>();
  for (const r of incoming.templateRoles ?? []) {
    const role = roles.find((x) => x.roleName.toLowerCase() === r.roleName!.toLowerCase());
    if (!role) {
      throw apiErrors.invalidBody(
        `templateRoles: roleName "${r.roleName}" is not a role of template ${template.id} (roles: ${roles.map((x) => x.roleName).join(', ')}).`,
      );
    }
    if (used.has(role.roleName))
      throw apiErrors.invalidBody(`templateRoles: roleName "${role.roleName}" is given twice.`);
    used.add(role.roleName);
  }
  return [
    {
      compositeTemplateId: undefined,
      templates: [
        { kind: 'server', sequence: 1, templateId: template.id },
        { kind: 'inline', sequence: 2, recipients: incoming.templateRoles ?? [], documents: [], fillsRolesOnly: true },
      ],
      document: undefined,
    },
  ];
}

/**
 * DocuSign's length limits (src/envelope/field-limits.ts, the table
 * `validate` checks too): a value longer than DocuSign takes is refused with
 * 400 INVALID_REQUEST_PARAMETER, DocuSign's answer to a parameter it
 * refuses, naming the field.
 */
function checkFieldLengths(
  emailSubject: string | undefined,
  emailBlurb: string | undefined,
  people: readonly SourcePerson[],
): void {
  const fields: Array<[FieldLimitName, string | undefined, string]> = [
    ['emailSubject', emailSubject, 'emailSubject'],
    ['emailBlurb', emailBlurb, 'emailBlurb'],
  ];
  for (const p of people) {
    const who = `recipient ${p.recipientId}`;
    for (const name of [p.name, p.details.hostName, p.details.signerName])
      fields.push(['recipientName', name, `${who}: name`]);
    for (const email of [p.email, p.details.hostEmail, p.details.signerEmail])
      fields.push(['recipientEmail', email, `${who}: email`]);
  }
  // Custom field values (100 characters, textCustomField.value) are not
  // refused here yet: signrun's own identity field holds `job/key`, which
  // job files allow up to 301 characters; validate checks the user's own.
  for (const [limit, value, where] of fields) {
    const problem = fieldLengthProblem(limit, value);
    if (problem && fieldLimits[limit].longer === 'refused') throw apiErrors.invalidParameter(`${where}: ${problem}.`);
  }
}

/** The dates of an envelope made at `now`: created and changed then, nothing else yet (the lifecycle sets the rest). */
export function newEnvelopeTimes(now: number) {
  return {
    createdAt: now,
    sentAt: null,
    deliveredAt: null,
    completedAt: null,
    declinedAt: null,
    voidedAt: null,
    voidedReason: null,
    statusChangedAt: now,
  } as const;
}
