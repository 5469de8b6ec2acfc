import { randomUUID } from 'node:crypto';
import type { Tabs, WireTab } from '../../../envelope/index.js';
import { fieldLengthProblem, fieldLimits, tabsObject } from '../../../envelope/index.js';
import { ApiError, apiErrors } from '../../platform/http/api-error.js';
import type { NewEnvelope } from '../envelopes/envelope-factory.js';
import { buildEnvelope, newEnvelopeTimes } from '../envelopes/envelope-factory.js';
import type { EnvelopesRepository } from '../envelopes/repository.js';
import type { TemplatesRepository } from '../templates/repository.js';
import type { BlobStore } from '../../platform/db/blob-store.js';
import { orderedGuid } from '../../platform/db/ordered-guid.js';
import type { Clock } from '../../platform/clock.js';
import type { DocumentWork } from '../document-work/document-work.js';
import { parseEnvelopeDefinition } from '../envelopes/wire/envelope-definition.js';
import type { BulkCopy, BulkCopyRecipient, BulkSendBatchRecord } from './repository.js';

/** What making a copy reads of the sandbox (its services, named here so that services.ts may hold the worker). */
export interface CopyServices {
  envelopes: EnvelopesRepository;
  templates: TemplatesRepository;
  blobs: BlobStore;
  clock: Clock;
  documentWork: DocumentWork;
}

/**
 * One copy of a batch, as DocuSign's Bulk Send makes it: the model (a draft
 * envelope or a template) with the copy's recipients, tab values, custom
 * field values, subject and blurb, sent at once.
 *
 * - A template model goes through the envelope factory as a creation
 *   request would (`templateId` + `templateRoles`, the copy's recipients
 *   matched by roleName), so it is exactly what POST …/envelopes makes.
 * - A draft model is copied row for row from what the factory made of it
 *   (documents by sha256, tabs already placed at their anchors), then the
 *   copy's values are put in: re-reading and re-placing the documents of
 *   the same draft once per copy would only repeat the factory's work.
 *
 * Recipients are matched by recipientId, else by roleName (bulkSendingCopyRecipient);
 * tabs by tabLabel (bulkSendingCopyTab: `initialValue`); custom fields by
 * name, and "must also be included in the original envelope or template"
 * (bulkSendingCopy.customFields), so a name the model lacks is refused.
 */
export async function makeCopy(
  services: CopyServices,
  batch: BulkSendBatchRecord,
  copy: BulkCopy,
): Promise<NewEnvelope> {
  return batch.modelKind === 'template' ? copyOfTemplate(services, batch, copy) : copyOfDraft(services, batch, copy);
}

/** What a copy asks that its model cannot take, in words (the `/test` endpoint's validationErrors); empty when it fits. */
export function copyProblems(
  model: { recipients: Array<{ recipientId: string; roleName: string | null }>; customFieldNames: string[] },
  copy: BulkCopy,
  index: number,
): string[] {
  const problems: string[] = [];
  for (const [i, r] of copy.recipients.entries()) {
    if (matchRecipient(model.recipients, r) === undefined)
      problems.push(
        `bulkCopies[${index}].recipients[${i}]: no recipient of the model has ${r.recipientId !== undefined ? `recipientId ${r.recipientId}` : `roleName "${r.roleName ?? ''}"`}.`,
      );
  }
  const names = new Set(model.customFieldNames.map((n) => n.toLowerCase()));
  for (const f of copy.customFields)
    if (!names.has(f.name.toLowerCase()))
      problems.push(`bulkCopies[${index}].customFields: "${f.name}" is not a custom field of the model.`);
  return problems;
}

function matchRecipient<T extends { recipientId: string; roleName: string | null }>(
  recipients: readonly T[],
  wanted: BulkCopyRecipient,
): T | undefined {
  if (wanted.recipientId !== undefined) return recipients.find((r) => r.recipientId === wanted.recipientId);
  const role = (wanted.roleName ?? '').toLowerCase();
  return role === '' ? undefined : recipients.find((r) => (r.roleName ?? '').toLowerCase() === role);
}

/** The model's tabs with the copy's values put in by tabLabel, every tab given a new id. */
function filledTabs(tabs: Tabs, values: BulkCopyRecipient['tabs']): Tabs {
  const byLabel = new Map((values ?? []).map((t) => [t.tabLabel, t.initialValue]));
  const out: Tabs = {};
  for (const [collection, list] of Object.entries(tabs)) {
    if (!list) continue;
    out[collection] = list.map((tab) => {
      const copy: WireTab = { ...tab, tabId: randomUUID() };
      const value = tab.tabLabel !== undefined ? byLabel.get(tab.tabLabel) : undefined;
      if (value !== undefined) copy.value = value;
      return copy;
    });
  }
  return out;
}

