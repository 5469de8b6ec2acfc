import { formatBytes } from './source-text.js';
import { confinedPath, type ConfinedPath } from './confined-path.js';
import { envelopeDigest } from './envelope-digest.js';
import { envelopeRows } from './envelope-rows.js';
import { checkEnvelopeStructure } from './envelope-structure.js';
import { expandEnvelope, type ExpandedEnvelope } from './expand-envelope.js';
import type { JobContext } from './job-context.js';
import type { NodePath } from './job-yaml.js';
import { limits } from './limits.js';
import { isPositioned, type ResolvedEnvelope } from './model.js';
import type { PdfFactsResult } from './pdf-facts.js';
import type { RawJobFile } from './raw-job.js';
import { fieldName } from './schema-check.js';
import { KEY, emailProblem, httpUrlProblem, languageProblem, reservedCustomFieldProblem } from './value-rules.js';
import { RowErrorGroups } from './row-error-groups.js';

type DocumentCheck = { confined: ConfinedPath; facts?: PdfFactsResult };

/**
 * Expands and checks every envelope of a job file. Envelopes with errors are
 * reported (in ctx.sink) and left out; the caller decides from the sink.
 */
export async function resolveEnvelopes(
  job: RawJobFile,
  ctx: JobContext,
  folderReal: string,
): Promise<ResolvedEnvelope[]> {
  const defaults = job.defaults ?? {};
  const expanded: ExpandedEnvelope[] = [];
  const keys = new Set<string>();
  const groups = new RowErrorGroups();
  rowErrors.set(ctx, groups);
  for (const [index, raw] of (job.envelopes ?? []).entries()) {
    if (!checkEnvelopeStructure(raw, index, defaults, ctx)) continue;
    const rows = await envelopeRows(raw, index, ctx, folderReal);
    if (!rows) continue;
    groups.setRows(index, rows.length);
    for (const row of rows) {
      const item = expandEnvelope(raw, index, defaults, row, job.job, ctx);
      checkValues(item, ctx, keys, row?.number);
      expanded.push(item);
    }
  }

  // Documents: each distinct path is checked and read once; many distinct
  // files (one PDF per row) are read on two threads.
  const results = new Map<string, DocumentCheck>();
  const folders = new Map<string, string | null>();
  for (const { envelope } of expanded) {
    for (const document of envelope.documents) {
      if (!results.has(document.path))
        results.set(document.path, { confined: confinedPath(ctx.folder, folderReal, document.path, folders) });
    }
  }
  const readable = [...results.values()].flatMap((r) =>
    r.confined.ok && r.confined.size <= limits.documentBytes ? [r] : [],
  );
  await ctx.pdfFacts.prefetch(readable.map((r) => (r.confined as { real: string }).real));
  for (const check of readable) check.facts = await ctx.pdfFacts((check.confined as { real: string }).real);

  const resolved: ResolvedEnvelope[] = [];
  for (const item of expanded) {
    checkDocuments(item, results, ctx);
    // Added in place, not `{ ...envelope, digest }`: V8 gives every such copy a hidden class of its own
    // (~380 bytes per envelope, a quarter of the model at 10,000 rows).
    if (!failed.has(item)) resolved.push(Object.assign(item.envelope, { digest: envelopeDigest(item.envelope) }));
  }
  groups.flush(ctx);
  rowErrors.delete(ctx);
  return resolved;
}

/** The row errors of the job file being resolved. */
const rowErrors = new WeakMap<JobContext, RowErrorGroups>();

/** Envelopes with an error. Not the sink's count: it drops repeats of the same diagnostic, one per row. */
const failed = new WeakSet<ExpandedEnvelope>();

