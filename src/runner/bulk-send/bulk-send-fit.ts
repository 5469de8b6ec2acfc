import type { ResolvedEnvelope, ResolvedRecipient, ResolvedTab } from '../../jobs/model.js';
import type { PreflightProblem } from '../templates/template-check.js';

/**
 * Which envelopes go through Bulk Send, and whether they can.
 *
 * DocuSign's Bulk Send makes every copy from one model (a draft envelope
 * here) and lets each copy change only what a bulk send list carries
 * (`#/definitions/bulkSendingCopy`): its recipients' name, email,
 * clientUserId, access code and host (`bulkSendingCopyRecipient`), the
 * values of labelled tabs (`bulkSendingCopyTab`: by `tabLabel`), the values
 * of custom fields the model has, and the subject and blurb. Rows that
 * differ in anything else — another document, another recipient, a tab in
 * another place, a value of a tab without a label — cannot be copies of one
 * model: the run refuses them before any call, at the envelope's line.
 */

/** The envelopes of one forEach entry (or one envelope) that go through Bulk Send together, rows in order. */
export interface BulkSendGroup {
  job: string;
  /** Where the envelope is declared (every row shares it). */
  source: ResolvedEnvelope['source'];
  rows: ResolvedEnvelope[];
}

/** Whether an envelope goes through Bulk Send: `bulkSend: true` in its job file, or every forEach envelope with `run --bulk-send`. */
export function goesInBulk(envelope: ResolvedEnvelope, all: boolean): boolean {
  return envelope.bulkSend === true || (all && envelope.row !== undefined);
}

/** The envelopes that go through Bulk Send, grouped by the entry that declares them, in job-file order. */
export function bulkSendGroups(envelopes: Iterable<ResolvedEnvelope>, all: boolean): BulkSendGroup[] {
  const groups = new Map<string, BulkSendGroup>();
  for (const envelope of envelopes) {
    if (!goesInBulk(envelope, all)) continue;
    const { file, line, column } = envelope.source;
    const id = `${envelope.job}\0${file}:${line}:${column}`;
    let group = groups.get(id);
    if (!group) {
      group = { job: envelope.job, source: envelope.source, rows: [] };
      groups.set(id, group);
    }
    group.rows.push(envelope);
  }
  return [...groups.values()];
}

/** What must be the same in every copy of one model: everything but what a bulk send list may change per copy. */
function modelShape(envelope: ResolvedEnvelope): Record<string, unknown> {
  const tab = (t: ResolvedTab) => ({
    kind: t.kind,
    place: t.place ?? null,
    fields: t.fields ?? null,
    listItems: t.listItems ?? null,
    radios: t.radios ?? null,
    // A labelled tab's value is the copy's (bulkSendingCopyTab); an unlabelled one's is the model's.
    value: t.fields?.['tabLabel'] !== undefined ? '(per copy)' : (t.value ?? null),
  });
  const person = (r: ResolvedRecipient) => ({
    kind: r.kind,
    recipientId: r.recipientId ?? null,
    roleName: r.roleName ?? null,
    routingOrder: r.routingOrder ?? null,
    embedded: r.clientUserId !== undefined,
    accessCode: r.accessCode !== undefined,
    host: r.host !== undefined,
    signerEmail: r.signerEmail ?? null,
    witnessFor: r.witnessFor ?? null,
    note: r.note ?? null,
    supportedLanguage: r.supportedLanguage ?? null,
    emailSubject: r.emailSubject ?? null,
    emailBody: r.emailBody ?? null,
    tabs: r.tabs.map(tab),
  });
  return {
    kind: envelope.kind,
    templateId: envelope.templateId ?? envelope.templateKey ?? null,
    documents: envelope.documents.map((d) => ({ documentId: d.documentId, name: d.name, sha256: d.sha256 })),
    recipients: envelope.recipients.map(person),
    templateRoles: envelope.templateRoles.map(person),
    customFields: (envelope.customFields ?? []).map((f) => f.name),
    returnUrl: envelope.returnUrl ?? null,
    eventNotification: envelope.eventNotification?.url ?? null,
    notification: envelope.notification ?? null,
    // The brand is the model's: every copy shows it.
    brandId: envelope.brandId ?? null,
  };
}

/** The first place (a path like `recipients[1].tabs[0].place`) where two shapes differ; undefined when equal. */
function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  if (a === b) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path} (${a.length} against ${b.length})`;
    for (let i = 0; i < a.length; i++) {
      const found = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const found = firstDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        path ? `${path}.${k}` : k,
      );
      if (found) return found;
    }
    return undefined;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? undefined : path;
}

/**
 * Why groups cannot go through Bulk Send, one problem per group (at the
 * envelope's line, code SR_BULK_SEND_UNFIT): an envelope of several
 * templates (`templates:`), or rows that differ in something a copy cannot
 * change (named by the first such field, with the two rows).
 */
export function bulkSendProblems(groups: readonly BulkSendGroup[]): PreflightProblem[] {
  const problems: PreflightProblem[] = [];
  for (const group of groups) {
    const first = group.rows[0];
    if (!first) continue;
    const name = first.row !== undefined ? `the forEach envelope of job ${group.job}` : `envelope ${first.key}`;
    if (first.kind === 'composite') {
      problems.push({
        code: 'SR_BULK_SEND_UNFIT',
        message: `${name} uses several templates (templates:), which Bulk Send cannot copy: it copies one draft envelope or one template; send it without bulkSend`,
        source: group.source,
      });
      continue;
    }
    const shape = modelShape(first);
    for (const other of group.rows.slice(1)) {
      const where = firstDifference(shape, modelShape(other), '');
      if (where === undefined) continue;
      problems.push({
        code: 'SR_BULK_SEND_UNFIT',
        message: `${name} cannot go through Bulk Send: rows ${first.row ?? 1} and ${other.row ?? '?'} differ in ${where}, which every copy of one Bulk Send model shares (a copy changes only recipients' names, emails, clientUserIds and access codes, labelled tabs' values, custom field values, emailSubject and emailBlurb); ${/tabs\[\d+\]\.value$/.test(where) ? "give the tab a tabLabel (a labelled tab takes each copy's value), or " : ''}send these rows without bulkSend`,
        source: group.source,
      });
      break;
    }
  }
  return problems;
}