async function copyOfDraft(
  services: Pick<CopyServices, 'envelopes' | 'clock'>,
  batch: BulkSendBatchRecord,
  copy: BulkCopy,
): Promise<NewEnvelope> {
  const model = services.envelopes.get(batch.accountId, batch.modelId);
  if (!model) throw apiErrors.envelopeNotFound();
  const problems = copyProblems(
    {
      recipients: services.envelopes.recipients(model.id),
      customFieldNames: services.envelopes.customFields(model.id).map((f) => f.name),
    },
    copy,
    0,
  );
  if (problems.length > 0) throw apiErrors.invalidBody(problems.join(' '));
  // Time-ordered, as a created envelope's (db/ordered-guid.ts): a batch's copies share leaf pages.
  const id = orderedGuid();
  const now = services.clock.now();
  const recipients = services.envelopes.recipients(model.id).map((r) => ({
    ...r,
    envelopeId: id,
    recipientIdGuid: randomUUID(),
    userId: randomUUID(),
    status: 'created' as const,
    sentAt: null,
    deliveredAt: null,
    signedAt: null,
    declinedAt: null,
    declinedReason: null,
    accessCodeFailures: 0,
  }));
  for (const wanted of copy.recipients) {
    const r = matchRecipient(recipients, wanted)!;
    if (wanted.name !== undefined) r.name = wanted.name;
    if (wanted.email !== undefined) r.email = wanted.email;
    if (wanted.clientUserId !== undefined) r.clientUserId = wanted.clientUserId === '' ? null : wanted.clientUserId;
    if (wanted.hostName !== undefined) r.details = { ...r.details, hostName: wanted.hostName };
    if (wanted.hostEmail !== undefined) r.details = { ...r.details, hostEmail: wanted.hostEmail };
    if (wanted.signerName !== undefined) r.details = { ...r.details, signerName: wanted.signerName };
    // Hashed when the list was stored: the code itself is kept nowhere.
    if (wanted.accessCodeHash !== undefined) r.accessCodeHash = wanted.accessCodeHash;
    r.tabs = filledTabs(r.tabs, wanted.tabs);
  }
  for (const r of recipients) {
    if (!copy.recipients.some((w) => matchRecipient([r], w))) r.tabs = filledTabs(r.tabs, []);
    for (const [limit, value] of [
      ['recipientName', r.name],
      ['recipientEmail', r.email],
    ] as const) {
      const problem = fieldLengthProblem(limit, value);
      if (problem && fieldLimits[limit].longer === 'refused')
        throw apiErrors.invalidParameter(`recipient ${r.recipientId}: ${problem}.`);
    }
    if (!r.email)
      throw new ApiError(400, 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', `recipient ${r.recipientId} has no email.`);
  }
  const values = new Map(copy.customFields.map((f) => [f.name.toLowerCase(), f.value]));
  const customFields = services.envelopes.customFields(model.id).map((f) => ({
    ...f,
    value: values.get(f.name.toLowerCase()) ?? f.value,
  }));
  const documents = services.envelopes.documents(model.id).map((d) => ({
    ...d,
    envelopeId: id,
    // The copy starts from the document as uploaded, never from a stamped one.
    sha256: d.originalSha256,
  }));
  return {
    envelope: {
      ...model,
      id,
      status: 'sent',
      emailSubject: copy.emailSubject ?? model.emailSubject,
      emailBlurb: copy.emailBlurb ?? model.emailBlurb,
      transactionId: null,
      ...newEnvelopeTimes(now),
    },
    recipients,
    documents,
    customFields,
  };
}

async function copyOfTemplate(
  services: Pick<CopyServices, 'templates' | 'blobs' | 'clock' | 'documentWork'>,
  batch: BulkSendBatchRecord,
  copy: BulkCopy,
): Promise<NewEnvelope> {
  const template = services.templates.get(batch.accountId, batch.modelId);
  if (!template) throw apiErrors.templateNotFound();
  const roles = services.templates.roles(template.id);
  const problems = copyProblems(
    {
      recipients: roles.map((r) => ({ recipientId: r.recipientId, roleName: r.roleName })),
      customFieldNames: template.customFields.map((f) => f.name),
    },
    copy,
    0,
  );
  if (problems.length > 0) throw apiErrors.invalidBody(problems.join(' '));
  const values = new Map(copy.customFields.map((f) => [f.name.toLowerCase(), f.value]));
  // A creation request as a client would write it: the factory makes the envelope.
  const definition = {
    status: 'sent',
    templateId: template.id,
    ...(copy.emailSubject !== undefined ? { emailSubject: copy.emailSubject } : {}),
    ...(copy.emailBlurb !== undefined ? { emailBlurb: copy.emailBlurb } : {}),
    templateRoles: copy.recipients.map((r) => {
      const role = matchRecipient<{ recipientId: string; roleName: string | null }>(roles, r)!;
      return {
        roleName: role.roleName,
        name: r.name,
        email: r.email,
        ...(r.clientUserId ? { clientUserId: r.clientUserId } : {}),
        ...(r.tabs?.length
          ? // Filled by label: the template's tab of that label takes the value, whatever its kind.
            {
              tabs: tabsObject(
                r.tabs.map((t) => ({ kind: 'text', tab: { tabLabel: t.tabLabel, value: t.initialValue } })),
              ),
            }
          : {}),
      };
    }),
    customFields: {
      textCustomFields: template.customFields.map((f) => ({
        name: f.name,
        value: values.get(f.name.toLowerCase()) ?? f.value,
        show: f.show,
      })),
    },
  };
  const made = await buildEnvelope(parseEnvelopeDefinition(definition), {
    accountId: batch.accountId,
    userId: batch.senderUserId,
    now: services.clock.now(),
    blobs: services.blobs,
    templates: services.templates,
    work: services.documentWork,
  });
  // A copy's access code was hashed when its list was stored; the role gets that hash.
  for (const wanted of copy.recipients) {
    if (wanted.accessCodeHash === undefined) continue;
    const r = made.recipients.find((x) => (x.roleName ?? '').toLowerCase() === (wanted.roleName ?? '').toLowerCase());
    if (r) r.accessCodeHash = wanted.accessCodeHash;
  }
  return made;
}
