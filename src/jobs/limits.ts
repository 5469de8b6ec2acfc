/**
 * Size limits for hostile or accidental input. They are documented in
 * docs/job-files.md ("Limits") and in the error catalogue; change all three
 * together.
 */
export const limits = {
  /** Largest job file read, in bytes (4 MiB). A real job file is a few KiB; inline `items` lists are the only big ones. */
  jobFileBytes: 4 * 1024 * 1024,
  /** Largest CSV file read by forEach, in bytes (64 MiB: ~100,000 rows of a wide HR export). */
  csvBytes: 64 * 1024 * 1024,
  /** Most rows one forEach may expand to. */
  forEachRows: 100_000,
  /** Most YAML aliases resolved in one job file (yaml's maxAliasCount); stops "billion laughs" documents. */
  yamlAliases: 100,
  /** Deepest nesting of a job file; a valid one is under 8 levels deep. */
  yamlDepth: 64,
  /** Largest document DocuSign accepts, in bytes (25 MB). */
  documentBytes: 25 * 1024 * 1024,
  /**
   * Most bytes the compressed object and cross-reference streams of one PDF
   * may inflate to while it is read (64 MiB; a real one is a few KiB to a few
   * MiB): a 200 KB "zip bomb" PDF would otherwise take gigabytes.
   */
  pdfInflatedBytes: 64 * 1024 * 1024,
  /**
   * How much of a document's text validation reads to find anchors (pdf.js;
   * src/pdf/page-text.ts stops at the first limit): pages, text runs, and
   * time. A real contract has a few pages and a few thousand runs; a PDF
   * made to hang `validate` stops here (SR_DOC_TEXT_LIMIT).
   */
  anchorTextPages: 2000,
  anchorTextRuns: 500_000,
  anchorTextMilliseconds: 20_000,
} as const;
