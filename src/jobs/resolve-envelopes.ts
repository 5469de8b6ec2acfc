import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatBytes } from './source-text.js';
import { confinedListedPath, type FolderListings, type ListedConfinedPath } from './confined-path.js';
import { envelopeDigest } from './envelope-digest.js';
import { envelopeRows, type Rows } from './envelope-rows.js';
import { checkEnvelopeStructure } from './envelope-structure.js';
import { expandEnvelope, sameForEveryRow, type ExpandedEnvelope } from './expand-envelope.js';
import type { JobContext } from './job-context.js';
import type { NodePath } from './job-yaml.js';
import { limits } from './limits.js';
import {
  type ItemCollection,
  isPositioned,
  type ResolvedDocument,
  type ResolvedEnvelope,
  type ResolvedTab,
  type TabAnchor,
} from './model.js';
import { anchorOffsetPoints, findAnchors, isAnchorUnits, type AnchorMatch } from '../pdf/find-anchors.js';
import { anchorPlacementProblem } from '../pdf/anchor-places.js';
import type { PageText } from '../pdf/page-text.js';
import { tabSize } from '../pdf/tab-box.js';
import { tabProblems } from './tab-checks.js';
import type { DocumentText } from './document-text.js';
import type { PdfFactsResult } from './pdf-facts.js';
import type { RawEnvelope, RawJobFile, RawTemplate } from './raw-job.js';
import { fieldName } from './schema-check.js';
import {
  KEY,
  emailProblem,
  httpUrlProblem,
  identityLengthProblem,
  languageProblem,
  reservedCustomFieldProblem,
} from './value-rules.js';
import { RowErrorGroups } from './row-error-groups.js';
import { SharedDocuments } from './shared-documents.js';
import { fieldLimitProblems } from './field-limit-checks.js';
import { documentDocGenProblems, type MergeFieldCache } from './docgen-form-fields.js';
import { readGeneratedText, textKeyOf } from './generated-text.js';
import { interruptionPoint, stopLoadingIfInterrupted } from './load-interrupted.js';
import { workerThreshold } from './pdf-facts-reader.js';
import { isStreamable, RowEnvelope, type RowPattern } from './row-envelope.js';

type DocumentCheck = { confined: ListedConfinedPath; facts?: PdfFactsResult };

/** Confined, and not known to be over the size limit (a listed file's size is the reader's to check). */
function isReadable(confined: ListedConfinedPath): confined is Extract<ListedConfinedPath, { ok: true }> {
  return confined.ok && (confined.size === undefined || confined.size <= limits.documentBytes);
}

/**
 * Rows expanded, then checked, at a time: what loading holds besides the
 * model does not grow with the rows. Large, because each chunk's documents
 * are read on a worker thread of their own (pdf-facts.ts): a 10,000-row
 * campaign is one chunk, 100,000 rows are seven. Tests make it small.
 * Smaller when rows are streamed (`run`: row-envelope.ts): what a chunk
 * expands is then let go once checked, and a small chunk's garbage dies
 * young instead of growing the heap that the run's peak is.
 */
export const chunkOfRows = { rows: 16_384, streamed: 256 };

/** What the chunks of one job file share: each document checked and read once, its text and anchors found once. */
interface ResolveState {
  ctx: JobContext;
  folderReal: string;
  results: Map<string, DocumentCheck>;
  /** The documents first named by the chunk being expanded, read ahead as they come. */
  fresh: DocumentCheck[];
  folders: Map<string, string | null>;
  listings: FolderListings;
  texts: Map<string, DocumentText>;
  anchors: AnchorCache;
  sharedDocuments: SharedDocuments;
  mergeFields: MergeFieldCache;
  /** Envelopes expanded so far, and in all (known once every pattern's rows are read): for interruption messages. */
  done: number;
  total: number;
  /** With `ctx.streamRows`: each forEach pattern by its index, its checked rows kept as rows (row-envelope.ts). */
  streamed: Map<number, Omit<RowPattern, 'documents'> & { documents?: ResolvedDocument[] }>;
}

/**
 * Expands and checks every envelope of a job file. Envelopes with errors are
 * reported (in ctx.sink) and left out; the caller decides from the sink.
 * Rows are expanded and checked {@link chunkOfRows} at a time, and each
 * row is let go once expanded (issue 37): the expanded envelopes, their
 * diagnostics closures and the rows' cells live for one chunk, not the
 * whole load.
 */
