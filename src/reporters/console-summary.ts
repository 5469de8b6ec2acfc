import path from 'node:path';
import { placeOfEnvelope, verdictOf, type AccountResult, type EnvelopeResult } from '../runner/run-summary.js';
import { reportFiles } from '../output/output-paths.js';
import { summaryWords } from '../runner/resources/resource-words.js';
import { jobResourceKinds } from '../runner/resources/job-resource-kinds.js';
import { terminalSafe as safe } from '../output/terminal-text.js';
import { hintOf } from '../errors/catalogue.js';
import type { ReportHead, ReportSource } from './report-json.js';
import { countStatuses, oldestFirst, statusLine, stillToSignOf, type StillToSign } from './still-to-sign.js';
import { countEnvelopeResult, emptyEnvelopeCounts, envelopeCountsText } from './envelope-counts.js';
import { durationText } from './duration-text.js';
import { syncOfUnsent, unsentBySync } from './unsent-by-sync.js';

/** Recipients still to sign listed on the console, oldest first. */
const maxStillToSign = 10;

/** Options of {@link consoleSummary}. */
export interface ConsoleSummaryOptions {
  /** Output folder as the user should read it (relative to the working folder when inside it). */
  outShown: string;
  colour: {
    red(s: string): string;
    green(s: string): string;
    yellow(s: string): string;
    bold(s: string): string;
    dim(s: string): string;
  };
  /** Failed items listed before "…and N more". Default 20. */
  maxFailures?: number;
  /** The reports on disk, when not all of them could be written. Default: all three. */
  reportsWritten?: readonly string[];
}

/**
 * The final summary on the console: outcome, counts, what needs attention,
 * where the outputs are. One read of the envelopes, keeping only the failed
 * ones it lists.
 */