function report(
  ctx: JobContext,
  item: ExpandedEnvelope,
  row: number | undefined,
  code: Parameters<JobContext['sink']['add']>[0],
  message: string,
  path: NodePath,
): void {
  failed.add(item);
  const place = item.placeOf(path);
  const field = fieldName(['envelopes', item.index, ...path]);
  // A CSV line says nothing of the job file: name the row and the field it fills.
  const fromRow = row !== undefined && place.file !== ctx.shown;
  const groups = rowErrors.get(ctx);
  // Held: a mistake every row shares is reported once, at the YAML line (row-error-groups.ts).
  if (fromRow && groups)
    groups.hold(item.index, code, path, { row, message: `row ${row}, ${field}: ${message}`, place, field });
  else ctx.sink.add(code, fromRow ? `row ${row}, ${field}: ${message}` : message, place, { field });
}

function checkValues(item: ExpandedEnvelope, ctx: JobContext, keys: Set<string>, row: number | undefined): void {
  const { envelope } = item;
  const say = (code: Parameters<JobContext['sink']['add']>[0], message: string, path: NodePath) =>
    report(ctx, item, row, code, message, path);
  if (!KEY.test(envelope.key) || envelope.key.length > 200) {
    say(
      'SR_SCHEMA_VALUE',
      `envelope key ${JSON.stringify(envelope.key)} must be letters, digits, ".", "_", "@", "+" or "-", starting with a letter or digit`,
      ['key'],
    );
  } else if (keys.has(envelope.key)) {
    say('SR_DUPLICATE_ENVELOPE_KEY', `envelope key ${envelope.key} is used twice in job ${envelope.job}`, ['key']);
  }
  keys.add(envelope.key);
  if (envelope.emailSubject.trim() === '')
    say('SR_EMAIL_SUBJECT_MISSING', `envelope ${envelope.key} has an empty emailSubject`, ['emailSubject']);
  if (envelope.status === 'voided' && envelope.voidedReason === undefined)
    say(
      'SR_VOIDED_REASON_MISSING',
      `envelope ${envelope.key} has status voided but no voidedReason: the service requires one, and shows it to the recipients`,
      ['status'],
    );
  if (envelope.returnUrl !== undefined) {
    const problem = httpUrlProblem(envelope.returnUrl);
    if (problem) say('SR_URL_INVALID', `returnUrl ${problem}`, ['returnUrl']);
  }
  if (envelope.eventNotification) {
    const problem = httpUrlProblem(envelope.eventNotification.url);
    if (problem) say('SR_URL_INVALID', `eventNotification.url ${problem}`, ['eventNotification', 'url']);
  }
  envelope.customFields?.forEach((f, i) => {
    const problem = reservedCustomFieldProblem(f.name);
    if (problem) say('SR_CUSTOM_FIELD_RESERVED', problem, ['customFields', i, 'name']);
  });
  const clientUserIds = new Set<string>();
  const people = [
    ...envelope.recipients.map((r, i) => ({
      list: 'recipients',
      i,
      email: r.email,
      clientUserId: r.clientUserId,
      language: r.supportedLanguage,
    })),
    ...envelope.templateRoles.map((r, i) => ({
      list: 'templateRoles',
      i,
      email: r.email,
      clientUserId: r.clientUserId,
      language: undefined,
    })),
  ];
  for (const person of people) {
    const problem = emailProblem(person.email);
    if (problem) say('SR_EMAIL_INVALID', problem, [person.list, person.i, 'email']);
    if (person.clientUserId !== undefined) {
      if (person.clientUserId.trim() === '')
        say('SR_SCHEMA_VALUE', 'clientUserId must not be empty', [person.list, person.i, 'clientUserId']);
      else if (clientUserIds.has(person.clientUserId))
        say(
          'SR_DUPLICATE_CLIENT_USER_ID',
          `clientUserId ${person.clientUserId} is used by two recipients of envelope ${envelope.key}`,
          [person.list, person.i, 'clientUserId'],
        );
      clientUserIds.add(person.clientUserId);
    }
    if (person.language !== undefined) {
      const languageIssue = languageProblem(person.language);
      if (languageIssue) say('SR_LANGUAGE_INVALID', languageIssue, [person.list, person.i, 'supportedLanguage']);
    }
  }
}

