import type { FieldLimitName } from '../envelope/field-limits.js';
import type { NodePath } from './job-yaml.js';
import type { ResolvedEnvelope } from './model.js';

/**
 * An envelope's text fields that DocuSign limits in length
 * (src/envelope/field-limits.ts), each with where the job file writes it, so
 * that a value too long is reported at its line (or at the CSV cell it came
 * from).
 */
export function fieldsWithLimits(
  envelope: Omit<ResolvedEnvelope, 'digest'>,
): Array<[limit: FieldLimitName, value: string | undefined, at: NodePath]> {
  const fields: Array<[FieldLimitName, string | undefined, NodePath]> = [
    ['emailSubject', envelope.emailSubject, ['emailSubject']],
    ['emailBlurb', envelope.emailBlurb, ['emailBlurb']],
  ];
  for (const person of [...envelope.recipients, ...envelope.templateRoles]) {
    const at = person.written;
    // An in-person signer's name is the signer's (signerName) and its email the host's (hostEmail).
    fields.push(['recipientName', person.name, [...at, person.host ? 'signerName' : 'name']]);
    fields.push(['recipientEmail', person.email, [...at, person.host ? 'hostEmail' : 'email']]);
    if (person.host) fields.push(['recipientName', person.host.name, [...at, 'hostName']]);
    if (person.signerEmail !== undefined) fields.push(['recipientEmail', person.signerEmail, [...at, 'signerEmail']]);
    fields.push(['recipientNote', person.note, [...at, 'note']]);
  }
  envelope.documents.forEach((d, i) => fields.push(['documentName', d.name, ['documents', i, 'name']]));
  envelope.customFields?.forEach((f, i) => fields.push(['customFieldValue', f.value, ['customFields', i, 'value']]));
  return fields;
}
