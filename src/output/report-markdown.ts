import type { RunReport } from './report-json.js';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  return s < 120 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/**
 * report.md: a summary a CI job can paste into its step summary
 * (`cat out/report.md >> $GITHUB_STEP_SUMMARY`). Lists totals, API use and
 * every item that needs attention (failed, waiting for turn, awaiting
 * activation, not started); successful envelopes are only counted.
 */
export function reportMarkdown(report: RunReport): string {
  const t = report.totals;
  const lines: string[] = [];
  const verdict = report.interrupted
    ? 'interrupted'
    : report.callBudget?.exhausted
      ? 'stopped: hourly call budget spent (SR_CALL_BUDGET_SPENT)'
      : t.envelopes.failed + t.accounts.failed > 0
        ? 'failed'
        : 'succeeded';
  lines.push(`# signrun run ${verdict}`, '');
  lines.push(
    `Target: ${report.target.sandbox ? 'in-process sandbox ' : ''}\`${report.target.rootUrl}\` · run \`${report.runId}\` · ${duration(report.durationMs)} · concurrency ${report.concurrency}`,
    '',
  );
  lines.push('| | total | succeeded | failed | not started |', '|---|---:|---:|---:|---:|');
  lines.push(
    `| envelopes | ${t.envelopes.total} | ${t.envelopes.succeeded} | ${t.envelopes.failed} | ${t.envelopes.notStarted} |`,
  );
  const accountsOk = t.accounts.created + t.accounts.upToDate + t.accounts.deleted + t.accounts.alreadyAbsent;
  lines.push(
    `| accounts | ${t.accounts.total} | ${accountsOk} | ${t.accounts.failed} | ${t.accounts.notStarted} |`,
    '',
  );
  const perEnvelope =
    t.envelopes.succeeded > 0
      ? (
          report.envelopes.filter((e) => e.outcome === 'succeeded').reduce((n, e) => n + e.apiCalls, 0) /
          t.envelopes.succeeded
        ).toFixed(1)
      : '–';
  const rl = report.api.rateLimit;
  lines.push(
    `API calls: ${report.api.calls} (${report.api.retries} retries, ${report.api.failedCalls} failed answers; ${perEnvelope} per envelope)` +
      (rl?.remaining !== undefined
        ? ` · rate limit: ${rl.remaining}/${rl.limit ?? '?'} left${rl.resetAt ? `, resets ${rl.resetAt}` : ''}`
        : ''),
    '',
  );

  const failed = [...report.envelopes, ...report.accounts].filter((i) => i.outcome === 'failed');
  if (failed.length > 0) {
    lines.push('## Failed', '', '| item | where | step | code | what happened |', '|---|---|---|---|---|');
    for (const item of failed.slice(0, 200)) {
      lines.push(
        `| \`${cell(`${item.job}/${item.key}`)}\` | ${cell(`${item.source.file}:${item.source.line}`)} | ${cell(item.error?.step ?? '')} | \`${item.error?.code ?? ''}\` | ${cell(item.error?.message ?? '')} |`,
      );
    }
    if (failed.length > 200) lines.push('', `…and ${failed.length - 200} more (see report.json).`);
    lines.push('');
  }
  const waiting = report.envelopes.filter((e) => e.recipients.some((r) => r.signing === 'waiting-for-turn'));
  if (waiting.length > 0) {
    lines.push(
      '## Waiting for their turn',
      '',
      'Not failures: these signers get their address later, with `signrun sign-url <out> <key> <recipient>`.',
      '',
    );
    for (const e of waiting.slice(0, 50)) {
      const who = e.recipients
        .filter((r) => r.signing === 'waiting-for-turn')
        .map((r) => r.clientUserId ?? r.recipientId);
      lines.push(`- \`${cell(`${e.job}/${e.key}`)}\`: ${who.map((w) => `\`${cell(w)}\``).join(', ')}`);
    }
    if (waiting.length > 50) lines.push(`- …and ${waiting.length - 50} more`);
    lines.push('');
  }
  const activation = report.accounts.filter((a) => a.awaitingActivation);
  if (activation.length > 0) {
    lines.push(
      '## Accounts awaiting activation',
      '',
      'Not failures: the initial user activates the account from the activation message.',
      '',
    );
    for (const a of activation) lines.push(`- \`${cell(`${a.job}/${a.key}`)}\`: account ${a.accountId ?? '?'}`);
    lines.push('');
  }
  const notStarted = [...report.envelopes, ...report.accounts].filter((i) => i.outcome === 'not-started');
  if (notStarted.length > 0 && report.callBudget?.exhausted) {
    lines.push(
      `${notStarted.length} item(s) were not started because the hourly call budget was spent (SR_CALL_BUDGET_SPENT, ${report.callBudget.used} calls made); run the same command again after ${report.callBudget.resumeAt ?? 'the hour'} to continue.`,
      '',
    );
  } else if (notStarted.length > 0)
    lines.push(
      `${notStarted.length} item(s) were not started because the run was interrupted; run the same command again to continue.`,
      '',
    );
  return `${lines.join('\n')}\n`;
}