export async function consoleSummary(source: ReportSource, options: ConsoleSummaryOptions): Promise<string> {
  const { head: report, accounts } = source;
  const max = options.maxFailures ?? 20;
  const failed: Array<AccountResult | EnvelopeResult> = accounts.filter((a) => a.outcome === 'failed');
  let failedCount = failed.length;
  let ready = 0;
  let succeeded = 0;
  let onDemand = 0;
  let succeededCalls = 0;
  const statuses = new Map<string, number>();
  let stillToSign: StillToSign[] = [];
  let stillToSignCount = 0;
  const done = emptyEnvelopeCounts();
  for await (const e of source.envelopes()) {
    countStatuses(statuses, e);
    countEnvelopeResult(done, e);
    const waiting = stillToSignOf(e);
    stillToSignCount += waiting.length;
    stillToSign.push(...waiting);
    // Only the oldest few are shown: keep the list short as it grows.
    if (stillToSign.length > 4 * maxStillToSign) stillToSign = stillToSign.sort(oldestFirst).slice(0, maxStillToSign);
    for (const r of e.recipients) if (r.signing === 'ready') ready += 1;
    for (const r of e.recipients) if (r.signing === 'on-demand') onDemand += 1;
    if (e.outcome === 'succeeded') {
      succeeded += 1;
      succeededCalls += e.apiCalls;
    } else if (e.outcome === 'failed') {
      failedCount += 1;
      if (failed.length < max) failed.push(e);
    }
  }
  const c = options.colour;
  const t = report.totals;
  const lines: string[] = [];
  const budget = report.callBudget?.exhausted ? report.callBudget : undefined;
  const verdict = verdictOf(report);
  const head = {
    interrupted: () => c.yellow(c.bold('Interrupted')),
    'budget-spent': () => c.yellow(c.bold('Stopped: hourly call budget spent')),
    failed: () => c.red(c.bold('Finished with failures')),
    succeeded: () => c.green(c.bold('Done')),
  }[verdict]();
  const parts: string[] = [];
  if (t.envelopes.total > 0 && report.command === 'sync')
    // A sync sends nothing: it says what the service said of envelopes sent before.
    parts.push(
      `${t.envelopes.succeeded} of ${t.envelopes.total} envelope(s) brought up to date${t.envelopes.failed ? `, ${c.red(`${t.envelopes.failed} failed`)}` : ''}`,
    );
  else if (t.envelopes.total > 0)
    // What the run did with them: sent (or adopted), voided, found settled, failed.
    parts.push(envelopeCountsText(done, (s) => c.red(s)));
  // What the job files keep in the account run against (templates), each kind of the job catalogue in its words.
  const words = { red: (text: string) => c.red(text), safe };
  for (const kind of jobResourceKinds) {
    const totals = t[kind.field];
    if (totals && totals.total > 0) parts.push(kind.summaryText(totals, words));
  }
  if (t.accounts.total > 0) parts.push(...accountsText(t.accounts, accounts, c));
  // Stopped before any item ended: not "nothing to do" (its items are counted as not started just below).
  const nothing = verdict === 'interrupted' || budget ? 'nothing finished' : 'nothing to do';
  lines.push(`${head} in ${durationText(report.durationMs)}: ${parts.join('; ') || nothing}.`);
  if (budget) {
    lines.push(
      `  ${c.bold('SR_CALL_BUDGET_SPENT')}: ${budget.used} call(s) made; ${t.envelopes.notStarted + t.accounts.notStarted} item(s) not started. Run the same command again after ${budget.resumeAt ?? 'the hour'}: it continues where this one stopped.`,
    );
  } else if (t.envelopes.notStarted > 0 && syncOfUnsent(report)) {
    lines.push(`  ${t.envelopes.notStarted} ${unsentBySync}`);
  } else if (t.envelopes.notStarted + t.accounts.notStarted > 0) {
    lines.push(
      `  ${t.envelopes.notStarted + t.accounts.notStarted} item(s) not started; run the same command again to continue.`,
    );
  }
  if (ready > 0 && report.target.sandbox) {
    lines.push(
      `  ${ready} signing address(es) in <job>/<key>/signing.json; the in-process sandbox stopped with this run, so they no longer open.`,
    );
    lines.push(
      '  To keep them: `npx signrun serve` in another terminal, then `DOCUSIGN_ROOT_URL=http://127.0.0.1:8080/restapi/v2 npx signrun run …` (it logs in with the seed user of the sandbox).',
    );
  } else if (ready > 0) {
    lines.push(
      `  ${ready} signing address(es) in <job>/<key>/signing.json (they expire: get a fresh one with \`npx signrun sign-url ${options.outShown} <key> [recipient]\`).`,
    );
  }
  for (const kind of jobResourceKinds) lines.push(...kind.resultLines(report[kind.field] ?? [], words));
  if (onDemand > 0)
    lines.push(
      `  ${onDemand} embedded signer(s) get their signing address on demand (listed in <job>/<key>/signing.json): \`npx signrun links serve <paths> --out ${options.outShown}\` gives each a stable link, or \`npx signrun sign-url ${options.outShown} <key> [recipient]\` makes one now.`,
    );
  if (statuses.size > 0)
    lines.push(`  Envelopes: ${statusLine(statuses)} (completed, declined and voided are settled).`);
  if (stillToSignCount > 0) {
    lines.push(`  Still to sign (${stillToSignCount}, oldest first):`);
    for (const r of stillToSign.sort(oldestFirst).slice(0, maxStillToSign))
      lines.push(
        `    ${safe(`${r.job}/${r.key}`)}: ${safe(r.name ?? r.recipientId)}${r.email ? ` <${safe(r.email)}>` : ''}${r.part ? ` (${safe(r.part)})` : ''} ${safe(r.status)}${r.since ? ` since ${safe(r.since)}` : ''}`,
      );
    if (stillToSignCount > maxStillToSign)
      lines.push(`    …and ${stillToSignCount - maxStillToSign} more in report.md`);
  }
  if (t.envelopes.waitingForTurn > 0)
    lines.push(
      `  ${t.envelopes.waitingForTurn} signer(s) wait for their turn (not a failure): ask for their address later with \`npx signrun sign-url\`.`,
    );
  const perEnvelope = succeeded > 0 ? succeededCalls / succeeded : undefined;
  const rl = report.api.rateLimit;
  lines.push(
    c.dim(
      `  API calls: ${report.api.calls}${perEnvelope !== undefined ? ` (${perEnvelope.toFixed(1)} per envelope)` : ''}, ${report.api.retries} retries` +
        (rl?.remaining !== undefined ? `; rate limit: ${rl.remaining} of ${rl.limit ?? '?'} left this hour` : ''),
    ),
  );
  for (const item of failed.slice(0, max)) {
    const at = 'rowSource' in item ? placeOfEnvelope(item) : item.source;
    lines.push(
      `  ${c.red('✗')} ${safe(`${at.file}:${at.line}:${at.column} ${item.job}/${item.key}`)} ${c.bold(item.error?.code ?? '')} ${item.error?.step ? `(${item.error.step}) ` : ''}${safe(item.error?.message ?? '')}`,
    );
  }
  if (failedCount > max) lines.push(`  …and ${failedCount - max} more in report.json`);
  // What to do about each code shown, once per code however many items failed with it.
  for (const code of new Set(failed.slice(0, max).map((item) => item.error?.code))) {
    const hint = hintOf(code);
    if (hint) lines.push(c.dim(`  ${code}: ${hint}`));
  }
  if (failedCount > 0 && !report.target.sandbox) {
    lines.push(
      '  Fix what the codes say (docs/errors.md), then run the same command again: envelopes already sent are adopted, never sent twice, and finished steps are skipped.',
    );
  }
  const reports = options.reportsWritten ?? reportFiles;
  lines.push(
    `Outputs in ${options.outShown}${path.sep}: ${reports.length > 0 ? `${reports.join(', ')}, and ` : 'no report (see the error below), '}one folder per envelope and account (<job>/<key>/).`,
  );
  return `${lines.join('\n')}\n`;
}

