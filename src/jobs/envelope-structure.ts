import { placeOf, type JobContext } from './job-context.js';
import type { RawEnvelope, RawEnvelopeDefaults, RawPlace, RawTabs } from './raw-job.js';
import { writtenTabs } from './written-tabs.js';
import { writtenRecipients } from './written-recipients.js';
import { fieldName } from './schema-check.js';
import { mayBeWitnessed, recipientKinds } from '../envelope/index.js';
import type { ItemCollection } from './model.js';

/**
 * Checks of an envelope as written, before forEach expansion, so that a
 * mistake in a pattern is reported once and not once per row: documents or
 * template (not both, not neither), recipients present, ids unique, tabs on
 * known documents, an emailSubject, a returnUrl for embedded recipients,
 * only kinds that may be embedded embedded, a witness for someone who signs.
 * Returns false when the envelope must not be expanded.
 */
export function checkEnvelopeStructure(
  envelope: RawEnvelope,
  index: number,
  defaults: RawEnvelopeDefaults,
  ctx: JobContext,
  collection: ItemCollection = 'envelopes',
): boolean {
  const before = ctx.sink.errorCount;
  const base = [collection, index];
  const template = collection === 'templates';
  const check: StructureCheck = {
    envelope,
    template,
    name: `${template ? 'template' : 'envelope'} ${envelope.key}`,
    add: (code, message, path, at = 'value') =>
      ctx.sink.add(code, message, placeOf(ctx, [...base, ...path], at), { field: fieldName([...base, ...path]) }),
  };
  if (!checkContent(check)) return false;
  if (!template && (envelope.emailSubject ?? defaults.emailSubject) === undefined) {
    check.add('SR_EMAIL_SUBJECT_MISSING', `${check.name} has no emailSubject, and defaults has none`, ['key'], 'key');
  }
  const documentIds = (envelope.documents ?? []).map((d, i) => d.documentId ?? i + 1);
  const recipients = writtenRecipients(envelope.recipients);
  const recipientIds = recipients.map(({ recipient }, i) => recipient.recipientId ?? i + 1);
  checkUniqueIds(check, documentIds, recipients, recipientIds);
  checkRecipientRoles(check, recipients, recipientIds);
  checkTabPlaces(check, recipients);
  checkTabDocuments(check, recipients, documentIds);
  checkReturnUrl(check, recipients, envelope.returnUrl ?? defaults.returnUrl);
  return ctx.sink.errorCount === before;
}

/** One envelope (or template) as written, and how a problem with it is reported at its path. */
interface StructureCheck {
  envelope: RawEnvelope;
  /** Whether it is one of the job's templates (a template names roles, has no subject or returnUrl). */
  template: boolean;
  /** `envelope <key>` or `template <key>`, as messages name it. */
  name: string;
  add: (
    code: Parameters<JobContext['sink']['add']>[0],
    message: string,
    path: Array<string | number>,
    at?: 'value' | 'key',
  ) => void;
}

type WrittenRecipients = ReturnType<typeof writtenRecipients>;

/**
 * What the envelope is made of: documents and recipients, a template and its
 * roles, or several templates (compositeTemplates). False when it cannot be
 * expanded at all (both sides, or neither).
 */
function checkContent(check: StructureCheck): boolean {
  const { envelope, template, name, add } = check;
  const documentSide = envelope.documents !== undefined || envelope.recipients !== undefined;
  // A template's own templateId names the template itself, not content.
  const templateSide =
    !template &&
    (envelope.templateId !== undefined || envelope.template !== undefined || envelope.templateRoles !== undefined);
  if (template) {
    if (!envelope.documents) {
      add('SR_ENVELOPE_CONTENT_MISSING', `${name} has no documents`, ['key'], 'key');
      return false;
    }
    checkRoleNames(check);
  } else if (envelope.template !== undefined && envelope.templateId !== undefined) {
    add(
      'SR_DOCUMENTS_AND_TEMPLATE',
      `${name} has both template and templateId: name the template of this file by its key, or a stored one by its id`,
      ['template'],
      'key',
    );
    return false;
  } else if (envelope.templates !== undefined && !checkComposite(check)) {
    return false;
  }
  const composite = !template && envelope.templates !== undefined;
  if (documentSide && templateSide && !composite) {
    add(
      'SR_DOCUMENTS_AND_TEMPLATE',
      `${name} has both documents/recipients and templateId/templateRoles`,
      [envelope.templateId !== undefined ? 'templateId' : 'templateRoles'],
      'key',
    );
    return false;
  }
  if (!documentSide && !templateSide) {
    add('SR_ENVELOPE_CONTENT_MISSING', `${name} has neither documents nor templateId`, ['key'], 'key');
    return false;
  }
  // A template's documents (it may have no roles yet) and a composite's people are checked above.
  if (template || composite) return true;
  if (documentSide) checkDocumentSide(check);
  else checkTemplateSide(check);
  return true;
}

