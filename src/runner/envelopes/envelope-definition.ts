import type {
  ResolvedDocument,
  ResolvedEnvelope,
  ResolvedEventNotification,
  ResolvedNotification,
  ResolvedRecipient,
  ResolvedTab,
} from '../../jobs/model.js';
import { tabKind } from '../../envelope/tab-kinds.js';
import {
  recipientsObject,
  tabsObject,
  type CompositeTemplate,
  type DocumentDefinition,
  type EnvelopeDefinition,
  type EventNotification,
  type Notification,
  type TemplateRole,
  type TextCustomField,
  type WireRecipient,
  type TabAnchor,
  type TabPosition,
  type WireTab,
} from '../../envelope/wire.js';
import { digestFieldName, identityFieldName, identityOf, jobFieldName, transactionIdOf } from '../identity.js';
import { wireDocGenFields } from '../../jobs/docgen-form-fields.js';
import { validatedBase64, type ValidatedDocuments } from './validated-documents.js';

/**
 * Builds the wire envelopeDefinition (service-api.md 4.5, Swagger
 * `#/definitions/envelopeDefinition`) of a resolved envelope: documents
 * base64-encoded, each recipient under its kind's collection with its
 * message as `emailNotification` and its tabs under their kinds'
 * collections, plus signrun's identity and digest custom fields and the
 * transactionId. `documents`: the run's documents read once per file (else each is read here).
 */
export async function envelopeDefinitionOf(
  envelope: ResolvedEnvelope,
  documents?: ValidatedDocuments,
): Promise<EnvelopeDefinition> {
  const textCustomFields: TextCustomField[] = [
    ...(envelope.customFields ?? []).map((f) => ({ name: f.name, value: f.value, show: 'true' })),
    { name: identityFieldName, value: identityOf(envelope), show: 'false' },
    { name: jobFieldName, value: envelope.job, show: 'false' },
    { name: digestFieldName, value: envelope.digest, show: 'false' },
  ];
  const definition: EnvelopeDefinition = {
    emailSubject: envelope.emailSubject,
    // A voided envelope is never created (the runner stops before); a draft or a sent one is.
    status: envelope.status === 'created' ? 'created' : 'sent',
    customFields: { textCustomFields },
    transactionId: transactionIdOf(envelope),
  };
  if (envelope.emailBlurb !== undefined) definition.emailBlurb = envelope.emailBlurb;
  if (envelope.brandId !== undefined) definition.brandId = envelope.brandId;
  if (envelope.eventNotification) definition.eventNotification = eventNotificationWire(envelope.eventNotification);
  if (envelope.notification) definition.notification = notificationWire(envelope.notification);

  if (envelope.kind === 'template') {
    definition.templateId = envelope.templateId ?? '';
    definition.templateRoles = envelope.templateRoles.map((role) => {
      const wire: TemplateRole = { roleName: role.roleName ?? '', name: role.name, email: role.email };
      if (role.clientUserId !== undefined) wire.clientUserId = role.clientUserId;
      if (role.routingOrder !== undefined) wire.routingOrder = role.routingOrder;
      // A role's tabs fill the template's tabs of the same label: the service knows whose they are.
      if (role.tabs.length > 0) wire.tabs = tabsObject(role.tabs.map((t) => ({ kind: t.kind, tab: wireTabOf(t) })));
      return wire;
    });
    return definition;
  }

  if (envelope.kind === 'composite') {
    definition.compositeTemplates = await compositeTemplatesOf(envelope, documents);
    return definition;
  }

  definition.documents = await documentDefinitionsOf(envelope.documents, documents);
  definition.recipients = recipientsObject(
    envelope.recipients.map((r) => ({ kind: r.kind, recipient: wireRecipientOf(r, r.recipientId ?? '') })),
  );
  return definition;
}

/**
 * DocuSign's compositeTemplates of an envelope of several templates, so
 * that nobody writes that structure by hand: one composite per template
 * (its stored template, overlaid by an inline template whose recipients are
 * the templateRoles entries that fill its roles, with their tabs that fill
 * its tabs by label), then one inline composite of the added documents, with
 * the added recipients and the role fillers' tabs placed on those
 * documents. A person is one recipientId in every composite: the added
 * recipients keep theirs, the role fillers are numbered after them.
 */
