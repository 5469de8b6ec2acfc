import type { Diagnostic } from '../jobs/model.js';
import type { OutputFolder, FileRecord } from '../output/output-folder.js';
import { SignrunError } from '../errors/signrun-error.js';
import { seconds, xml } from './report-junit.js';

/** Diagnostics listed in report.md before "…and N more" (junit.xml lists them all). */
const MAX_LISTED = 50;

/** Text of a markdown table cell: `|` and line breaks would end it. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/**
 * report.md of a command that refused its input (issue 26, "CI on every
 * exit"): what and where (the job file's line, or the CSV cell a row's value
 * came from), and that nothing was sent. The same text goes to GitHub's step
 * summary.
 */
export function invalidInputMarkdown(command: string, errors: readonly Diagnostic[]): string {
  const rows = errors
    .slice(0, MAX_LISTED)
    .map((d) => `| \`${cell(`${d.file}:${d.line}:${d.column}`)}\` | \`${d.code}\` | ${cell(d.message)} |`);
  return [
    `# ${command}: invalid input, nothing sent`,
    '',
    `${errors.length} error(s); fix them, then run again (\`npx signrun validate\` checks offline).`,
    '',
    '| where | code | what |',
    '|---|---|---|',
    ...rows,
    ...(errors.length > rows.length ? ['', `…and ${errors.length - rows.length} more.`] : []),
    '',
  ].join('\n');
}

/**
 * junit.xml of a command that refused its input: one suite, `invalid input`,
 * one failed test case per error, named by where it is (`file:line:column
 * CODE`) and carrying `file` and `line`, so that a CI's test view shows the
 * cause next to the line to fix.
 */
export function invalidInputJunit(command: string, errors: readonly Diagnostic[], now: Date = new Date()): string {
  const n = errors.length;
  const cases = errors.map((d) => {
    const where = `${d.file}:${d.line}:${d.column}`;
    const text = [`${where} ${d.code}`, d.field !== undefined ? `field: ${d.field}` : undefined, d.hint]
      .filter((t) => t !== undefined)
      .join('\n');
    return [
      `    <testcase classname="${xml(`${command}.invalid-input`)}" name="${xml(`${where} ${d.code}`)}" time="${seconds(0)}" file="${xml(d.file)}" line="${d.line}">`,
      `      <failure type="${xml(d.code)}" message="${xml(d.message)}">${xml(text)}</failure>`,
      '    </testcase>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`${command}: invalid input, nothing sent`)}" tests="${n}" failures="${n}" errors="0" skipped="0" time="${seconds(0)}">`,
    `  <testsuite name="invalid input" tests="${n}" failures="${n}" errors="0" skipped="0" time="${seconds(0)}" timestamp="${xml(now.toISOString())}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * Writes report.md and junit.xml of refused input at the top of the output
 * folder, each atomically, and nothing else: no envelope folder, no state.
 * report.json and report.html are left as they are (they describe the
 * envelopes of the last run, which invalid input does not change).
 */
export async function writeInvalidInputReports(
  out: OutputFolder,
  command: string,
  errors: readonly Diagnostic[],
): Promise<FileRecord[]> {
  const written: FileRecord[] = [];
  const failures: SignrunError[] = [];
  for (const [name, content] of [
    ['report.md', invalidInputMarkdown(command, errors)],
    ['junit.xml', invalidInputJunit(command, errors)],
  ] as const) {
    try {
      written.push(await out.writeFile(name, content));
    } catch (error) {
      if (!(error instanceof SignrunError) || error.code !== 'SR_OUTPUT_WRITE') throw error;
      failures.push(error);
    }
  }
  const first = failures[0];
  if (first) throw first;
  return written;
}