/** A template's roles: an envelope fills a role by its name, so no name twice. */
function checkRoleNames({ envelope, name, add }: StructureCheck): void {
  const seen = new Set<string>();
  for (const { recipient, written } of writtenRecipients(envelope.recipients)) {
    const roleName = recipient.roleName ?? '';
    if (seen.has(roleName.toLowerCase()))
      add('SR_TEMPLATE_ROLE_DUPLICATE', `${name}: role ${roleName} is named twice; envelopes fill a role by its name`, [
        ...written,
        'roleName',
      ]);
    seen.add(roleName.toLowerCase());
  }
}

/** Several templates (compositeTemplates): documents and recipients may be added to them. False: not expandable. */
function checkComposite({ envelope, name, add }: StructureCheck): boolean {
  if (envelope.template !== undefined || envelope.templateId !== undefined) {
    add(
      'SR_DOCUMENTS_AND_TEMPLATE',
      `${name} has templates and ${envelope.template !== undefined ? 'template' : 'templateId'}: list every template under templates`,
      [envelope.template !== undefined ? 'template' : 'templateId'],
      'key',
    );
    return false;
  }
  if (!envelope.templateRoles && !envelope.recipients)
    add(
      'SR_RECIPIENTS_MISSING',
      `${name} has templates but neither templateRoles nor recipients`,
      ['templates'],
      'key',
    );
  if (envelope.recipients !== undefined && !envelope.documents)
    add(
      'SR_ENVELOPE_CONTENT_MISSING',
      `${name} adds recipients to its templates but no documents for their tabs; give them templateRoles, or add documents`,
      ['recipients'],
      'key',
    );
  return true;
}

function checkDocumentSide({ envelope, name, add }: StructureCheck): void {
  if (!envelope.documents)
    add('SR_ENVELOPE_CONTENT_MISSING', `${name} has recipients but no documents`, ['recipients'], 'key');
  if (!envelope.recipients)
    add('SR_RECIPIENTS_MISSING', `${name} has documents but no recipients`, ['documents'], 'key');
}

function checkTemplateSide({ envelope, name, add }: StructureCheck): void {
  if (envelope.templateId === undefined && envelope.template === undefined)
    add(
      'SR_ENVELOPE_CONTENT_MISSING',
      `${name} has templateRoles but no templateId (or template)`,
      ['templateRoles'],
      'key',
    );
  if (!envelope.templateRoles)
    add(
      'SR_RECIPIENTS_MISSING',
      `${name} has a template but no templateRoles`,
      [envelope.template !== undefined ? 'template' : 'templateId'],
      'key',
    );
}

function checkUniqueIds(
  { envelope, name, add }: StructureCheck,
  documentIds: number[],
  recipients: WrittenRecipients,
  recipientIds: number[],
): void {
  firstDuplicate(documentIds, (i) =>
    add(
      'SR_DUPLICATE_DOCUMENT_ID',
      `${name}: documentId ${documentIds[i]} is used by two documents`,
      envelope.documents?.[i]?.documentId !== undefined ? ['documents', i, 'documentId'] : ['documents', i],
    ),
  );
  firstDuplicate(recipientIds, (i) =>
    add(
      'SR_DUPLICATE_RECIPIENT_ID',
      `${name}: recipientId ${recipientIds[i]} is used by two recipients`,
      recipients[i]!.recipient.recipientId !== undefined
        ? [...recipients[i]!.written, 'recipientId']
        : [...recipients[i]!.written],
    ),
  );
}

/** Only kinds DocuSign gives a signing address are embedded; a witness signs for someone who signs. */
function checkRecipientRoles(
  { name, add }: StructureCheck,
  recipients: WrittenRecipients,
  recipientIds: number[],
): void {
  for (const { kind, recipient, written } of recipients) {
    if (recipient.clientUserId !== undefined && !kind.mayBeEmbedded)
      add(
        'SR_RECIPIENT_NOT_EMBEDDABLE',
        `${name}: ${recipient.name ?? 'a recipient'} is in ${kind.collection}, which DocuSign gives no signing address (only ${recipientKinds
          .filter((k) => k.mayBeEmbedded)
          .map((k) => k.collection)
          .join(', ')} may be embedded): remove clientUserId`,
        [...written, 'clientUserId'],
      );
    // A witness signs for a signer or an in-person signer of the envelope; a reference to a row is checked per row.
    const target = recipient.witnessFor;
    if (target === undefined || (typeof target === 'string' && target.includes('${'))) continue;
    const witnessed = recipients.findIndex((_, i) => String(recipientIds[i]) === String(target).trim());
    const problem =
      witnessed < 0
        ? `no recipient of the envelope has recipientId ${target} (it has ${recipientIds.join(', ')})`
        : !mayBeWitnessed(recipients[witnessed]!.kind)
          ? `recipientId ${target} is in ${recipients[witnessed]!.kind.collection}: a witness signs for a signer or an in-person signer`
          : undefined;
    if (problem)
      add('SR_WITNESS_FOR_UNKNOWN', `${name}: ${recipient.name ?? 'a witness'} witnesses nobody: ${problem}`, [
        ...written,
        'witnessFor',
      ]);
  }
}

