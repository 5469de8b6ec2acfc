import path from 'node:path';
import { shownUrl } from '../../secret.js';
import type { CommandHandler } from '../command.js';
import { preflightDiagnostics, preparedOrDiagnostics, printDiagnostics } from '../prepared-or-diagnostics.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { jwtSettingsOf, resolveTarget } from '../../runner/target.js';
import { planJobs, planItemName, PreflightError, type DocumentsWhen, type PlanItem } from '../../runner/index.js';
import { callHours, type AccountContentsPlan } from '../../runner/plan-types.js';
import { itemWords } from '../../runner/resources/resource-words.js';
import { jobResourceKinds } from '../../runner/resources/job-resource-kinds.js';
import { organizationKindOf } from '../../runner/resources/organization-resource-kinds.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { appendStepSummary } from '../github-actions.js';
import { invalidInputMarkdown } from '../../reporters/invalid-input-report.js';

/** An account's profiles, groups and users under its line: what each becomes, and what differs. */
function contentsLines(contents: AccountContentsPlan): string[] {
  const lines: string[] = [];
  if (contents.unread) lines.push(`      (${contents.unread})`);
  for (const item of contents.items) {
    const what =
      item.action === 'update' && item.outside
        ? 'changed outside'
        : {
            create: 'create',
            update: 'update',
            'up-to-date': 'no change',
            delete: 'delete',
            'already-absent': 'already absent',
          }[item.action];
    // An item whose id is its name (an account setting) is named once.
    const id = item.id && item.id !== item.name ? `  ${item.id}` : '';
    lines.push(`      ${what.padEnd(16)} ${itemWords(item.kind)} ${item.name}${id}`);
    if (item.outside)
      lines.push('          changed outside signrun since signrun wrote it; `run` puts the job file’s version back:');
    for (const difference of item.differences) lines.push(`          ${difference}`);
  }
  return lines;
}

