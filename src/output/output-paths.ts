/**
 * Where each file of the output folder lives, by name (docs/outputs.md):
 * the reports at the top, then one folder per envelope or account,
 * `<job>/<key>/`, holding its records and downloads. Everything that writes
 * or reads one of these files asks here, so a name is decided once and a
 * reader always looks where the writer put it. Paths are relative to the
 * output folder, with forward slashes (the writer resolves them).
 */

/** The reports at the top of the output folder, in the order they are written. */
export const reportFiles = ['report.json', 'report.md', 'junit.xml', 'report.html'] as const;

/** One of {@link reportFiles}. */
export type ReportFile = (typeof reportFiles)[number];

/** The run report, which `report merge` also reads from an output folder. */
export const reportJsonFile: ReportFile = 'report.json';

/** The files of one envelope's or account's folder, by what they hold. */
export const itemFiles = {
  /** The envelope as created and last synced (records.ts, EnvelopeJson). */
  envelope: 'envelope.json',
  /** Signing addresses of embedded recipients, mode 0600 (records.ts, SigningJson). */
  signing: 'signing.json',
  /** A subsidiary account (records.ts, AccountJson). */
  account: 'account.json',
  /** The stable links' tokens, mode 0600 (src/links). */
  links: 'links.json',
  /** Each opening of a stable link, one JSON line (src/links). */
  linkOpenings: 'link-openings.jsonl',
  /** The signature certificate. */
  certificate: 'certificate.pdf',
  /** Every document and the certificate in one PDF (`sync --combined`). */
  combined: 'combined.pdf',
  /** What a completed envelope's recipients entered, tab by tab (src/sync/form-data.ts). */
  formData: 'form-data.json',
} as const;

/** `signrun preview`'s files (docs/preview.md): the contact sheet at the top, each envelope's PDF and pages in its folder. */
export const previewFiles = {
  /** Every envelope's first page, the legend and the warnings, in one page. */
  sheet: 'preview.html',
  /** An envelope's documents with every tab drawn. */
  pdf: 'preview.pdf',
} as const;

/** `<folder>/preview-<documentId>-<page>.png`: one page of an envelope's preview, `folder` an {@link itemFolder}. */
export function previewPageFile(folder: string, documentId: string, pageNumber: number): string {
  return `${folder}/preview-${safeFileName(documentId)}-${pageNumber}.png`;
}

/** Relative folder of an envelope or account: `<job>/<key>`. */
export function itemFolder(job: string, key: string): string {
  return `${job}/${key}`;
}

/** `<job>/templates/<key>.json`: a template kept as code, as the last run left it (records.ts, TemplateRecord). */
export function templateFile(job: string, key: string): string {
  return `${job}/templates/${safeFileName(key)}.json`;
}

/** `<job>/form-data.csv`: one row per completed envelope of the job, one column per tab label (src/sync/form-data.ts). */
export function jobFormDataFile(job: string): string {
  return `${job}/form-data.csv`;
}

/** `<folder>/<file>` for one of {@link itemFiles}, where `folder` is an {@link itemFolder}. */
export function itemFile(folder: string, file: keyof typeof itemFiles): string {
  return `${folder}/${itemFiles[file]}`;
}

/**
 * `<folder>/documents/<id>-<name>.pdf`: a downloaded document. Both parts
 * are made safe file names (the service gives them), and `.pdf` is added
 * when the name lacks it, so two documents of one envelope never collide.
 */
export function documentFile(folder: string, documentId: string, name: string): string {
  let fileName = safeFileName(name);
  if (!/\.pdf$/i.test(fileName)) fileName += '.pdf';
  return `${folder}/documents/${safeFileName(documentId)}-${fileName}`;
}

/** `<folder>/replaced/<envelopeId>.json`: the envelope.json of an earlier envelope of this key, voided and replaced. */
export function replacedRecordFile(folder: string, envelopeId: string): string {
  return `${folder}/replaced/${envelopeId}.json`;
}

/** `.signrun-results-<id>.jsonl` at the top of the output folder: a run's result spool (result-spool.ts). */
export function resultSpoolFileName(id: string): string {
  return `.signrun-results-${id}.jsonl`;
}

/** A file name safe on every system, from a document name the service gave (`offer letter.pdf` → `offer-letter.pdf`). */
export function safeFileName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[.-]+/, '')
    .replace(/-+/g, '-')
    .slice(0, 120);
  return cleaned === '' ? 'document' : cleaned;
}