export async function resolveEnvelopes(
  job: RawJobFile,
  ctx: JobContext,
  folderReal: string,
  collection: ItemCollection = 'envelopes',
): Promise<ResolvedEnvelope[]> {
  // A template takes nothing from `defaults`, which are the envelopes'.
  const defaults = collection === 'templates' ? {} : (job.defaults ?? {});
  // A template's documents and roles are an envelope's, read by the same code (its other fields are read by resolve-templates.ts).
  const items: RawEnvelope[] = collection === 'templates' ? (job.templates ?? []) : (job.envelopes ?? []);
  const keys = new Set<string>();
  const groups = new RowErrorGroups();
  rowErrors.set(ctx, groups);
  const patterns: Array<{ index: number; raw: RawEnvelope; rows: Rows }> = [];
  for (const [index, raw] of items.entries()) {
    // A template to delete needs no content: resolve-templates.ts reads its key and name.
    if (collection === 'templates' && (raw as RawTemplate).state === 'absent') continue;
    if (!checkEnvelopeStructure(raw, index, defaults, ctx, collection)) continue;
    if (rowsNameManyDocuments(raw, ctx)) ctx.pdfFacts.warmUp();
    const rows = await envelopeRows(raw, index, ctx, folderReal);
    if (!rows) continue;
    groups.setRows(index, rows.length);
    patterns.push({ index, raw, rows });
  }
  const state: ResolveState = {
    ctx,
    folderReal,
    results: new Map(),
    fresh: [],
    folders: new Map(),
    listings: { named: new Map(), files: new Map() },
    texts: new Map(),
    anchors: new Map(),
    sharedDocuments: new SharedDocuments(),
    mergeFields: new Map(),
    done: 0,
    total: patterns.reduce((n, p) => n + p.rows.length, 0),
    streamed: new Map(),
  };
  // Rows whose documents are the pattern's own (the same files for every row): a row of its own PDF is read and checked per row.
  if (ctx.streamRows && collection === 'envelopes')
    for (const { index, raw, rows } of patterns)
      if (raw.forEach && sameForEveryRow(raw)) state.streamed.set(index, streamOf(raw, index, rows, ctx, job));
  const resolved: ResolvedEnvelope[] = [];
  let chunk: ExpandedEnvelope[] = [];
  for (const { index, raw, rows } of patterns) {
    const chunkRows = state.streamed.has(index) ? Math.min(chunkOfRows.rows, chunkOfRows.streamed) : chunkOfRows.rows;
    for (let r = 0; r < rows.length; r++) {
      // Made now, from the CSV's cells: the row lives as long as its chunk (its placeOf keeps it for diagnostics).
      // A streamed pattern keeps its cells, to make the row again when its envelope is read.
      const row = rows.take(r, state.streamed.has(index));
      const at = () => `in ${ctx.shown} at ${collection}[${index}]${row ? `, before row ${row.number}` : ''}`;
      const turn = interruptionPoint(ctx.signal, at, r);
      if (turn) await turn;
      const item = expandEnvelope(raw, index, defaults, row, job.job, ctx, collection);
      checkValues(item, ctx, keys, row?.number);
      readAhead(item, state);
      chunk.push(item);
      if (chunk.length >= chunkRows) {
        await resolveChunk(chunk, state, resolved);
        chunk = [];
      }
    }
  }
  await resolveChunk(chunk, state, resolved);
  groups.flush(ctx);
  rowErrors.delete(ctx);
  return resolved;
}

/**
 * A forEach whose rows name its documents (`file: letters/${row.id}.pdf`),
 * over a CSV big enough (16 bytes a row at least) to name more files than
 * the PDF worker's threshold: its worker may start before the CSV is read.
 * Only when the worker starts depends on it; the CSV is read and confined
 * as any other (envelope-rows.ts).
 */
function rowsNameManyDocuments(raw: RawEnvelope, ctx: JobContext): boolean {
  const csv = raw.forEach?.csv;
  if (csv === undefined || !raw.documents?.some((d) => typeof d.file === 'string' && d.file.includes('${')))
    return false;
  try {
    return statSync(resolve(ctx.folder, csv)).size >= workerThreshold * 16;
  } catch {
    return false;
  }
}

