import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandHandler } from '../command.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { OutputFolder } from '../../output/output-folder.js';
import { reportJsonFile } from '../../output/output-paths.js';
import { checkReport } from '../../reporters/report-schema.js';
import { mergeReports } from '../../reporters/merge-reports.js';
import { writeReports } from '../../reporters/write-reports.js';
import { exitCodeOf } from '../../runner/run-summary.js';
import type { RunReport } from '../../reporters/report-json.js';

async function readReport(cwd: string, given: string): Promise<RunReport> {
  let file = path.resolve(cwd, given);
  try {
    if ((await stat(file)).isDirectory()) file = path.join(file, reportJsonFile);
  } catch {
    throw new SignrunError('SR_REPORT_INVALID', `${given} does not exist`);
  }
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new SignrunError(
      'SR_REPORT_INVALID',
      `${path.relative(cwd, file) || file} is not readable JSON: ${(error as { code?: string }).code ?? (error as Error).message}`,
    );
  }
  const problems = checkReport(value);
  if (problems.length > 0) {
    throw new SignrunError(
      'SR_REPORT_INVALID',
      `${path.relative(cwd, file) || file} is not a signrun report: ${problems.slice(0, 3).join('; ')}`,
      { details: { problems } },
    );
  }
  return value as RunReport;
}

/**
 * `signrun report merge <reports...> --out DIR`: combines the report.json of
 * shards into one report.json, report.md and junit.xml. The exit code is
 * `run`'s for the merged report (exitCodeOf): 130 when any shard was
 * interrupted, 1 when items failed or were left by a spent call budget.
 */
const reportMerge: CommandHandler = async ({ args, options, io }) => {
  const given = (args[0] as string[] | undefined) ?? [];
  const reports: RunReport[] = [];
  for (const g of given) reports.push(await readReport(io.cwd, g));
  const merged = mergeReports(reports);
  const out = new OutputFolder(path.resolve(io.cwd, options['out'] as string));
  await writeReports(out, merged);
  const t = merged.totals;
  io.stdout.write(
    `Merged ${reports.length} report(s): ${t.envelopes.succeeded}/${t.envelopes.total} envelope(s) succeeded, ${t.envelopes.failed} failed, ${t.envelopes.notStarted} not started; ` +
      `${t.accounts.total} account(s), ${t.accounts.failed} failed. Written to ${path.relative(io.cwd, out.root) || '.'}/report.json, report.md, junit.xml\n`,
  );
  // The same verdict as `run`: a shard stopped by its call budget, with items no other shard did, is not a success.
  return exitCodeOf(merged);
};
export default reportMerge;
