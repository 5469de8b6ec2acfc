import { isAbsolute, relative } from 'node:path';
import { errorCatalogue, type ErrorCode } from '../errors/index.js';
import { WrittenPlaces } from '../jobs/index.js';
import type { Diagnostic, ResolvedEnvelope, ResolvedJob, ResolvedTemplate } from '../jobs/model.js';
import { itemFolder, previewFiles, previewPageFile, type OutputFolder } from '../output/index.js';
import { PageRasterizer, type OverlaidPage } from '../pdf/page-images.js';
import { DocumentSources } from './document-sources.js';
import { OverlayPages, previewEnvelope } from './preview-envelope.js';
import { contactSheet, type SheetEntry } from './contact-sheet.js';
import { envelopeFromComposite, envelopeFromTemplate } from './template-envelope.js';
import { recipientColour } from './recipient-colours.js';

/** Options of {@link previewJobs}. */
export interface PreviewOptions {
  /** Where the files go (`preview/` by default in the CLI). */
  readonly out: OutputFolder;
  /** Folder that file names in diagnostics are shown relative to. */
  readonly cwd: string;
  /** Only these envelopes, each named by its key or `job/key`. Default: every envelope. */
  readonly keys?: readonly string[];
  /** Pixels per point of the PNGs. Default {@link previewScale}. */
  readonly scale?: number;
  /** Stored templates read from the account for this preview, by templateId: their envelopes are drawn too. */
  readonly storedTemplates?: ReadonlyMap<string, ResolvedTemplate>;
  /** Called with the number of envelopes to preview, then once per envelope done. */
  readonly onStart?: (total: number) => void;
  readonly onEnvelope?: (done: { job: string; key: string; findings: number; failed: boolean }) => void;
  /**
   * Aborting it starts no new envelope: the one in hand is finished (its
   * PDF and PNGs written whole), the contact sheet is written for what was
   * drawn, and the summary says `interrupted`.
   */
  readonly signal?: AbortSignal;
}

/**
 * One pixel per point (72 dots per inch): a PNG is the page's own size, its
 * text readable on screen, and a thousand rows of two pages render in well
 * under a minute on two cores (1.5 takes twice as long: BENCHMARKS.md);
 * `--scale` for sharper pages.
 */
export const previewScale = 1;

/** What a preview found and wrote. */
export interface PreviewSummary {
  /** Envelopes previewed. */
  readonly envelopes: number;
  /** Envelopes matching --key (previewed or skipped). */
  readonly matched: number;
  /** Warnings (SR_PREVIEW_*) and errors (an envelope that could not be previewed), at the tab's line. */
  readonly diagnostics: Diagnostic[];
  /** Envelopes not previewed, and why (a template envelope). */
  readonly notes: Diagnostic[];
  /** Files written, the contact sheet included. */
  readonly files: number;
  /** The signal stopped it before every envelope was drawn. */
  readonly interrupted: boolean;
}

/** Pages rendered per overlay: its fonts load once for this many pages; memory holds at most these. */
const pagesPerOverlay = 32;

/**
 * `signrun preview`: each envelope built from documents, one after the
 * other (memory flat in the rows: an envelope's pages are written and let
 * go before the next), as `<job>/<key>/preview.pdf` and one PNG per page,
 * then `preview.html`, the contact sheet. An envelope from a template of
 * its job file is previewed as DocuSign will make it (template-envelope.ts);
 * one from a stored template, or from several, is noted and skipped.
 * Offline: no call to any service.
 */