/**
 * Checks where an envelope's documents are, the first time each path is
 * named, and has the readable ones read ahead: many distinct files (one PDF
 * per row) are read on a worker thread while the next rows expand.
 */
function readAhead(item: ExpandedEnvelope, state: ResolveState): void {
  const { ctx, results } = state;
  for (const document of item.envelope.documents) {
    if (results.has(document.path)) continue;
    const check: DocumentCheck = {
      confined: confinedListedPath(ctx.folder, state.folderReal, document.path, state.folders, state.listings),
    };
    results.set(document.path, check);
    state.fresh.push(check);
    if (isReadable(check.confined)) ctx.pdfFacts.prefetch(check.confined.real);
  }
}

/**
 * Checks a chunk's envelopes in order, each once its documents are read
 * (those not read before): on the worker, or on this thread when the worker
 * is behind (pdf-facts-reader.ts), and keeps those without error.
 */
async function resolveChunk(
  chunk: ExpandedEnvelope[],
  state: ResolveState,
  resolved: ResolvedEnvelope[],
): Promise<void> {
  const { ctx, results } = state;
  const readable = state.fresh.reduce((n, r) => (isReadable(r.confined) ? n + 1 : n), 0);
  state.fresh = [];
  const reading = (i: number) => `in ${ctx.shown}, reading document ${i + 1} of ${readable}`;
  if (readable > 0) await interruptionPoint(ctx.signal, () => reading(0), 0);
  const between = (done: number) => stopLoadingIfInterrupted(ctx.signal, reading(done));
  for (const item of chunk) {
    const i = state.done++;
    const turn = interruptionPoint(
      ctx.signal,
      () => `in ${ctx.shown}, checking envelope ${i + 1} of ${state.total}`,
      i,
    );
    if (turn) await turn;
    for (const document of item.envelope.documents) {
      const check = results.get(document.path)!;
      if (check.facts === undefined && isReadable(check.confined))
        check.facts = await ctx.pdfFacts.whenRead(check.confined.real, between);
    }
    if (hasAnchors(item.envelope)) await readAnchorTexts(item.envelope, state);
    checkDocuments(item, results, state.texts, state.anchors, ctx, state.mergeFields);
    item.envelope.documents = state.sharedDocuments.share(item.envelope.documents);
    if (failed.has(item)) continue;
    const stream = state.streamed.get(item.index);
    if (stream && isStreamable(item.envelope, stream.documents)) {
      stream.documents ??= item.envelope.documents;
      resolved.push(new RowEnvelope(stream as RowPattern, item.envelope));
    } else
      // Added in place, not `{ ...envelope, digest }`: V8 gives every such copy a hidden class of its own
      // (~380 bytes per envelope, a quarter of the model at 10,000 rows).
      resolved.push(
        Object.assign(item.envelope, { digest: ctx.digests === false ? '' : envelopeDigest(item.envelope) }),
      );
  }
}

/**
 * A forEach pattern whose rows are kept as rows: what expanding one again
 * needs, and no more of the load (not its diagnostics or its readers).
 */
function streamOf(raw: RawEnvelope, index: number, rows: Rows, ctx: JobContext, job: RawJobFile) {
  // Not the context itself, whose sink holds the load's diagnostics and sources; its env is a plain function (load-jobs.ts).
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const { env, folder, file, shown, locator } = ctx;
  return { raw, index, defaults: job.defaults ?? {}, job: job.job, rows, ctx: { env, folder, file, shown, locator } };
}

