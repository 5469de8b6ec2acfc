import { catalogueSections } from './catalogue.js';

/** Renders docs/errors.md from the catalogue, so the documentation cannot drift from the code. */
export function renderErrorDocs(): string {
  const lines = [
    '# Error codes',
    '',
    '<!-- Generated from src/errors/codes/*.ts by `npm run docs:errors`. Do not edit by hand. -->',
    '',
    'Every error signrun reports carries one of these stable codes. Scripts should match on the',
    'code, never on the message. Exit codes: 0 success, 1 some envelope or account failed,',
    '2 invalid input or configuration (nothing was sent), 130 interrupted.',
    '',
  ];
  for (const section of catalogueSections) {
    lines.push(`## ${section.title}`, '', '| code | exit | what happened | what to do |', '|---|---|---|---|');
    for (const [code, entry] of Object.entries(section.codes).sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`| \`${code}\` | ${entry.exitCode} | ${escapeCell(entry.summary)} | ${escapeCell(entry.hint)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