/** A tab goes somewhere: by anchor or by position (a radio group's radios each); a role's tab may instead fill the template's tab of its label. */
function checkTabPlaces(check: StructureCheck, recipients: WrittenRecipients): void {
  const { envelope, name, add } = check;
  const unplaced = (place: RawPlace) =>
    place.anchorString === undefined &&
    (place.pageNumber === undefined || place.xPosition === undefined || place.yPosition === undefined);
  const needsPlace = (person: ReadonlyArray<string | number>, tabs: RawTabs | undefined, role: boolean) =>
    writtenTabs(tabs).forEach(({ kind, tab, written }) => {
      const where = [...person, ...written];
      if (kind.valueType === 'radio')
        tab.radios?.forEach((radio, n) => {
          if (unplaced(radio))
            add(
              'SR_SCHEMA_REQUIRED',
              `${name}: a radio needs an anchorString, or a pageNumber, xPosition and yPosition`,
              [...where, 'radios', n],
            );
        });
      else if (unplaced(tab) && !(role && tab.tabLabel !== undefined && !placedInPart(tab)))
        add(
          'SR_SCHEMA_REQUIRED',
          role
            ? `${name}: a template role's ${kind.name} tab needs a tabLabel (to fill the template's tab), an anchorString, or a pageNumber, xPosition and yPosition`
            : `${name}: a ${kind.name} tab needs an anchorString, or a pageNumber, xPosition and yPosition`,
          where,
        );
    });
  for (const { recipient, written } of recipients) needsPlace(written, recipient.tabs, false);
  envelope.templateRoles?.forEach((role, r) => needsPlace(['templateRoles', r], role.tabs, true));
}

/** A tab placed by position is on a document the envelope has. */
function checkTabDocuments({ name, add }: StructureCheck, recipients: WrittenRecipients, documentIds: number[]): void {
  recipients.forEach(({ recipient, written: at }) => {
    writtenTabs(recipient.tabs).forEach(({ tab, written }, t) => {
      // An anchored tab is on every document that has its text: it names none.
      if (tab.anchorString !== undefined) return;
      const documentId = tab.documentId !== undefined ? Number(tab.documentId) : documentIds[0];
      if (documentId !== undefined && !documentIds.includes(documentId)) {
        add(
          'SR_TAB_DOCUMENT_UNKNOWN',
          `${name}: tab ${t + 1} of ${recipient.name ?? recipient.signerName ?? recipient.roleName} is on documentId ${documentId}, which the envelope does not have (it has ${documentIds.join(', ')})`,
          [...at, ...written, 'documentId'],
        );
      }
    });
  });
}

/** An embedded recipient comes back to a returnUrl. A template has none: an embedded role's envelopes give theirs. */
function checkReturnUrl(
  { envelope, template, name, add }: StructureCheck,
  recipients: WrittenRecipients,
  returnUrl: string | undefined,
): void {
  if (returnUrl !== undefined || template) return;
  const embedded = [
    ...recipients.map(({ recipient, written }) => [written, recipient.clientUserId] as const),
    ...(envelope.templateRoles ?? []).map((r, i) => [['templateRoles', i], r.clientUserId] as const),
  ].find(([, clientUserId]) => clientUserId !== undefined);
  if (embedded)
    add(
      'SR_RETURN_URL_MISSING',
      `${name} has an embedded recipient (clientUserId) but no returnUrl, and defaults has none`,
      [...embedded[0], 'clientUserId'],
      'key',
    );
}

/** A place half given: some of pageNumber, xPosition, yPosition but not all. */
function placedInPart(place: RawPlace): boolean {
  return place.pageNumber !== undefined || place.xPosition !== undefined || place.yPosition !== undefined;
}

function firstDuplicate(values: number[], report: (index: number) => void): void {
  const seen = new Set<number>();
  values.forEach((value, i) => {
    if (seen.has(value)) report(i);
    seen.add(value);
  });
}