/** An anchored envelope's documents' text: read once per file. */
async function readAnchorTexts(envelope: ExpandedEnvelope['envelope'], state: ResolveState): Promise<void> {
  const { ctx, results, texts } = state;
  for (const document of envelope.documents) {
    const check = results.get(document.path);
    const key = textKeyOf(document);
    if (texts.has(key) || !check?.facts?.ok || !check.confined.ok) continue;
    await interruptionPoint(
      ctx.signal,
      () => `in ${ctx.shown}, reading the text of ${document.path} for its anchors`,
      0,
    );
    // A Word template's anchors are looked for in the letter generated from this envelope's values, as DocuSign does.
    const generated = document.docGenFormFields !== undefined && document.fileExtension === 'docx';
    texts.set(
      key,
      await (generated ? readGeneratedText(document, check.confined.real) : ctx.documentText(check.confined.real)),
    );
  }
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
  const field = fieldName([item.collection, item.index, ...path]);
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
  const template = item.collection === 'templates';
  const what = template ? 'template' : 'envelope';
  if (!KEY.test(envelope.key) || envelope.key.length > 200) {
    say(
      'SR_SCHEMA_VALUE',
      `${what} key ${JSON.stringify(envelope.key)} must be letters, digits, ".", "_", "@", "+" or "-", starting with a letter or digit`,
      ['key'],
    );
  } else if (keys.has(envelope.key)) {
    say(
      template ? 'SR_DUPLICATE_TEMPLATE_KEY' : 'SR_DUPLICATE_ENVELOPE_KEY',
      `${what} key ${envelope.key} is used twice in job ${envelope.job}`,
      ['key'],
    );
  }
  keys.add(envelope.key);
  const identityProblem = identityLengthProblem(envelope.job, envelope.key, template ? '#template' : '');
  if (identityProblem) say('SR_IDENTITY_TOO_LONG', identityProblem, ['key']);
  // A template's subject is optional: its envelopes have their own.
  if (!template && envelope.emailSubject.trim() === '')
    say('SR_EMAIL_SUBJECT_MISSING', `envelope ${envelope.key} has an empty emailSubject`, ['emailSubject']);
  for (const [problem, at] of fieldLimitProblems(envelope)) say('SR_FIELD_TOO_LONG', problem, at);
  if (!envelopeStatuses.includes(envelope.status))
    say(
      'SR_SCHEMA_ENUM',
      `status is ${JSON.stringify(envelope.status)}; it must be one of ${envelopeStatuses.join(', ')} (empty: sent)`,
      ['status'],
    );
  if (envelope.status === 'voided' && (envelope.voidedReason ?? '').trim() === '')
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
  const people = [...envelope.recipients, ...envelope.templateRoles];
  for (const person of people)
    for (const tab of person.tabs)
      for (const problem of tabProblems(tab))
        say(problem.code, problem.message, [...person.written, ...tab.written, ...problem.at]);
  const clientUserIds = new Set<string>();
  for (const person of people) {
    const at = person.written;
    // An in-person signer's email is the host's (hostEmail), where messages go. A template's role may leave it to the envelopes.
    const problem = template && person.email === '' ? undefined : emailProblem(person.email);
    if (problem) say('SR_EMAIL_INVALID', problem, [...at, person.host ? 'hostEmail' : 'email']);
    if (person.signerEmail !== undefined) {
      const signerProblem = emailProblem(person.signerEmail);
      if (signerProblem) say('SR_EMAIL_INVALID', signerProblem, [...at, 'signerEmail']);
    }
    if (person.accessCode !== undefined && person.accessCode.reveal().trim() === '')
      say('SR_SCHEMA_VALUE', 'accessCode is empty: the variable it names is set to nothing', [...at, 'accessCode']);
    else if (person.accessCode !== undefined && [...person.accessCode.reveal()].length > 50)
      say('SR_SCHEMA_VALUE', 'accessCode is longer than 50 characters, which DocuSign refuses', [...at, 'accessCode']);
    if (person.clientUserId !== undefined) {
      if (person.clientUserId.trim() === '')
        say('SR_SCHEMA_VALUE', 'clientUserId must not be empty', [...at, 'clientUserId']);
      else if (clientUserIds.has(person.clientUserId))
        say(
          'SR_DUPLICATE_CLIENT_USER_ID',
          `clientUserId ${person.clientUserId} is used by two recipients of envelope ${envelope.key}`,
          [...at, 'clientUserId'],
        );
      clientUserIds.add(person.clientUserId);
    }
    if (person.supportedLanguage !== undefined && person.roleName === undefined) {
      const languageIssue = languageProblem(person.supportedLanguage);
      if (languageIssue) say('SR_LANGUAGE_INVALID', languageIssue, [...at, 'supportedLanguage']);
    }
  }
}

