/** Exit codes of the CLI (DESIGN.md, fixed contract). */
export const ExitCode = {
  ok: 0,
  /** Some envelope or account failed. */
  failed: 1,
  /** Invalid input or configuration; nothing was sent. */
  invalid: 2,
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** One row of the error catalogue. */
export interface CatalogueEntry {
  /** How the CLI ends when this error stops a command. */
  exitCode: ExitCodeValue;
  /** One line: what went wrong, in general terms (the message says the specifics). */
  summary: string;
  /** What the user should do next. */
  hint: string;
}

/** Helper so each area's table is checked against the entry shape but keeps its literal keys. */
export function defineCodes<const T extends Record<`SR_${string}`, CatalogueEntry>>(codes: T): T {
  return codes;
}
