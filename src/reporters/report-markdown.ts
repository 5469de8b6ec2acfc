import {
  placeOfEnvelope,
  verdictOf,
  type AccountResult,
  type EnvelopeResult,
  type RunVerdict,
} from '../runner/run-summary.js';
import type { ReportSource } from './report-json.js';
import { countStatuses, oldestFirst, statusLine, stillToSignOf, type StillToSign } from './still-to-sign.js';
import { settledReasonOf } from './settled-reason.js';
import { durationText as duration } from './duration-text.js';
import { syncOfUnsent, unsentBySync } from './unsent-by-sync.js';

/** The title of report.md for each verdict (`# signrun run …`, `# signrun sync …`). */
const verdictTitles: Record<RunVerdict, string> = {
  interrupted: 'interrupted',
  'budget-spent': 'stopped: hourly call budget spent (SR_CALL_BUDGET_SPENT)',
  failed: 'failed',
  succeeded: 'succeeded',
};

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Text from outside (a service's error message, a name from a CSV) as plain
 * text of a table cell: report.md is rendered (GitHub's step summary, a
 * pull-request comment), so HTML is escaped as entities and the brackets of
 * a markdown link or image, and backslashes, are escaped too; `|` and line
 * breaks would end the cell. A message's own code spans (signrun's hints:
 * `npx signrun run <paths> --replace-drifted`) stay code spans, written as
 * they are: markdown shows a code span's text literally, entities included,
 * so an escaped `<` there would read `&lt;`; and nothing in one is HTML or a
 * link. Any other backtick is escaped, so that what is code here is what
 * markdown takes as code.
 */
function cell(text: string): string {
  return text
    .replace(/\r?\n/g, ' ')
    .split(/(`[^`]+`)/)
    .map((part, i) => (i % 2 === 1 ? part.replace(/\|/g, '\\|') : plainCellText(part)))
    .join('');
}

/** Text of a cell outside its code spans: entities for HTML, backslashes before markdown's link and code marks. */
function plainCellText(text: string): string {
  return text.replace(/[&<>]/g, (c) => ENTITIES[c]!).replace(/[\\[\]|`]/g, '\\$&');
}

/** Text inside a code span: shown as it is, except a backtick (which would end the span) and `|`. */
function code(text: string): string {
  return `\`${text.replace(/\r?\n/g, ' ').replace(/`/g, "'").replace(/\|/g, '\\|')}\``;
}

/** Items listed under a heading before "…and N more". */
const MAX_FAILED = 200;
const MAX_WAITING = 50;
const MAX_STILL_TO_SIGN = 200;

/** What report.md lists, gathered in one read of the envelopes: counts, and the capped lists of what it shows. */
interface Listed {
  succeededCalls: number;
  failedCount: number;
  failedListed: Array<EnvelopeResult | AccountResult>;
  waitingCount: number;
  waiting: EnvelopeResult[];
  notStartedCount: number;
  statuses: Map<string, number>;
  stillToSign: StillToSign[];
  settledCount: number;
  settledListed: Array<{ name: string; reason: string }>;
}

/**
 * report.md: a summary a CI job can paste into its step summary
 * (`cat out/report.md >> $GITHUB_STEP_SUMMARY`). Lists totals, API use and
 * the items that need attention (failed, waiting for turn, awaiting
 * activation, not started), each list capped; successful envelopes are only
 * counted. One read of the envelopes, keeping only what is listed.
 */
export async function reportMarkdown(source: ReportSource): Promise<string> {
  const { head: report, accounts } = source;
  const listed = await gatherListed(source);
  const lines: string[] = [
    ...summaryLines(report, listed.succeededCalls),
    ...templatesSection(report),
    ...(listed.statuses.size > 0
      ? [`Envelopes: ${statusLine(listed.statuses)} (completed, declined and voided are settled).`, '']
      : []),
    ...stillToSignSection(listed.stillToSign),
    ...settledSection(listed),
    ...failedSection(listed),
    ...waitingSection(listed),
    ...activationSection(accounts),
    ...notStartedLines(report, listed.notStartedCount),
  ];
  return `${lines.join('\n')}\n`;
}