function checkDocuments(
  item: ExpandedEnvelope,
  results: Map<string, DocumentCheck>,
  texts: Map<string, DocumentText>,
  anchors: AnchorCache,
  ctx: JobContext,
  mergeFields: MergeFieldCache,
): void {
  const { envelope } = item;
  const say: Say = (code, message, path) => report(ctx, item, envelope.row, code, message, path);
  const pagesById = new Map<string, PageSize[]>();
  const pathById = new Map<string, string>();
  envelope.documents.forEach((document, d) => {
    const result = results.get(document.path)!;
    const path = ['documents', d, 'file'];
    if (!isReadable(result.confined) || !result.facts?.ok) {
      reportDocument(result, ctx.show(document.path), path, say);
      return;
    }
    const facts = result.facts;
    document.size = facts.facts.size;
    document.sha256 = facts.facts.sha256;
    document.pageCount = facts.facts.pages.length;
    pagesById.set(document.documentId, facts.facts.pages);
    // A Word template's merge fields against the values given (DocuSign's Document Generation).
    // Asked only of a document that gives values: the name shown is a path.relative, one a row (issue 37).
    if (result.confined.ok && document.docGenFormFields !== undefined)
      for (const problem of documentDocGenProblems(
        document,
        result.confined.real,
        ctx.show(document.path),
        mergeFields,
      ))
        say(problem.code, problem.message, ['documents', d, 'docGenFormFields', ...problem.at]);
    // Shown only in an error message: path.relative for each of 10,000 rows is not free.
    pathById.set(document.documentId, document.path);
  });
  const places: PlaceCheck = {
    envelope,
    say,
    pagesById,
    documentName: (documentId) => ctx.show(pathById.get(documentId)!),
    texts,
    anchors,
    ctx,
  };
  envelope.recipients.forEach((recipient) => {
    for (const tab of recipient.tabs) {
      const path = [...recipient.written, ...tab.written];
      if (tab.radios) tab.radios.forEach((radio, n) => checkPlace(places, tab, radio.place, [...path, 'radios', n]));
      else checkPlace(places, tab, tab.place, path);
    }
  });
  // Unreadable text is said once per document and envelope pattern, as a warning: DocuSign still places the tabs.
  envelope.documents.forEach((document, d) => {
    const text = texts.get(textKeyOf(document));
    if (text && !text.ok)
      ctx.sink.add(
        'SR_DOC_TEXT_LIMIT',
        `anchors not checked in ${ctx.show(document.path)}: ${text.reason}`,
        item.placeOf(['documents', d, 'file']),
        { severity: 'warning', field: fieldName([item.collection, item.index, 'documents', d, 'file']) },
      );
  });
}

type Say = (code: Parameters<JobContext['sink']['add']>[0], message: string, path: NodePath) => void;
type PageSize = { width: number; height: number };

/** What checking one envelope's tab places needs: its documents' pages and texts, and where to say a problem. */
interface PlaceCheck {
  envelope: ExpandedEnvelope['envelope'];
  say: Say;
  /** Each readable document's pages, by documentId. */
  pagesById: ReadonlyMap<string, PageSize[]>;
  /** A document's file as messages show it (built only for a message). */
  documentName: (documentId: string) => string;
  texts: Map<string, DocumentText>;
  anchors: AnchorCache;
  ctx: JobContext;
}

/** A tab's box, from its top-left corner, on its page: the whole of it, not only its corner (SR_TAB_OFF_PAGE). */
function boxProblem(tab: ResolvedTab, x: number, y: number, page: PageSize, where: () => string): string | undefined {
  const number = (field: string) => {
    const text = tab.fields?.[field];
    return text === undefined ? undefined : Number(text);
  };
  const size = tabSize(tab.kind, { width: number('width'), height: number('height') });
  const right = x + size.width;
  const bottom = y + size.height;
  if (right <= page.width + 0.5 && bottom <= page.height + 0.5) return undefined;
  const runs = [
    ...(right > page.width + 0.5 ? [`its right edge at x ${round(right)}`] : []),
    ...(bottom > page.height + 0.5 ? [`its bottom edge at y ${round(bottom)}`] : []),
  ];
  return `the ${tab.kind} tab (${round(size.width)} × ${round(size.height)} points) ${where()} runs off ${runs.join(' and ')}: the page is ${round(page.width)} × ${round(page.height)} points`;
}

