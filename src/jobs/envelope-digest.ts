import { hash } from 'node:crypto';
import { shorthandRecipientKind, shorthandTabKind } from '../envelope/index.js';
import { wireDocGenFields } from './docgen-form-fields.js';
import { isPositioned, type ResolvedEnvelope, type ResolvedRecipient, type ResolvedTab } from './model.js';

/**
 * sha256 of what the envelope would send: content fields in a fixed order,
 * documents by name and sha256 (not by path: moving a file changes nothing).
 * Where it came from (source, row) is left out on purpose.
 */
export function envelopeDigest(envelope: Omit<ResolvedEnvelope, 'digest'>): string {
  const canonical = [
    envelope.job,
    envelope.key,
    envelope.kind,
    envelope.emailSubject,
    envelope.emailBlurb ?? null,
    // Voiding is not a change of content (issue 12): a voided envelope keeps the digest it was sent with.
    envelope.status === 'voided' ? 'sent' : envelope.status,
    envelope.returnUrl ?? null,
    envelope.eventNotification?.url ?? null,
    (envelope.customFields ?? []).map((f) => [f.name, f.value]),
    // A Word template's merge values are content (what the letter says); appended only when given, so other digests stay.
    envelope.documents.map((d) => [
      d.documentId,
      d.name,
      d.sha256,
      ...(d.docGenFormFields !== undefined ? [['docGenFormFields', wireDocGenFields(d.docGenFormFields)]] : []),
    ]),
    envelope.recipients.map((r) => [
      r.recipientId ?? null,
      r.name,
      r.email,
      r.clientUserId ?? null,
      r.routingOrder ?? null,
      r.supportedLanguage ?? null,
      r.emailSubject ?? null,
      r.emailBody ?? null,
      tabsCanonical(r.tabs),
      ...kindCanonical(r),
    ]),
    envelope.templateId ?? null,
    envelope.templateRoles.map((r) => [
      r.roleName ?? null,
      r.name,
      r.email,
      r.clientUserId ?? null,
      r.routingOrder ?? null,
      // A role's message, language and tabs came later: appended only when given, as `notification` is.
      ...(r.supportedLanguage !== undefined || r.emailSubject !== undefined || r.emailBody !== undefined
        ? [['message', r.supportedLanguage ?? null, r.emailSubject ?? null, r.emailBody ?? null]]
        : []),
      ...(r.tabs.length > 0 ? [tabsCanonical(r.tabs)] : []),
      ...kindCanonical(r),
    ]),
    // Appended only when set, so the digests of envelopes sent before `notification` existed stay the same.
    ...(envelope.notification ? [['notification', envelope.notification]] : []),
    // The brand is content (what the signer sees); appended only when set, as `notification` is.
    ...(envelope.brandId !== undefined ? [['brandId', envelope.brandId.toLowerCase()]] : []),
    // A brand kept as code, by name (its id differs from account to account: not part of the content).
    ...(envelope.brandName !== undefined ? [['brand', envelope.brandName.toLowerCase()]] : []),
    // A template of the job file, by key (its id differs from account to account: not part of the content).
    ...(envelope.templateKey !== undefined ? [['template', envelope.templateKey]] : []),
    ...(envelope.templateRefs !== undefined
      ? [['templates', envelope.templateRefs.map((r) => r.key ?? r.templateId ?? null)]]
      : []),
  ];
  // One-shot (crypto.hash), no Hash object an envelope: 2.5 against 3.7 µs a ~1.7 KB canonical form (issue 37).
  return hash('sha256', JSON.stringify(canonical), 'hex');
}

/**
 * A recipient's tabs. Sign-here tabs placed by position with no value (all
 * a job file could say before the catalogue) keep their first form, a list
 * of positions, so the digests of envelopes already sent stay the same;
 * any other tab makes it a list of [kind, place, value], which no earlier
 * digest can equal, followed by the tab's other fields, list items and
 * radios when it has any (appended only then, so a digest of a tab without
 * them stays what it was).
 */
function tabsCanonical(tabs: ResolvedTab[]): unknown {
  const firstForm = tabs.every(
    (t) =>
      t.kind === shorthandTabKind &&
      isPositioned(t.place) &&
      t.value === undefined &&
      t.fields === undefined &&
      t.listItems === undefined &&
      t.radios === undefined,
  );
  if (firstForm) {
    return tabs.map((t) => {
      const p = t.place as Extract<ResolvedTab['place'], { xPosition: string }>;
      return [p.documentId, p.pageNumber, p.xPosition, p.yPosition];
    });
  }
  return {
    tabs: tabs.map((t) => [
      t.kind,
      t.place ?? null,
      t.value ?? null,
      ...(t.fields !== undefined || t.listItems !== undefined || t.radios !== undefined
        ? [{ fields: t.fields ?? null, listItems: t.listItems ?? null, radios: t.radios ?? null }]
        : []),
    ]),
  };
}

/**
 * A recipient of another kind than the first one signrun had (signers) says
 * so, and the fields that came with the kinds (a note, a host, whom a witness
 * signs for, an access code) are appended only when given: a signer without
 * them adds nothing, so earlier digests stay. An access code counts by its
 * presence, not its value: the digest is written in outputs, and a secret
 * must not be guessable from it (changing the code is not a new contract).
 */
function kindCanonical(r: ResolvedRecipient): unknown[] {
  return [
    ...(r.kind === shorthandRecipientKind ? [] : [['kind', r.kind]]),
    ...(r.note !== undefined ? [['note', r.note]] : []),
    ...(r.host !== undefined ? [['host', r.host.name, r.host.email]] : []),
    ...(r.signerEmail !== undefined ? [['signerEmail', r.signerEmail]] : []),
    ...(r.witnessFor !== undefined ? [['witnessFor', r.witnessFor]] : []),
    ...(r.accessCode !== undefined ? [['accessCode']] : []),
  ];
}