/** Reads the envelopes once, counting them and keeping the first of each list report.md shows. */
async function gatherListed(source: ReportSource): Promise<Listed> {
  const { accounts } = source;
  const listed: Listed = {
    succeededCalls: 0,
    failedCount: 0,
    failedListed: [],
    waitingCount: 0,
    waiting: [],
    notStartedCount: 0,
    statuses: new Map<string, number>(),
    stillToSign: [],
    settledCount: 0,
    settledListed: [],
  };
  for await (const e of source.envelopes()) {
    const reason = settledReasonOf(e);
    if (reason) {
      listed.settledCount += 1;
      if (listed.settledListed.length < MAX_FAILED) listed.settledListed.push({ name: `${e.job}/${e.key}`, reason });
    }
    countStatuses(listed.statuses, e);
    listed.stillToSign.push(...stillToSignOf(e));
    if (e.outcome === 'succeeded') listed.succeededCalls += e.apiCalls;
    else if (e.outcome === 'failed') {
      listed.failedCount += 1;
      if (listed.failedListed.length < MAX_FAILED) listed.failedListed.push(e);
    } else listed.notStartedCount += 1;
    if (e.recipients.some((r) => r.signing === 'waiting-for-turn')) {
      listed.waitingCount += 1;
      if (listed.waiting.length < MAX_WAITING) listed.waiting.push(e);
    }
  }
  const failedAccounts = accounts.filter((a) => a.outcome === 'failed');
  for (const a of failedAccounts) if (listed.failedListed.length < MAX_FAILED) listed.failedListed.push(a);
  listed.failedCount += failedAccounts.length;
  listed.notStartedCount += accounts.filter((a) => a.outcome === 'not-started').length;
  return listed;
}

type ReportHead = ReportSource['head'];

/** The title, the target, the totals table and the API's use. */
function summaryLines(report: ReportHead, succeededCalls: number): string[] {
  const t = report.totals;
  const lines: string[] = [];
  lines.push(`# signrun ${report.command ?? 'run'} ${verdictTitles[verdictOf(report)]}`, '');
  lines.push(
    `Target: ${report.target.sandbox ? 'in-process sandbox ' : ''}\`${report.target.rootUrl}\` · run \`${report.runId}\` · ${duration(report.durationMs)} · concurrency ${report.concurrency}`,
    '',
  );
  lines.push('| | total | succeeded | failed | not started |', '|---|---:|---:|---:|---:|');
  lines.push(
    `| envelopes | ${t.envelopes.total} | ${t.envelopes.succeeded} | ${t.envelopes.failed} | ${t.envelopes.notStarted} |`,
  );
  const accountsOk = t.accounts.created + t.accounts.upToDate + t.accounts.deleted + t.accounts.alreadyAbsent;
  lines.push(`| accounts | ${t.accounts.total} | ${accountsOk} | ${t.accounts.failed} | ${t.accounts.notStarted} |`);
  if (t.templates)
    lines.push(
      `| templates | ${t.templates.total} | ${t.templates.total - t.templates.failed} | ${t.templates.failed} | 0 |`,
    );
  lines.push('');
  const perEnvelope = t.envelopes.succeeded > 0 ? (succeededCalls / t.envelopes.succeeded).toFixed(1) : '–';
  const rl = report.api.rateLimit;
  lines.push(
    `API calls: ${report.api.calls} (${report.api.retries} retries, ${report.api.failedCalls} failed answers; ${perEnvelope} per envelope)` +
      (rl?.remaining !== undefined
        ? ` · rate limit: ${rl.remaining}/${rl.limit ?? '?'} left${rl.resetAt ? `, resets ${rl.resetAt}` : ''}`
        : ''),
    '',
  );
  return lines;
}

/** ## Templates: each template's outcome and what differed. */
function templatesSection(report: ReportHead): string[] {
  const templates = report.templates ?? [];
  if (templates.length === 0) return [];
  const lines = ['## Templates', '', '| template | outcome | templateId | what differed |', '|---|---|---|---|'];
  for (const m of templates) {
    const outcome =
      m.outcome === 'updated' && m.outside
        ? 'put back (changed outside signrun)'
        : m.outcome === 'failed'
          ? `failed: ${m.error?.code ?? ''} ${m.error?.message ?? ''}`
          : m.outcome;
    lines.push(
      `| ${code(`${m.job}/${m.key}`)} | ${cell(outcome)} | ${cell(m.templateId ?? '')} | ${cell((m.differences ?? []).join('; '))} |`,
    );
  }
  lines.push('');
  return lines;
}

/** ## Still to sign: the recipients a sync found not yet done, oldest first. */
function stillToSignSection(stillToSign: StillToSign[]): string[] {
  if (stillToSign.length === 0) return [];
  stillToSign.sort(oldestFirst);
  const lines = [
    '## Still to sign (oldest first)',
    '',
    `As of the last \`npx signrun sync\`. Not failures: ${nextStepOfStillToSign(stillToSign)}`,
    '',
    '| envelope | recipient | status | since |',
    '|---|---|---|---|',
  ];
  for (const r of stillToSign.slice(0, MAX_STILL_TO_SIGN)) {
    const parts = [r.part, r.embedded ? 'embedded' : undefined].filter((p) => p !== undefined);
    lines.push(
      `| ${code(`${r.job}/${r.key}`)} | ${cell(r.name ?? r.recipientId)}${r.email ? ` <${cell(r.email)}>` : ''}${parts.length > 0 ? ` (${cell(parts.join(', '))})` : ''} | ${r.status} | ${r.since ?? ''} |`,
    );
  }
  if (stillToSign.length > MAX_STILL_TO_SIGN)
    lines.push('', `…and ${stillToSign.length - MAX_STILL_TO_SIGN} more (see report.json).`);
  lines.push('');
  return lines;
}