/** Checks one place: a page that exists, a corner and a box on it; an anchor some document has. */
function checkPlace(c: PlaceCheck, tab: ResolvedTab, place: ResolvedTab['place'], path: NodePath): void {
  if (place === undefined) return;
  if (!isPositioned(place)) {
    checkAnchor(c, tab, place, path);
    return;
  }
  const { say, documentName } = c;
  const pages = c.pagesById.get(place.documentId);
  // A page that is not a number is reported by the value checks (SR_SCHEMA_VALUE).
  if (!pages || !/^\s*\d+\s*$/.test(place.pageNumber)) return;
  const page = pages[Number(place.pageNumber) - 1];
  if (!page) {
    say(
      'SR_TAB_PAGE_OUT_OF_RANGE',
      `tab on page ${place.pageNumber} of documentId ${place.documentId} (${documentName(place.documentId)}), which has ${pages.length} page${pages.length === 1 ? '' : 's'}`,
      [...path, 'pageNumber'],
    );
    return;
  }
  const x = Number(place.xPosition);
  const y = Number(place.yPosition);
  const size = () =>
    `page ${place.pageNumber} of ${documentName(place.documentId)} (${Math.round(page.width)} × ${Math.round(page.height)} points)`;
  let outside = false;
  if (x >= page.width) {
    outside = true;
    say('SR_TAB_POSITION_OUTSIDE_PAGE', `xPosition ${x} is outside ${size()}`, [...path, 'xPosition']);
  }
  if (y >= page.height) {
    outside = true;
    say('SR_TAB_POSITION_OUTSIDE_PAGE', `yPosition ${y} is outside ${size()}`, [...path, 'yPosition']);
  }
  if (outside || !Number.isFinite(x) || !Number.isFinite(y)) return;
  const problem = boxProblem(
    tab,
    x,
    y,
    page,
    () => `at (${x}, ${y}) on page ${place.pageNumber} of ${documentName(place.documentId)}`,
  );
  if (problem)
    say('SR_TAB_OFF_PAGE', problem, [...path, problem.includes('its right edge') ? 'xPosition' : 'yPosition']);
}

/** An anchored tab: its text in some document (once per text and query, cached), not too often, its box on the page. */
function checkAnchor(c: PlaceCheck, tab: ResolvedTab, anchor: TabAnchor, path: NodePath): void {
  const { envelope, say, texts, ctx } = c;
  const documents = envelope.documents.filter((d) => texts.get(textKeyOf(d))?.ok);
  if (documents.length === 0) return; // unreadable text: reported once per document as SR_DOC_TEXT_LIMIT, or not a PDF
  const units = anchor.anchorUnits ?? 'pixels';
  if (!isAnchorUnits(units)) {
    say('SR_SCHEMA_ENUM', `anchorUnits is ${JSON.stringify(units)}; it must be one of pixels, inches, mms, cms`, [
      ...path,
      'anchorUnits',
    ]);
    return;
  }
  const flag = (text: string | undefined) => text?.trim().toLowerCase() === 'true';
  const found = anchorMatches(c, documents, {
    anchorString: anchor.anchorString,
    anchorCaseSensitive: flag(anchor.anchorCaseSensitive),
    anchorMatchWholeWord: flag(anchor.anchorMatchWholeWord),
  });
  if (found.length === 0) {
    if (flag(anchor.anchorIgnoreIfNotPresent)) return;
    say(
      'SR_ANCHOR_NOT_FOUND',
      `anchorString ${JSON.stringify(anchor.anchorString)} is in no document of envelope ${envelope.key} (${documents.map((d) => ctx.show(d.path)).join(', ')})`,
      [...path, 'anchorString'],
    );
    return;
  }
  // The sandbox's rule (src/pdf/anchor-places.ts): refused here, at the anchor's line, rather than at `run`.
  const tooMany = anchorPlacementProblem(
    anchor.anchorString,
    found.reduce((sum, f) => sum + f.matches.length, 0),
  );
  if (tooMany) {
    say('SR_ANCHOR_TOO_MANY', tooMany, [...path, 'anchorString']);
    return;
  }
  const dx = anchorOffsetPoints(Number(anchor.anchorXOffset ?? 0), units);
  const dy = anchorOffsetPoints(Number(anchor.anchorYOffset ?? 0), units);
  if (!Number.isFinite(dx) || !Number.isFinite(dy)) return;
  for (const { document, matches } of found) {
    const pages = c.pagesById.get(document.documentId);
    for (const match of matches) {
      const page = pages?.[match.pageNumber - 1];
      if (!page) continue;
      const x = match.xPosition + dx;
      const y = match.yPosition + dy;
      // Built only for a message: path.relative for each of 10,000 rows is not free.
      const where = () =>
        `at anchor ${JSON.stringify(anchor.anchorString)} on page ${match.pageNumber} of ${ctx.show(document.path)}, at (${round(x)}, ${round(y)})`;
      const problem =
        x < 0 || y < 0 || x >= page.width || y >= page.height
          ? `the ${tab.kind} tab ${where()} is outside the page (${round(page.width)} × ${round(page.height)} points)`
          : boxProblem(tab, x, y, page, where);
      if (problem) {
        const moved = anchor.anchorXOffset !== undefined || anchor.anchorYOffset !== undefined;
        say('SR_TAB_OFF_PAGE', problem, [
          ...path,
          moved ? (anchor.anchorYOffset !== undefined ? 'anchorYOffset' : 'anchorXOffset') : 'anchorString',
        ]);
        return;
      }
    }
  }
}

