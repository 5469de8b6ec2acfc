import path from 'node:path';
import { shownUrl } from '../../secret.js';
import pc from 'picocolors';
import type { CommandHandler } from '../command.js';
import { useColour } from '../io.js';
import { preparedOrDiagnostics } from '../prepared-or-diagnostics.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { resolveTarget } from '../../runner/target.js';
import { exitCodeOf } from '../../runner/run-summary.js';
import { recordedStateTarget } from '../../state/state-target.js';
import { OutputFolder } from '../../output/output-folder.js';
import { reportOf } from '../../reporters/report-json.js';
import { previewDirsOf, writeReports } from '../../reporters/write-reports.js';
import { consoleSummary } from '../../reporters/console-summary.js';
import { sync } from '../../sync/sync.js';
import { shownPath } from '../shown-path.js';
import { annotateFailures, appendReportToStepSummary } from '../github-actions.js';

/**
 * `signrun sync <paths...> [--out DIR] [--state DIR] [--force] [--combined]`:
 * one status-changes listing per account (DESIGN.md, "The envelope's life
 * after sending"), statuses into the journal and envelope.json, completed
 * envelopes collected once, the same reports as `run`. Exit 0, or 1 when a
 * collection failed; 2 for invalid input.
 */
const syncCommand: CommandHandler = async ({ args, options, io, signal }) => {
  const patterns = (args[0] as string[] | undefined) ?? [];
  const prepared = await preparedOrDiagnostics(io, patterns, {
    nothingDone: (errors) => `Nothing was asked: fix the ${errors} error(s) above, then sync again.\n`,
    printWarnings: true,
    summaryTitle: 'signrun sync',
    reports: { out: options['out'] as string | undefined },
    signal,
  });
  if (!prepared) return ExitCode.invalid;
  const { config, jobs } = prepared;
  const outDir = path.resolve(io.cwd, (options['out'] as string | undefined) ?? config.outDir);
  const stateDir = path.resolve(io.cwd, (options['state'] as string | undefined) ?? path.join(outDir, '.signrun'));
  const out = new OutputFolder(outDir);
  const colour = pc.createColors(useColour(io, 'stdout'));
  const target = await resolveTarget(config, async (sandboxOptions) =>
    (await import('../../sandbox/index.js')).startSandbox(sandboxOptions),
  );
  try {
    // An out folder of runs against a service (target.json) is not "nothing to sync": the state check names that service.
    if (target.sandbox && (await recordedStateTarget(stateDir)) === undefined) {
      io.stdout.write(
        `No DOCUSIGN_ROOT_URL configured: an in-process sandbox holds no envelope of an earlier run, so there is nothing to sync. Point signrun at the service that sent them (\`npx signrun serve\` and DOCUSIGN_ROOT_URL for the sandbox).\n`,
      );
    } else if (!target.sandbox) {
      io.stdout.write(`Target: ${shownUrl(target.rootUrl)}\n`);
    }
    const minSeconds = options['minInterval'] as number | undefined;
    const summary = await sync({
      jobs,
      target: { rootUrl: target.rootUrl, sandbox: target.sandbox, auth: target.auth },
      outDir,
      stateDir,
      signal,
      force: options['force'] === true,
      combined: options['combined'] === true,
      ...(minSeconds !== undefined ? { minListingIntervalMs: minSeconds * 1000 } : {}),
      command: ['signrun', 'sync', ...patterns].join(' '),
      onEvent: (event) => {
        if (event.type === 'warning') io.stderr.write(`warning: ${event.message}\n`);
      },
    });
    try {
      const report = reportOf(summary, io.cwd);
      await writeReports(out, report, { previewDirs: previewDirsOf(io.cwd, outDir) });
      await appendReportToStepSummary(io, path.join(outDir, 'report.md'));
      await annotateFailures(io, report);
      const { sync: info } = summary;
      io.stdout.write(
        info.listed
          ? `Listed status changes in ${info.listingCalls} call(s); collected ${info.downloads} file(s) of completed envelopes (documents, certificates, form data).\n`
          : info.sent === 0
            ? 'No listing made: no envelope of these job files was sent yet.\n'
            : `No listing made (polling rule); next listing from ${info.nextListingAt ?? 'now'}.\n`,
      );
      if (info.formDataFromListing > 0)
        io.stdout.write(
          `Form data of ${info.formDataFromListing} completed envelope(s) from the status listing (recipients with their tabs): ${info.formDataFromListing} call(s) saved.\n`,
        );
      if (info.formDataReads > 0)
        io.stdout.write(`Form data of ${info.formDataReads} completed envelope(s) read with one call each.\n`);
      if (info.formDataFromConnect > 0)
        io.stdout.write(
          `Form data of ${info.formDataFromConnect} completed envelope(s) from Connect (signrun listen): ${info.formDataFromConnect} call(s) saved.\n`,
        );
      for (const table of info.formData)
        io.stdout.write(
          `What the signers entered: ${shownPath(io.cwd, path.join(outDir, table.path))} (${table.envelopes} completed envelope(s)).\n`,
        );
      io.stdout.write(await consoleSummary(report, { outShown: shownPath(io.cwd, outDir), colour }));
      return exitCodeOf(summary);
    } finally {
      await summary.close();
    }
  } finally {
    await target.close();
  }
};
export default syncCommand;
