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
// eslint-disable-next-line max-lines-per-function -- one pass over the envelopes that keeps memory flat (each envelope's pages written and let go before the next); to be split into named steps (issue 33).
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
  const places = new WrittenPlaces();
  const sources = new DocumentSources();
  const rasterizer = new PageRasterizer(options.scale ?? previewScale);
  const diagnostics: Diagnostic[] = [];
  const notes: Diagnostic[] = [];
  const entries: SheetEntry[] = [];
  let files = 0;
  let previewed = 0;

  const diagnostic = (
    code: ErrorCode,
    severity: Diagnostic['severity'],
    envelope: ResolvedEnvelope,
    message: string,
    at: { line: number; column: number; excerpt?: string } = envelope.source,
  ): Diagnostic => ({
    code,
    severity,
    message: `${envelope.row === undefined ? '' : `row ${envelope.row} `}(${envelope.key}): ${message}`,
    file: show(envelope.source.file),
    line: at.line,
    column: at.column,
    ...(at.excerpt === undefined ? {} : { excerpt: at.excerpt }),
    hint: errorCatalogue[code].hint,
  });

  // Pages waiting to be rendered, with their overlay; rendered and written a batch at a time.
  let overlay = await OverlayPages.create();
  let waiting: Array<{ page: OverlaidPage; file: string }> = [];
  let writing: Array<Promise<void>> = [];
  const render = async (): Promise<void> => {
    if (waiting.length > 0) {
      const batch = waiting;
      const bytes = await overlay.save();
      overlay = await OverlayPages.create();
      waiting = [];
      let i = 0;
      for await (const image of rasterizer.overlaid(
        bytes,
        batch.map((b) => b.page),
      )) {
        writing.push(out.writeFileBehind(batch[i++]!.file, image.png).committed);
        files += 1;
      }
    }
    await Promise.all(writing);
    writing = [];
  };

  // Templates kept as code: an envelope that uses one is previewed as DocuSign will make it.
  const templates = new Map(jobs.flatMap((job) => (job.templates ?? []).map((t) => [`${t.job}/${t.key}`, t] as const)));
  options.onStart?.(envelopes.length);
  let interrupted = false;
  for (const written of envelopes) {
    if (options.signal?.aborted) {
      interrupted = true;
      break;
    }
    const template =
      written.kind === 'template' && written.templateKey !== undefined
        ? templates.get(`${written.job}/${written.templateKey}`)
        : undefined;
    const stored =
      written.kind === 'template' && written.templateKey === undefined && written.templateId !== undefined
        ? options.storedTemplates?.get(written.templateId.toLowerCase())
        : undefined;
    // Several templates: drawn when each is known (of the file, or read from the account).
    const parts =
      written.kind === 'composite'
        ? (written.templateRefs ?? []).map((ref) => {
            if (ref.key !== undefined) {
              const own = templates.get(`${written.job}/${ref.key}`);
              return own && { template: own, writtenIn: 'file' as const };
            }
            const read = ref.templateId ? options.storedTemplates?.get(ref.templateId.toLowerCase()) : undefined;
            return read && { template: read, writtenIn: 'envelope' as const };
          })
        : [];
    const composite = parts.length > 0 && parts.every((p) => p !== undefined) ? parts : undefined;
    const envelope = template
      ? envelopeFromTemplate(written, template)
      : stored
        ? envelopeFromTemplate(written, stored, 'envelope')
        : composite
          ? envelopeFromComposite(written, composite)
          : written;
    const folder = itemFolder(envelope.job, envelope.key);
    const entry: SheetEntry = {
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
    entries.push(entry);
    if (envelope.kind !== 'documents') {
      const note = diagnostic(
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
    let failed = false;
    let found = 0;
    try {
      const preview = await previewEnvelope(envelope, sources);
      writing.push(out.writeFileBehind(`${folder}/${previewFiles.pdf}`, preview.pdf).committed);
      files += 1;
      entry.pdf = `${folder}/${previewFiles.pdf}`;
      for (const page of preview.pages) {
        overlay.add(page);
        const file = previewPageFile(folder, page.documentId, page.pageNumber);
        waiting.push({
          page: { baseKey: page.source.key, baseBytes: () => page.source.bytes, pageNumber: page.pageNumber },
          file,
        });
        entry.pages ??= [];
        entry.pages.push(file);
      }
      for (const finding of preview.findings) {
        const d = diagnostic(
          finding.code,
          'warning',
          envelope,
          finding.message,
          places.of(envelope, finding.tab.written),
        );
        diagnostics.push(d);
        entry.warnings.push(`${d.code}: ${finding.message} (${d.file}:${d.line})`);
      }
      found = preview.findings.length;
      previewed += 1;
    } catch (error) {
      failed = true;
      const d = diagnostic(
        'SR_PREVIEW_UNREADABLE',
        'error',
        envelope,
        `could not be previewed: ${(error as Error).message}`,
      );
      diagnostics.push(d);
      entry.warnings.push(`${d.code}: ${d.message}`);
    }
    if (overlay.count >= pagesPerOverlay) await render();
    options.onEnvelope?.({ job: envelope.job, key: envelope.key, findings: found, failed });
  }
  await render();
  await out.writeFile(previewFiles.sheet, contactSheet(entries, { scale: options.scale ?? previewScale }));
  files += 1;
  return { envelopes: previewed, matched: envelopes.length, diagnostics, notes, files, interrupted };
}