/** What the run did with the templates kept as code, in words: `template(s): 1 created, 2 up to date`. */
/**
 * What the run did with the accounts, then with what they hold (each kind
 * of the catalogue in its words, resource-words.ts): `account(s): 1 up to
 * date`, `profiles, groups, users and brands: 3 created, 2 no change`.
 */
function accountsText(
  a: ReportHead['totals']['accounts'],
  accounts: readonly AccountResult[],
  c: ConsoleSummaryOptions['colour'],
): string[] {
  const words: string[] = [];
  // A distributor's new account awaits its user's activation; an organisation's is active at once.
  const awaiting = accounts.filter((x) => x.outcome === 'created' && x.awaitingActivation).length;
  const waits =
    awaiting === 0 ? '' : awaiting === a.created ? ' (awaiting activation)' : ` (${awaiting} awaiting activation)`;
  if (a.created) words.push(`${a.created} created${waits}`);
  if (a.upToDate) words.push(`${a.upToDate} up to date`);
  if (a.deleted) words.push(`${a.deleted} deleted`);
  if (a.alreadyAbsent) words.push(`${a.alreadyAbsent} already absent`);
  if (a.failed) words.push(c.red(`${a.failed} failed`));
  const parts = [`account(s): ${words.join(', ')}`];
  const contents = accounts.flatMap((x) => x.contents ?? []);
  if (contents.length === 0) return parts;
  const n = (outcome: string) => contents.filter((i) => i.outcome === outcome).length;
  const outside = contents.filter((i) => i.outside).length;
  const held = [
    n('created') ? `${n('created')} created` : '',
    n('updated') ? `${n('updated')} updated${outside ? ` (${outside} changed outside signrun, put back)` : ''}` : '',
    n('up-to-date') ? `${n('up-to-date')} no change` : '',
    n('deleted') ? `${n('deleted')} deleted (users closed)` : '',
    n('not-started') ? `${n('not-started')} waiting for the account's activation` : '',
    n('failed') ? c.red(`${n('failed')} failed`) : '',
  ].filter(Boolean);
  if (held.length > 0) parts.push(`${summaryWords(contents)}: ${held.join(', ')}`);
  return parts;
}