async function compositeTemplatesOf(
  envelope: ResolvedEnvelope,
  validated: ValidatedDocuments | undefined,
): Promise<CompositeTemplate[]> {
  const taken = envelope.recipients.map((r) => Number(r.recipientId)).filter(Number.isFinite);
  const first = Math.max(0, ...taken) + 1;
  const roleId = (i: number) => String(first + i);
  const roleWire = (role: ResolvedRecipient, i: number, tabs: ResolvedTab[]): WireRecipient => ({
    roleName: role.roleName ?? '',
    ...wireRecipientOf({ ...role, tabs }, roleId(i)),
  });
  const composites: CompositeTemplate[] = (envelope.templateRefs ?? []).map((ref, c) => {
    const roles = new Set(ref.roleNames ?? []);
    const fillers = envelope.templateRoles.flatMap((role, i) =>
      role.roleName !== undefined && roles.has(role.roleName)
        ? [
            {
              kind: role.kind,
              recipient: roleWire(
                role,
                i,
                role.tabs.filter((t) => t.place === undefined),
              ),
            },
          ]
        : [],
    );
    return {
      compositeTemplateId: String(c + 1),
      serverTemplates: [{ sequence: '1', templateId: ref.templateId ?? '' }],
      inlineTemplates: [{ sequence: '2', recipients: recipientsObject(fillers) }],
    };
  });
  if (envelope.documents.length > 0) {
    const placed = envelope.templateRoles.flatMap((role, i) => {
      const tabs = role.tabs.filter((t) => t.place !== undefined);
      return tabs.length > 0 ? [{ kind: role.kind, recipient: roleWire(role, i, tabs) }] : [];
    });
    composites.push({
      compositeTemplateId: String(composites.length + 1),
      inlineTemplates: [
        {
          sequence: '1',
          documents: await documentDefinitionsOf(envelope.documents, validated),
          recipients: recipientsObject([
            ...envelope.recipients.map((r) => ({ kind: r.kind, recipient: wireRecipientOf(r, r.recipientId ?? '') })),
            ...placed,
          ]),
        },
      ],
    });
  }
  return composites;
}

/**
 * Documents on the wire (`#/definitions/document`), an envelope's or a
 * template's: each base64-encoded, only if it is the file validated. A DOCX,
 * HTML or TXT goes as it is, named by its extension: the service converts
 * it (validate read its rendition).
 */
export async function documentDefinitionsOf(
  documents: readonly ResolvedDocument[],
  validated?: ValidatedDocuments,
): Promise<DocumentDefinition[]> {
  return Promise.all(
    documents.map(async (doc) => ({
      documentId: doc.documentId,
      name: doc.name,
      fileExtension: doc.fileExtension,
      documentBase64: await (validated ? validated.base64(doc) : validatedBase64(doc)),
      // A Word template (Document Generation): marked, with its values. An envelope's draft goes without them
      // (the pipeline's draft step takes them off and its docgen step sets them through PUT …/docGenFormFields,
      // as DocuSign's example 42); a template kept as code keeps them in its definition.
      ...(doc.docGenFormFields !== undefined
        ? { isDocGenDocument: 'true', docGenFormFields: wireDocGenFields(doc.docGenFormFields) }
        : {}),
    })),
  );
}

