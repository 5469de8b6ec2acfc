import path from 'node:path';
import type { CommandHandler } from '../command.js';
import { formatDiagnostics } from '../format-diagnostics.js';
import { useColour } from '../io.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { prepare } from '../../runner/prepare.js';
import { planRun, planItemName } from '../../runner/plan.js';

/**
 * `signrun plan <paths...> [--out DIR] [--format text|json]`: what a run
 * would do — create, up to date, drift, delete — with the API calls it
 * expects, from the job files and the outputs of earlier runs. Read-only;
 * validation first (exit 2 on invalid input).
 */
const plan: CommandHandler = async ({ args, options, io }) => {
  const patterns = (args[0] as string[] | undefined) ?? [];
  const prepared = await prepare(patterns, { cwd: io.cwd, env: io.env });
  if (!prepared.ok) {
    io.stderr.write(formatDiagnostics([...prepared.errors, ...prepared.warnings], 'text', { colour: useColour(io, 'stderr') }));
    return ExitCode.invalid;
  }
  const outDir = path.resolve(io.cwd, (options['out'] as string | undefined) ?? prepared.config.outDir);
  // Envelopes created on an in-process sandbox died with it: outputs count only for the configured service.
  const result = await planRun(prepared.jobs, outDir, prepared.config.rootUrl?.replace(/\/+$/, '') ?? '(in-process sandbox)');
  if (options['format'] === 'json') {
    io.stdout.write(`${JSON.stringify({ target: prepared.config.rootUrl ?? null, outDir, ...result }, null, 2)}\n`);
    return ExitCode.ok;
  }
  const lines: string[] = [];
  lines.push(`Plan against ${prepared.config.rootUrl ?? 'the in-process sandbox (no DOCUSIGN_ROOT_URL configured)'}, from the outputs in ${path.relative(io.cwd, outDir) || '.'}:`);
  const width = Math.min(60, Math.max(...result.items.map((i) => planItemName(i).length), 10));
  for (const item of result.items) {
    const what = item.kind === 'account' ? `${item.action} account` : item.action;
    lines.push(`  ${what.padEnd(16)} ${planItemName(item).padEnd(width)} ${item.apiCalls} call(s)${item.envelopeId ? `  ${item.envelopeId}` : ''}${item.accountId ? `  ${item.accountId}` : ''}`);
  }
  const count = (action: string) => result.items.filter((i) => i.action === action).length;
  lines.push(
    `${count('create')} to create, ${count('up-to-date')} up to date, ${count('drift')} drifted, ${count('delete')} to delete; about ${result.totalApiCalls} API calls (login and template reads included).`,
  );
  if (count('drift') > 0) lines.push('Drifted envelopes were sent with other content: a run refuses them (SR_ENVELOPE_DRIFT) rather than send them again.');
  io.stdout.write(`${lines.join('\n')}\n`);
  return ExitCode.ok;
};
export default plan;
