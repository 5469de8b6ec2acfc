import type { BulkSendingCopy, BulkSendingCopyRecipient } from '../../envelope/bulk-send-copy.js';
import type { EnvelopeDefinition } from '../../envelope/wire.js';
import type { ResolvedEnvelope, ResolvedRecipient } from '../../jobs/model.js';
import { envelopeDefinitionOf } from '../envelopes/envelope-definition.js';
import { bulkModelIdentityOf, digestFieldName, identityFieldName, identityOf } from '../identity.js';

/**
 * The model of a Bulk Send batch: the first row's envelope as a draft
 * (`status: created`), with no transactionId (it names one key, and the
 * model is every key's), and signrun's identity and digest fields holding
 * the model's own identity (`<job>#bulk-model`): DocuSign takes a copy's
 * custom fields only when the model has them (bulkSendingCopy.customFields),
 * and each copy writes its own `<job>/<key>` and digest there.
 */
export async function bulkModelDefinitionOf(first: ResolvedEnvelope): Promise<EnvelopeDefinition> {
  const definition = await envelopeDefinitionOf({ ...first, status: 'created' });
  delete definition.transactionId;
  const model = bulkModelIdentityOf(first.job);
  definition.customFields = {
    textCustomFields: (definition.customFields?.textCustomFields ?? []).map((f) =>
      f.name === identityFieldName ? { ...f, value: model } : f.name === digestFieldName ? { ...f, value: '' } : f,
    ),
  };
  return definition;
}

/**
 * One row as a copy of the model (`#/definitions/bulkSendingCopy`): its
 * recipients (by recipientId, or by roleName for a template's roles) with
 * their names, emails, clientUserIds, access codes and hosts, the values of
 * their labelled tabs, its custom field values — its identity and digest
 * above all, which make the copy this key's envelope — subject and blurb.
 */
export function bulkCopyOf(envelope: ResolvedEnvelope): BulkSendingCopy {
  const recipients =
    envelope.kind === 'template'
      ? envelope.templateRoles.map((r) => copyRecipientOf(r, { roleName: r.roleName ?? '' }))
      : envelope.recipients.map((r) => copyRecipientOf(r, { recipientId: r.recipientId ?? '' }));
  const copy: BulkSendingCopy = {
    emailSubject: envelope.emailSubject,
    recipients,
    customFields: [
      ...(envelope.customFields ?? []).map((f) => ({ name: f.name, value: f.value })),
      { name: identityFieldName, value: identityOf(envelope) },
      { name: digestFieldName, value: envelope.digest },
    ],
  };
  if (envelope.emailBlurb !== undefined) copy.emailBlurb = envelope.emailBlurb;
  return copy;
}

function copyRecipientOf(
  r: ResolvedRecipient,
  by: { recipientId: string } | { roleName: string },
): BulkSendingCopyRecipient {
  // An in-person signer is addressed through its host, as on the envelope (wireRecipientOf).
  const copy: BulkSendingCopyRecipient = r.host
    ? {
        ...by,
        name: r.host.name,
        email: r.host.email,
        hostName: r.host.name,
        hostEmail: r.host.email,
        signerName: r.name,
      }
    : { ...by, name: r.name, email: r.email };
  if (r.clientUserId !== undefined) copy.clientUserId = r.clientUserId;
  // The one place a copy's access code leaves the process: the list sent to the configured service.
  if (r.accessCode !== undefined) copy.accessCode = r.accessCode.reveal();
  const tabs = r.tabs.flatMap((t) => {
    const tabLabel = t.fields?.['tabLabel'];
    return tabLabel !== undefined && t.value !== undefined ? [{ tabLabel, initialValue: t.value }] : [];
  });
  if (tabs.length > 0) copy.tabs = tabs;
  return copy;
}
