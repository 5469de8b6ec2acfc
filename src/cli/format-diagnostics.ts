import pc from 'picocolors';
import type { Diagnostic, LoadStats } from '../jobs/model.js';
import { terminalSafe } from '../output/terminal-text.js';

/** Output formats of `validate` (and of invalid input in `plan` and `run`). */
export type DiagnosticFormat = 'text' | 'json' | 'github';

export interface FormatDiagnosticsOptions {
  /** ANSI colours in `text` (on a TTY and without NO_COLOR; see useColour). */
  colour: boolean;
  /** When given, a summary line (text, github) or object (json) is added. */
  summary?: LoadStats;
  /** Most diagnostics printed in `text` before "… and N more". Default 200; json and github print all. */
  maxText?: number;
}

/**
 * Renders diagnostics for people (`text`: `file:line:col CODE message`, the
 * excerpt with a caret, the hint), for machines (`json`, the same fields as
 * data) or for GitHub Actions (`github`: workflow commands that annotate the
 * line in the pull request).
 */
export function formatDiagnostics(
  diagnostics: Diagnostic[],
  format: DiagnosticFormat,
  options: FormatDiagnosticsOptions,
): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  if (format === 'json') {
    const body = {
      ok: errors === 0,
      ...(options.summary ? { summary: { ...options.summary, errors, warnings } } : {}),
      diagnostics: diagnostics.map((d) => ({ ...d })),
    };
    return `${JSON.stringify(body, null, 2)}\n`;
  }
  if (format === 'github') {
    // The title carries the code; GitHub shows `title: message`, so the message does not repeat it.
    const lines = diagnostics.map(
      (d) =>
        `::${d.severity === 'error' ? 'error' : 'warning'} file=${property(d.file)},line=${d.line},col=${d.column},title=${property(d.code)}::${data(`${d.message}${d.hint ? `\n${d.hint}` : ''}`)}`,
    );
    if (options.summary) lines.push(summaryLine(options.summary, errors, warnings));
    return lines.length > 0 ? `${lines.join('\n')}\n` : '';
  }
  const c = pc.createColors(options.colour);
  const max = options.maxText ?? 200;
  const blocks = diagnostics.slice(0, max).map((d) => {
    const label = d.severity === 'error' ? c.red(c.bold(d.code)) : c.yellow(c.bold(d.code));
    const lines = [
      `${c.bold(terminalSafe(`${d.file}:${d.line}:${d.column}`))} ${label} ${d.severity === 'warning' ? `${c.yellow('warning:')} ` : ''}${terminalSafe(d.message)}`,
    ];
    if (d.excerpt !== undefined) {
      const gutter = String(d.line);
      const excerpt = terminalSafe(d.excerpt.replace(/\t/g, ' '));
      lines.push(`${c.dim(`${gutter} |`)} ${excerpt}`);
      lines.push(`${' '.repeat(gutter.length)} ${c.dim('|')} ${' '.repeat(Math.max(0, d.column - 1))}${c.red('^')}`);
    }
    if (d.hint) lines.push(c.dim(`  hint: ${d.hint}`));
    return lines.join('\n');
  });
  if (diagnostics.length > max)
    blocks.push(`… and ${diagnostics.length - max} more (use --format json to see them all)`);
  let out = blocks.length > 0 ? `${blocks.join('\n\n')}\n` : '';
  if (options.summary) {
    const line = summaryLine(options.summary, errors, warnings);
    out += `${out ? '\n' : ''}${errors > 0 ? c.red(line) : c.green(line)}\n`;
  }
  return out;
}

function plural(n: number, word: string): string {
  // Not toLocaleString: loading ICU costs ~80 ms, as much as validating 2,000 envelopes.
  return `${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} ${word}${n === 1 ? '' : 's'}`;
}

/** `2 jobs, 25 envelopes, 1 account: 0 errors, 0 warnings` */
function summaryLine(stats: LoadStats, errors: number, warnings: number): string {
  return `${plural(stats.files, 'file')}, ${plural(stats.jobs, 'job')}, ${plural(stats.envelopes, 'envelope')}, ${stats.templates ? `${plural(stats.templates, 'template')}, ` : ''}${plural(stats.accounts, 'account')}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

// Escaping of workflow commands, as @actions/core does (toCommandValue / escapeData / escapeProperty).
/** Text as the message of a GitHub workflow command (`::error …::text`). */
export function data(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Text as a property of a GitHub workflow command (`file=…`, `title=…`). */
export function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