/** The plan as markdown for the step summary: a title, then the plan's text as it was printed. */
function planSummary(lines: readonly string[]): string {
  return ['# signrun plan', '', '```text', ...lines.map((l) => l.replace(/```/g, "'''")), '```', ''].join('\n');
}

/**
 * `signrun plan <paths...> [--out DIR] [--state DIR] [--documents WHEN] [--format text|json]`:
 * what a run would do — create, adopt, resume, up to date, drift, delete —
 * with the API calls it expects. The library's `planJobs`, the very code
 * `run` decides with: the journal (read, never locked) and, against a
 * configured service, one paged status-changes listing per job. With no root
 * URL configured the run would start an empty in-process sandbox, so
 * nothing is asked. Read-only; validation first (exit 2 on invalid input).
 */
const plan: CommandHandler = async ({ args, options, io, signal }) => {
  const patterns = (args[0] as string[] | undefined) ?? [];
  // On GitHub Actions, refused input is annotated and summarised; plan writes no
  // files (the output folder's reports are the last run's, not the plan's).
  const prepared = await preparedOrDiagnostics(io, patterns, { summaryTitle: 'signrun plan', signal });
  if (!prepared) return ExitCode.invalid;
  const outDir = path.resolve(io.cwd, (options['out'] as string | undefined) ?? prepared.config.outDir);
  const documents = options['documents'] as DocumentsWhen | undefined;
  // The configured service: a root URL, or the JWT grant (its root comes from userinfo).
  const target =
    prepared.config.rootUrl || jwtSettingsOf(prepared.config)
      ? await resolveTarget(prepared.config, () => {
          throw new SignrunError('SR_USAGE', 'plan never starts a sandbox');
        })
      : undefined;
  for (const warning of target?.warnings ?? []) io.stderr.write(`warning: ${warning}\n`);
  const rootUrl = target ? shownUrl(target.rootUrl) : undefined;
  let result;
  try {
    result = await planJobs({
      jobs: prepared.jobs,
      ...(options['replaceDrifted'] === true ? { replaceDrifted: true } : {}),
      ...(target ? { target: { rootUrl: target.rootUrl, sandbox: false, auth: target.auth } } : {}),
      // As `run`: the journal lives in the state folder only for a configured service.
      stateDir: path.resolve(io.cwd, (options['state'] as string | undefined) ?? path.join(outDir, '.signrun')),
      ...(documents ? { documents } : {}),
      ...(options['bulkSend'] === true ? { bulkSend: true } : {}),
      ...(target?.adminBase ? { adminBase: target.adminBase } : {}),
    });
  } catch (error) {
    // What run would refuse before sending anything: said at the job file's line, exit 2.
    if (!(error instanceof PreflightError)) throw error;
    const diagnostics = preflightDiagnostics(error.problems, io.cwd);
    printDiagnostics(io, diagnostics);
    await appendStepSummary(io, invalidInputMarkdown('signrun plan', diagnostics));
    return ExitCode.invalid;
  }
  if (options['format'] === 'json') {
    io.stdout.write(`${JSON.stringify({ target: rootUrl ?? null, outDir, ...result }, null, 2)}\n`);
    return ExitCode.ok;
  }
  const lines: string[] = [];
  lines.push(
    rootUrl
      ? `Plan against ${rootUrl} (its envelopes, and the journal in ${path.relative(io.cwd, outDir) || '.'}):`
      : `Plan against the in-process sandbox (no DOCUSIGN_ROOT_URL configured; it starts empty):`,
  );
  // What changes something already sent comes first (issue 12): replacements, then voids.
  const first = (item: PlanItem) => (item.decision.action === 'replace' ? 0 : item.decision.action === 'void' ? 1 : 2);
  result.items = [...result.items].sort((a, b) => first(a) - first(b));
  const width = Math.min(
    60,
    Math.max(
      ...result.items.map((i) => planItemName(i).length),
      ...jobResourceKinds.flatMap((kind) => result[kind.field].map((p) => p.identity.length)),
      10,
    ),
  );
  // What the job files keep in the account first (templates): a run converges them before any envelope (which may use them).
  for (const kind of jobResourceKinds)
    for (const planned of result[kind.field]) lines.push(...kind.planLines(planned, width));
  for (const item of result.items) {
    const what = item.kind === 'account' ? organizationKindOf(item.kind)!.planWords(item) : item.decision.action;
    const id =
      'envelopeId' in item.decision && item.decision.envelopeId
        ? `  ${item.decision.envelopeId}`
        : 'accountId' in item.decision
          ? `  ${item.decision.accountId}`
          : '';
    const bulk = item.kind === 'envelope' && item.bulkSend ? ['bulk send'] : [];
    const shown = item.kind === 'envelope' ? [...bulk, ...item.steps] : [];
    const steps = shown.length > 0 ? `  [${shown.join(', ')}]` : '';
    lines.push(`  ${what.padEnd(16)} ${planItemName(item).padEnd(width)} ${item.apiCalls} call(s)${id}${steps}`);
    if (item.kind === 'account' && item.contents) lines.push(...contentsLines(item.contents));
  }
  const count = (action: string) => result.items.filter((i: PlanItem) => i.decision.action === action).length;
  lines.push(
    `${count('create')} to create, ${count('adopt')} to adopt, ${count('resume')} to resume, ${count('up-to-date')} up to date, ${count('drift')} drifted, ${count('delete')} to delete; about ${result.totalApiCalls} API calls (login, listings and template reads included${result.bulkSendCalls !== undefined ? `; ${result.bulkSendCalls} of them Bulk Send's lists, sends and batch looks` : ''}); documents ${result.documents}.`,
  );
  if (rootUrl) {
    // The budget: how long these calls take at the account's hourly limit.
    const budget = callHours(result);
    const rl = result.rateLimit;
    const limit = budget.fromHeaders
      ? `this account allows ${budget.limit} calls an hour (${budget.remaining} left${rl?.resetAt ? ` until ${rl.resetAt}` : ''})`
      : `DocuSign's default limit is ${budget.limit} calls an hour (the service sent no X-RateLimit headers)`;
    lines.push(
      budget.fitsNow
        ? `Budget: about ${result.totalApiCalls} calls; ${limit}: the run fits in this hour.`
        : `Budget: about ${result.totalApiCalls} calls; ${limit}: the run needs about ${budget.hours} hours. It stops starting work when the hour's calls are spent and says when to run again, or, with \`npx signrun run --spread-over-hours\`, waits for each next hour and goes on (--max-calls-per-hour keeps room for other integrations).`,
    );
  }
  if (count('replace') + count('void') + count('settled') > 0)
    lines.push(
      `${count('replace')} to replace (voided with a reason, the new content sent under the same key), ${count('void')} to void, ${count('settled')} settled (completed, declined or voided: nothing to do).`,
    );
  if (count('drift') > 0)
    lines.push(
      'Drifted envelopes were sent with other content: a run refuses them (SR_ENVELOPE_DRIFT) rather than send them again; `npx signrun run --replace-drifted` voids each and sends the new content under the same key.',
    );
  io.stdout.write(`${lines.join('\n')}\n`);
  // On GitHub Actions the plan is also the step summary: a body ready for a pull-request comment.
  await appendStepSummary(io, planSummary(lines));
  return ExitCode.ok;
};
export default plan;