/** A recipient of documents (or a template's role) on the wire (`#/definitions/signer` and its siblings). */
export function wireRecipientOf(r: ResolvedRecipient, recipientId: string): WireRecipient {
  // An in-person signer is named by its host and signer (DocuSign's inPersonSigner); the others by name and email.
  const wire: WireRecipient = r.host
    ? { recipientId, hostName: r.host.name, hostEmail: r.host.email, signerName: r.name }
    : { recipientId, name: r.name, email: r.email };
  if (r.signerEmail !== undefined) wire.signerEmail = r.signerEmail;
  if (r.witnessFor !== undefined) wire.witnessFor = r.witnessFor;
  if (r.note !== undefined) wire.note = r.note;
  // The one place an access code leaves the process: the request to the configured service.
  if (r.accessCode !== undefined) wire.accessCode = r.accessCode.reveal();
  if (r.clientUserId !== undefined) wire.clientUserId = r.clientUserId;
  if (r.routingOrder !== undefined) wire.routingOrder = r.routingOrder;
  if (r.emailSubject !== undefined || r.emailBody !== undefined || r.supportedLanguage !== undefined) {
    wire.emailNotification = {
      ...(r.emailSubject !== undefined ? { emailSubject: r.emailSubject } : {}),
      ...(r.emailBody !== undefined ? { emailBody: r.emailBody } : {}),
      ...(r.supportedLanguage !== undefined ? { supportedLanguage: r.supportedLanguage } : {}),
    };
  }
  if (r.tabs.length > 0) wire.tabs = tabsObject(r.tabs.map((t) => ({ kind: t.kind, tab: wireTabOf(t, recipientId) })));
  return wire;
}

/**
 * A tab on the wire: its place's fields, its value, the other fields of its
 * kind, list items and radios (a radio group names only its document; each
 * radio its page and position, or its anchor), and whose it is. The preview
 * places the same wire tab the service would receive.
 */
export function wireTabOf(t: ResolvedTab, recipientId?: string): WireTab {
  const radioGroup = tabKind(t.kind).valueType === 'radio';
  const wire: WireTab = radioGroup ? { documentId: (t.place as TabPosition).documentId } : { ...t.place };
  if (t.value !== undefined) wire.value = t.value;
  if (t.fields) Object.assign(wire, t.fields);
  if (t.listItems) wire.listItems = t.listItems.map((item) => ({ ...item }));
  if (t.radios)
    wire.radios = t.radios.map((radio) => {
      // A radio is on its group's document: it has no documentId of its own.
      const { documentId: _documentId, ...place } = radio.place as Partial<TabPosition> & Partial<TabAnchor>;
      return { ...place, value: radio.value, ...radio.fields };
    });
  if (recipientId !== undefined) wire.recipientId = recipientId;
  return wire;
}

/** API calls a run makes for an envelope, when every embedded signer is in turn: the figure that decides throughput. */
export function expectedApiCalls(envelope: ResolvedEnvelope, templateDocuments = 1): number {
  const embedded = [...envelope.templateRoles, ...envelope.recipients].filter(
    (r) => r.clientUserId !== undefined,
  ).length;
  const documents = envelope.kind === 'documents' ? envelope.documents.length : templateDocuments;
  // create + list recipients + views + list documents + each document + certificate
  return 1 + 1 + embedded + 1 + documents + 1;
}

/** DocuSign's `notification` on the wire: every value a string (Swagger #/definitions/notification). */
function notificationWire(n: ResolvedNotification): Notification {
  const wire: Notification = { useAccountDefaults: 'false' };
  if (n.reminders) {
    wire.reminders = {
      reminderEnabled: String(n.reminders.reminderEnabled),
      reminderDelay: String(n.reminders.reminderDelay),
      reminderFrequency: String(n.reminders.reminderFrequency),
    };
  }
  if (n.expirations) {
    wire.expirations = {
      expireEnabled: String(n.expirations.expireEnabled),
      expireAfter: String(n.expirations.expireAfter),
      expireWarn: String(n.expirations.expireWarn),
    };
  }
  return wire;
}

/** The job's webhook as DocuSign's eventNotification: its flags as the strings DocuSign's definition has. */
function eventNotificationWire(given: ResolvedEventNotification): EventNotification {
  const { requireAcknowledgment, includeHMAC, ...rest } = given;
  return {
    ...rest,
    ...(requireAcknowledgment !== undefined
      ? { requireAcknowledgment: String(requireAcknowledgment) as 'true' | 'false' }
      : {}),
    ...(includeHMAC !== undefined ? { includeHMAC: String(includeHMAC) as 'true' | 'false' } : {}),
  };
}