/**
 * What brings those still to sign to it: `remind` (DocuSign's resend) for
 * those who sign from the service's email; an embedded recipient signs in
 * the sender's application, where `remind` sends nothing (docs/after-sending.md,
 * "Remind now"), so a fresh signing address is theirs.
 */
function nextStepOfStillToSign(stillToSign: readonly StillToSign[]): string {
  const remind = '`npx signrun remind` sends them the notification again.';
  const signUrl = '`npx signrun sign-url <out> <key> [recipient]` makes a fresh signing address for them.';
  const embedded = stillToSign.filter((r) => r.embedded === true).length;
  if (embedded === 0) return remind;
  if (embedded === stillToSign.length) return `they sign in your application (embedded): ${signUrl}`;
  return `\`npx signrun remind\` sends the notification again to those who sign by email; for the embedded ones, who sign in your application, ${signUrl}`;
}

/** ## Declined and voided: why each settled envelope ended. */
function settledSection({ settledCount, settledListed }: Listed): string[] {
  if (settledCount === 0) return [];
  const lines = [
    '## Declined and voided',
    '',
    'Settled, not failures: why each one ended.',
    '',
    '| envelope | why |',
    '|---|---|',
  ];
  for (const s of settledListed) lines.push(`| ${code(s.name)} | ${cell(s.reason)} |`);
  if (settledCount > MAX_FAILED) lines.push('', `…and ${settledCount - MAX_FAILED} more (see report.json).`);
  lines.push('');
  return lines;
}

/**
 * ## Failed: each failed envelope and account, where it is written (an
 * envelope of a forEach at its row, as the console and the annotations
 * point: what differs from row to row is there) and what happened.
 */
function failedSection({ failedCount, failedListed }: Listed): string[] {
  if (failedCount === 0) return [];
  const lines = ['## Failed', '', '| item | where | step | code | what happened |', '|---|---|---|---|---|'];
  for (const item of failedListed) {
    const where = placeOfEnvelope(item);
    lines.push(
      `| ${code(`${item.job}/${item.key}`)} | ${cell(`${where.file}:${where.line}`)} | ${cell(item.error?.step ?? '')} | ${code(item.error?.code ?? '')} | ${cell(item.error?.message ?? '')} |`,
    );
  }
  if (failedCount > MAX_FAILED) lines.push('', `…and ${failedCount - MAX_FAILED} more (see report.json).`);
  lines.push('');
  return lines;
}

/** ## Waiting for their turn: the signers who get their address later. */
function waitingSection({ waitingCount, waiting }: Listed): string[] {
  if (waitingCount === 0) return [];
  const lines = [
    '## Waiting for their turn',
    '',
    'Not failures: these signers get their address later, with `npx signrun sign-url <out> <key> <recipient>`.',
    '',
  ];
  for (const e of waiting) {
    const who = e.recipients
      .filter((r) => r.signing === 'waiting-for-turn')
      .map((r) => r.clientUserId ?? r.recipientId);
    lines.push(`- ${code(`${e.job}/${e.key}`)}: ${who.map((w) => code(w)).join(', ')}`);
  }
  if (waitingCount > MAX_WAITING) lines.push(`- …and ${waitingCount - MAX_WAITING} more`);
  lines.push('');
  return lines;
}

/** ## Accounts awaiting activation. */
function activationSection(accounts: readonly AccountResult[]): string[] {
  const activation = accounts.filter((a) => a.awaitingActivation);
  if (activation.length === 0) return [];
  const lines = [
    '## Accounts awaiting activation',
    '',
    'Not failures: the initial user activates the account from the activation message.',
    '',
  ];
  for (const a of activation) lines.push(`- ${code(`${a.job}/${a.key}`)}: account ${cell(a.accountId ?? '?')}`);
  lines.push('');
  return lines;
}

/** Why items were not started (the call budget spent, an interruption, or, for a sync, never sent) and what to do next. */
function notStartedLines(report: ReportHead, notStartedCount: number): string[] {
  if (notStartedCount === 0) return [];
  if (syncOfUnsent(report)) return [`${notStartedCount} ${unsentBySync}`, ''];
  if (report.callBudget?.exhausted)
    return [
      `${notStartedCount} item(s) were not started because the hourly call budget was spent (SR_CALL_BUDGET_SPENT, ${report.callBudget.used} calls made); run the same command again after ${report.callBudget.resumeAt ?? 'the hour'} to continue.`,
      '',
    ];
  return [
    `${notStartedCount} item(s) were not started because the run was interrupted; run the same command again to continue.`,
    '',
  ];
}
