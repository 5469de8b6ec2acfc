import { fieldLengthProblem, type FieldLimitName } from '../envelope/field-limits.js';
import type { NodePath } from './job-yaml.js';
import type { ResolvedEnvelope } from './model.js';

/**
 * An envelope's text fields that DocuSign limits in length
 * (src/envelope/field-limits.ts) and are too long, each with its message and
 * where the job file writes it, so that it is reported at its line (or at
 * the CSV cell it came from). Where a field is written is made only for a
 * field too long: every row of a campaign is checked, and almost none is
 * (issue 37: the paths of the fields that were fine were most of the cost).
 */
export function fieldLimitProblems(envelope: Omit<ResolvedEnvelope, 'digest'>): Array<[message: string, at: NodePath]> {
  const problems: Array<[string, NodePath]> = [];
  const check = (limit: FieldLimitName, value: string | undefined, at: () => NodePath): void => {
    const problem = fieldLengthProblem(limit, value);
    if (problem) problems.push([problem, at()]);
  };
  check('emailSubject', envelope.emailSubject, () => ['emailSubject']);
  check('emailBlurb', envelope.emailBlurb, () => ['emailBlurb']);
  for (const people of [envelope.recipients, envelope.templateRoles]) {
    for (const person of people) {
      const at = person.written;
      // An in-person signer's name is the signer's (signerName) and its email the host's (hostEmail).
      check('recipientName', person.name, () => [...at, person.host ? 'signerName' : 'name']);
      check('recipientEmail', person.email, () => [...at, person.host ? 'hostEmail' : 'email']);
      if (person.host) check('recipientName', person.host.name, () => [...at, 'hostName']);
      if (person.signerEmail !== undefined) check('recipientEmail', person.signerEmail, () => [...at, 'signerEmail']);
      check('recipientNote', person.note, () => [...at, 'note']);
    }
  }
  envelope.documents.forEach((d, i) => check('documentName', d.name, () => ['documents', i, 'name']));
  envelope.customFields?.forEach((f, i) => check('customFieldValue', f.value, () => ['customFields', i, 'value']));
  return problems;
}
