import path from 'node:path';
import type { CommandHandler } from '../command.js';
import { preparedOrDiagnostics } from '../prepared-or-diagnostics.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { resolveTarget } from '../../runner/target.js';
import { remind } from '../../sync/remind.js';

/**
 * `signrun remind <paths...> [--key KEY...] [--out DIR] [--state DIR] [--max-calls-per-hour N] [--force]`:
 * sends the notification again to the recipients who have not signed,
 * except to envelopes reminded less than 24 hours ago (unless --force).
 * Exit 0; 1 when the call budget left some envelopes out.
 */
const remindCommand: CommandHandler = async ({ args, options, io }) => {
  const patterns = (args[0] as string[] | undefined) ?? [];
  const prepared = await preparedOrDiagnostics(io, patterns);
  if (!prepared) return ExitCode.invalid;
  const outDir = path.resolve(io.cwd, (options['out'] as string | undefined) ?? prepared.config.outDir);
  const stateDir = path.resolve(io.cwd, (options['state'] as string | undefined) ?? path.join(outDir, '.signrun'));
  const target = await resolveTarget(prepared.config, async (sandboxOptions) =>
    (await import('../../sandbox/index.js')).startSandbox(sandboxOptions),
  );
  try {
    const keys = options['key'] as string[] | undefined;
    const max = options['maxCallsPerHour'] as number | undefined;
    const result = await remind({
      jobs: prepared.jobs,
      target: { rootUrl: target.rootUrl, auth: target.auth },
      outDir,
      stateDir,
      ...(keys ? { keys } : {}),
      ...(max !== undefined ? { maxCallsPerHour: max } : {}),
      ...(options['force'] === true ? { force: true } : {}),
    });
    for (const r of result.reminded) io.stdout.write(`reminded ${r.id}: recipient(s) ${r.recipients.join(', ')}\n`);
    for (const r of result.recentlyReminded)
      io.stdout.write(`skipped ${r.id}: reminded at ${r.at} (less than 24 h ago); --force reminds again\n`);
    io.stdout.write(
      `${result.reminded.length} envelope(s) reminded${result.reminded.length === 0 ? ' (nobody remote is still to sign, as of the last `npx signrun sync`)' : ''}.\n`,
    );
    if (result.notReminded.length > 0) {
      io.stdout.write(
        `SR_CALL_BUDGET_SPENT: ${result.notReminded.length} envelope(s) not reminded; run the same command again after ${result.callBudget.resumeAt ?? 'the hour'}.\n`,
      );
      return 1;
    }
    return ExitCode.ok;
  } finally {
    await target.close();
  }
};
export default remindCommand;
