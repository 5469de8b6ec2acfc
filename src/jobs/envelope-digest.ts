import { createHash } from 'node:crypto';
import type { ResolvedEnvelope } from './model.js';

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
    envelope.documents.map((d) => [d.documentId, d.name, d.sha256]),
    envelope.recipients.map((r) => [
      r.recipientId,
      r.name,
      r.email,
      r.clientUserId ?? null,
      r.routingOrder ?? null,
      r.supportedLanguage ?? null,
      r.emailSubject ?? null,
      r.emailBody ?? null,
      r.signHereTabs.map((t) => [t.documentId, t.pageNumber, t.xPosition, t.yPosition]),
    ]),
    envelope.templateId ?? null,
    envelope.templateRoles.map((r) => [r.roleName, r.name, r.email, r.clientUserId ?? null, r.routingOrder ?? null]),
    // Appended only when set, so the digests of envelopes sent before `notification` existed stay the same.
    ...(envelope.notification ? [['notification', envelope.notification]] : []),
  ];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}