export async function previewJobs(jobs: readonly ResolvedJob[], options: PreviewOptions): Promise<PreviewSummary> {
  const { out } = options;
  const show = (path: string): string => {
    const rel = relative(options.cwd, path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  };
  const envelopes = jobs.flatMap((job) =>
    job.envelopes.filter(
      (e) => options.keys === undefined || options.keys.includes(e.key) || options.keys.includes(`${e.job}/${e.key}`),
    ),
  );
  const run: PreviewRun = {
    show,
    places: new WrittenPlaces(),
    sources: new DocumentSources(),
    pages: await PageBatch.create(out, new PageRasterizer(options.scale ?? previewScale)),
    diagnostics: [],
  };
  const notes: Diagnostic[] = [];
  const entries: SheetEntry[] = [];
  let previewed = 0;

  // Templates kept as code: an envelope that uses one is previewed as DocuSign will make it.
  const templates = new Map(jobs.flatMap((job) => (job.templates ?? []).map((t) => [`${t.job}/${t.key}`, t] as const)));
  options.onStart?.(envelopes.length);
  let interrupted = false;
  for (const written of envelopes) {
    if (options.signal?.aborted) {
      interrupted = true;
      break;
    }
    const envelope = envelopeToDraw(written, templates, options.storedTemplates);
    const entry = sheetEntryOf(envelope, show);
    entries.push(entry);
    if (envelope.kind !== 'documents') {
      const note = diagnosticOf(
        show,
        'SR_PREVIEW_TEMPLATE_SKIPPED',
        'warning',
        envelope,
        envelope.kind === 'composite'
          ? 'not previewed: built from several templates, one of them stored in the account (with DOCUSIGN_ROOT_URL or the JWT grant configured, the preview reads it once)'
          : `not previewed: built from the stored template ${envelope.templateId ?? ''}, whose documents and tabs are in the account (with DOCUSIGN_ROOT_URL or the JWT grant configured, the preview reads it once)`,
      );
      notes.push(note);
      entry.skipped = note.message;
      options.onEnvelope?.({ job: envelope.job, key: envelope.key, findings: 0, failed: false });
      continue;
    }
    const drawn = await drawEnvelope(run, envelope, entry);
    if (!drawn.failed) previewed += 1;
    if (run.pages.count >= pagesPerOverlay) await run.pages.render();
    options.onEnvelope?.({ job: envelope.job, key: envelope.key, findings: drawn.findings, failed: drawn.failed });
  }
  await run.pages.render();
  await out.writeFile(previewFiles.sheet, contactSheet(entries, { scale: options.scale ?? previewScale }));
  return {
    envelopes: previewed,
    matched: envelopes.length,
    diagnostics: run.diagnostics,
    notes,
    files: run.pages.files + 1,
    interrupted,
  };
}

/** What drawing each envelope of one preview shares. */
interface PreviewRun {
  show: (path: string) => string;
  places: WrittenPlaces;
  sources: DocumentSources;
  pages: PageBatch;
  /** Warnings and errors found so far, at their tabs' lines. */
  diagnostics: Diagnostic[];
}

/**
 * Pages waiting to be rendered, with their overlay, rendered and written a
 * batch at a time (an overlay's fonts load once for its pages); and the
 * files being written behind, awaited with each batch.
 */
class PageBatch {
  private waiting: Array<{ page: OverlaidPage; file: string }> = [];
  private writing: Array<Promise<void>> = [];
  /** Files written (PDFs and PNGs). */
  files = 0;

  private constructor(
    private readonly out: OutputFolder,
    private readonly rasterizer: PageRasterizer,
    private overlay: OverlayPages,
  ) {}

  static async create(out: OutputFolder, rasterizer: PageRasterizer): Promise<PageBatch> {
    return new PageBatch(out, rasterizer, await OverlayPages.create());
  }

  /** Pages added since the last render. */
  get count(): number {
    return this.overlay.count;
  }

  writeBehind(file: string, bytes: Uint8Array): void {
    this.writing.push(this.out.writeFileBehind(file, bytes).committed);
    this.files += 1;
  }

  add(page: PreviewPage, file: string): void {
    this.overlay.add(page);
    this.waiting.push({
      page: { baseKey: page.source.key, baseBytes: () => page.source.bytes, pageNumber: page.pageNumber },
      file,
    });
  }

  async render(): Promise<void> {
    if (this.waiting.length > 0) {
      const batch = this.waiting;
      const bytes = await this.overlay.save();
      this.overlay = await OverlayPages.create();
      this.waiting = [];
      let i = 0;
      for await (const image of this.rasterizer.overlaid(
        bytes,
        batch.map((b) => b.page),
      ))
        this.writeBehind(batch[i++]!.file, image.png);
    }
    await Promise.all(this.writing);
    this.writing = [];
  }
}

type PreviewPage = Awaited<ReturnType<typeof previewEnvelope>>['pages'][number];

/** The envelope as DocuSign will make it: from a template of the file, a stored one read, or several; else as written. */
function envelopeToDraw(
  written: ResolvedEnvelope,
  templates: ReadonlyMap<string, ResolvedTemplate>,
  storedTemplates: ReadonlyMap<string, ResolvedTemplate> | undefined,
): ResolvedEnvelope {
  const template =
    written.kind === 'template' && written.templateKey !== undefined
      ? templates.get(`${written.job}/${written.templateKey}`)
      : undefined;
  if (template) return envelopeFromTemplate(written, template);
  const stored =
    written.kind === 'template' && written.templateKey === undefined && written.templateId !== undefined
      ? storedTemplates?.get(written.templateId.toLowerCase())
      : undefined;
  if (stored) return envelopeFromTemplate(written, stored, 'envelope');
  // Several templates: drawn when each is known (of the file, or read from the account).
  const parts =
    written.kind === 'composite'
      ? (written.templateRefs ?? []).map((ref) => {
          if (ref.key !== undefined) {
            const own = templates.get(`${written.job}/${ref.key}`);
            return own && { template: own, writtenIn: 'file' as const };
          }
          const read = ref.templateId ? storedTemplates?.get(ref.templateId.toLowerCase()) : undefined;
          return read && { template: read, writtenIn: 'envelope' as const };
        })
      : [];
  const composite = parts.length > 0 && parts.every((p) => p !== undefined) ? parts : undefined;
  return composite ? envelopeFromComposite(written, composite) : written;
}

function sheetEntryOf(envelope: ResolvedEnvelope, show: (path: string) => string): SheetEntry {
  return {
    job: envelope.job,
    key: envelope.key,
    ...(envelope.row === undefined ? {} : { row: envelope.row }),
    file: show(envelope.source.file),
    recipients: [...envelope.templateRoles, ...envelope.recipients].map((r, i) => ({
      name: r.name,
      kind: r.kind,
      colour: recipientColour(i).css,
      colourName: recipientColour(i).name,
    })),
    warnings: [],
  };
}

/** One envelope's PDF written behind and its pages queued; its findings said at their tabs' lines. */
async function drawEnvelope(
  run: PreviewRun,
  envelope: ResolvedEnvelope,
  entry: SheetEntry,
): Promise<{ failed: boolean; findings: number }> {
  const folder = itemFolder(envelope.job, envelope.key);
  try {
    const preview = await previewEnvelope(envelope, run.sources);
    run.pages.writeBehind(`${folder}/${previewFiles.pdf}`, preview.pdf);
    entry.pdf = `${folder}/${previewFiles.pdf}`;
    for (const page of preview.pages) {
      const file = previewPageFile(folder, page.documentId, page.pageNumber);
      run.pages.add(page, file);
      entry.pages ??= [];
      entry.pages.push(file);
    }
    for (const finding of preview.findings) {
      const d = diagnosticOf(
        run.show,
        finding.code,
        'warning',
        envelope,
        finding.message,
        run.places.of(envelope, finding.tab.written),
      );
      run.diagnostics.push(d);
      entry.warnings.push(`${d.code}: ${finding.message} (${d.file}:${d.line})`);
    }
    return { failed: false, findings: preview.findings.length };
  } catch (error) {
    const d = diagnosticOf(
      run.show,
      'SR_PREVIEW_UNREADABLE',
      'error',
      envelope,
      `could not be previewed: ${(error as Error).message}`,
    );
    run.diagnostics.push(d);
    entry.warnings.push(`${d.code}: ${d.message}`);
    return { failed: true, findings: 0 };
  }
}

function diagnosticOf(
  show: (path: string) => string,
  code: ErrorCode,
  severity: Diagnostic['severity'],
  envelope: ResolvedEnvelope,
  message: string,
  at: { line: number; column: number; excerpt?: string } = envelope.source,
): Diagnostic {
  return {
    code,
    severity,
    message: `${envelope.row === undefined ? '' : `row ${envelope.row} `}(${envelope.key}): ${message}`,
    file: show(envelope.source.file),
    line: at.line,
    column: at.column,
    ...(at.excerpt === undefined ? {} : { excerpt: at.excerpt }),
    hint: errorCatalogue[code].hint,
  };
}