/** Where each readable document has an anchor's text: searched once per document text and query for every row. */
function anchorMatches(
  { texts, anchors }: PlaceCheck,
  documents: ResolvedDocument[],
  query: { anchorString: string; anchorCaseSensitive: boolean; anchorMatchWholeWord: boolean },
): Array<{ document: ResolvedDocument; matches: AnchorMatch[] }> {
  const found: Array<{ document: ResolvedDocument; matches: AnchorMatch[] }> = [];
  for (const document of documents) {
    const textKey = textKeyOf(document);
    const key = `${textKey}\0${query.anchorString}\0${query.anchorCaseSensitive}\0${query.anchorMatchWholeWord}`;
    let matches = anchors.get(key);
    if (!matches) {
      matches = findAnchors((texts.get(textKey) as { pages: PageText[] }).pages, query);
      anchors.set(key, matches);
    }
    if (matches.length > 0) found.push({ document, matches });
  }
  return found;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** Anchors found, by document path, anchor string and matching options (offsets apply after). */
type AnchorCache = Map<string, AnchorMatch[]>;

/** What an envelope's status may be once a `${row.*}` cell filled it. */
const envelopeStatuses: readonly string[] = ['sent', 'created', 'voided'];

/** Whether an envelope has a tab placed by anchor (its documents' text is then read). */
function hasAnchors(envelope: ExpandedEnvelope['envelope']): boolean {
  return envelope.recipients.some((r) =>
    r.tabs.some(
      (t) => (t.place !== undefined && !isPositioned(t.place)) || t.radios?.some((x) => !isPositioned(x.place)),
    ),
  );
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
  } else if (result.facts?.ok === false && result.facts.code === 'SR_DOC_TOO_LARGE') {
    // A file found in its folder's listing is measured by the reader, which leaves it unread.
    sayTooLarge(shown, result.facts.size, path, say);
  } else if (!isReadable(result.confined)) {
    sayTooLarge(shown, (result.confined as { size: number }).size, path, say);
  } else if (result.facts && !result.facts.ok) {
    if (result.facts.code === 'SR_DOC_INFLATE_LIMIT') say(result.facts.code, `${shown}: ${result.facts.reason}`, path);
    else if (result.facts.code === 'SR_DOC_NOT_CONVERTIBLE')
      say(result.facts.code, `${shown} cannot be converted to PDF: ${result.facts.reason}`, path);
    else say('SR_DOC_NOT_PDF', `${shown} is not a PDF: ${result.facts.reason}`, path);
  }
}

function sayTooLarge(
  shown: string,
  size: number,
  path: NodePath,
  say: (code: Parameters<JobContext['sink']['add']>[0], message: string, path: NodePath) => void,
): void {
  say(
    'SR_DOC_TOO_LARGE',
    `document ${shown} is ${formatBytes(size)}; the service accepts at most ${formatBytes(limits.documentBytes)}`,
    path,
  );
}
