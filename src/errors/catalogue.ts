import { cliCodes } from './codes/cli.js';
import { configCodes } from './codes/config.js';
import { jobCodes } from './codes/jobs.js';
import { clientCodes } from './codes/client.js';
import { runCodes } from './codes/run.js';
import { sandboxCodes } from './codes/sandbox.js';
import { previewCodes } from './codes/preview.js';
import { importCodes } from './codes/import.js';
import type { CatalogueEntry } from './catalogue-entry.js';

/**
 * The one catalogue of signrun's error codes. Each area keeps its own table
 * (src/errors/codes/*.ts) so that codes live next to their peers; this merges
 * them. docs/errors.md is generated from it (`npm run docs:errors`) and a test
 * fails when the two drift.
 */
export const errorCatalogue = {
  ...cliCodes,
  ...configCodes,
  ...jobCodes,
  ...clientCodes,
  ...runCodes,
  ...previewCodes,
  ...importCodes,
  ...sandboxCodes,
} satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof errorCatalogue;

/** What to do about a code a report carries (a string: reports are read back too); undefined for a code not in the catalogue. */
export function hintOf(code: string | undefined): string | undefined {
  return code !== undefined && code in errorCatalogue
    ? (errorCatalogue[code as ErrorCode] as CatalogueEntry).hint
    : undefined;
}

/** The areas, in the order docs/errors.md lists them. */
export const catalogueSections: ReadonlyArray<{ title: string; codes: Record<string, CatalogueEntry> }> = [
  { title: 'Command line', codes: cliCodes },
  { title: 'Configuration', codes: configCodes },
  { title: 'Job files', codes: jobCodes },
  { title: 'Service calls', codes: clientCodes },
  { title: 'Runs, outputs and reports', codes: runCodes },
  { title: 'Preview', codes: previewCodes },
  { title: 'Importing templates', codes: importCodes },
  { title: 'Sandbox program', codes: sandboxCodes },
];