function checkDocuments(item: ExpandedEnvelope, results: Map<string, DocumentCheck>, ctx: JobContext): void {
  const { envelope } = item;
  const say = (code: Parameters<JobContext['sink']['add']>[0], message: string, path: NodePath) =>
    report(ctx, item, envelope.row, code, message, path);
  const pagesById = new Map<string, Array<{ width: number; height: number }>>();
  const pathById = new Map<string, string>();
  envelope.documents.forEach((document, d) => {
    const result = results.get(document.path)!;
    const path = ['documents', d, 'file'];
    if (!result.confined.ok || result.confined.size > limits.documentBytes || !result.facts?.ok) {
      reportDocument(result, ctx.show(document.path), path, say);
      return;
    }
    const facts = result.facts;
    document.size = facts.facts.size;
    document.sha256 = facts.facts.sha256;
    document.pageCount = facts.facts.pages.length;
    pagesById.set(document.documentId, facts.facts.pages);
    // Shown only in an error message: path.relative for each of 10,000 rows is not free.
    pathById.set(document.documentId, document.path);
  });
  envelope.recipients.forEach((recipient, r) => {
    for (const tab of recipient.tabs) {
      // Anchored tabs are checked against the documents' text, not a page number.
      if (!isPositioned(tab.place)) continue;
      const place = tab.place;
      const pages = pagesById.get(place.documentId);
      if (!pages) continue;
      const path = ['recipients', r, ...tab.written];
      const page = pages[Number(place.pageNumber) - 1];
      if (!page) {
        say(
          'SR_TAB_PAGE_OUT_OF_RANGE',
          `tab on page ${place.pageNumber} of documentId ${place.documentId} (${ctx.show(pathById.get(place.documentId)!)}), which has ${pages.length} page${pages.length === 1 ? '' : 's'}`,
          [...path, 'pageNumber'],
        );
        continue;
      }
      const x = Number(place.xPosition);
      const y = Number(place.yPosition);
      const size = () =>
        `page ${place.pageNumber} of ${ctx.show(pathById.get(place.documentId)!)} (${Math.round(page.width)} × ${Math.round(page.height)} points)`;
      if (x >= page.width)
        say('SR_TAB_POSITION_OUTSIDE_PAGE', `xPosition ${x} is outside ${size()}`, [...path, 'xPosition']);
      if (y >= page.height)
        say('SR_TAB_POSITION_OUTSIDE_PAGE', `yPosition ${y} is outside ${size()}`, [...path, 'yPosition']);
    }
  });
}

/** The diagnostic for a document that cannot be used (missing, outside, too large, not a PDF). */
function reportDocument(
  result: DocumentCheck,
  shown: string,
  path: NodePath,
  say: (code: Parameters<JobContext['sink']['add']>[0], message: string, path: NodePath) => void,
): void {
  if (!result.confined.ok) {
    const problem = result.confined.problem;
    if (problem === 'missing') say('SR_DOC_NOT_FOUND', `document ${shown} does not exist`, path);
    else if (problem === 'not-a-file') say('SR_DOC_NOT_FOUND', `document ${shown} is not a file`, path);
    else if (problem === 'outside')
      say('SR_DOC_OUTSIDE_JOB_FOLDER', `document ${shown} is outside the job file's folder`, path);
    else
      say(
        'SR_DOC_OUTSIDE_JOB_FOLDER',
        `document ${shown} is a symbolic link leading outside the job file's folder`,
        path,
      );
  } else if (result.confined.size > limits.documentBytes) {
    say(
      'SR_DOC_TOO_LARGE',
      `document ${shown} is ${formatBytes(result.confined.size)}; the service accepts at most ${formatBytes(limits.documentBytes)}`,
      path,
    );
  } else if (result.facts && !result.facts.ok) {
    if (result.facts.code === 'SR_DOC_INFLATE_LIMIT') say(result.facts.code, `${shown}: ${result.facts.reason}`, path);
    else say('SR_DOC_NOT_PDF', `${shown} is not a PDF: ${result.facts.reason}`, path);
  }
}
