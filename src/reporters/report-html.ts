import {
  placeOfEnvelope,
  type AccountResult,
  type EnvelopeResult,
  type RecipientOutcome,
} from '../runner/run-summary.js';
import { isSettledEnvelope, isStillToAct } from '../envelope/statuses.js';
import { partOf } from './still-to-sign.js';
import { errorCatalogue } from '../errors/catalogue.js';
import type { ReportSource } from './report-json.js';
import { settledReasonOf } from './settled-reason.js';
import {
  chartStatuses,
  statusChartSvg,
  statusColours,
  type ChartBucket,
  type ChartStatus,
} from './report-html-chart.js';

/** Rows listed per table before "…and N more": the page stays light at 100,000 envelopes. */
const MAX_ROWS = 200;

/** Fields other reporters may add to a recipient (names, their own status): shown when present. */
type ShownRecipient = RecipientOutcome & { name?: string; email?: string; status?: string };

function escape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** The chart's status of an envelope: DocuSign's word when it has one, else what stopped it. */
export function chartStatusOf(e: EnvelopeResult): ChartStatus {
  const s = e.status?.toLowerCase();
  if (s === 'created') return 'draft';
  if (s && (chartStatuses as readonly string[]).includes(s)) return s as ChartStatus;
  if (e.outcome === 'not-started') return 'not started';
  if (e.outcome === 'failed' && e.envelopeId === undefined) return 'failed';
  return 'sent';
}

function emptyCounts(): Record<ChartStatus, number> {
  return Object.fromEntries(chartStatuses.map((s) => [s, 0])) as Record<ChartStatus, number>;
}

/** Envelopes sent per hour (UTC), then shown per hour, day or month, whichever gives a readable number of bars. */
function buckets(
  byHour: Map<string, Record<ChartStatus, number>>,
  earlier: Record<ChartStatus, number>,
  unknown: Record<ChartStatus, number>,
): ChartBucket[] {
  const hours = [...byHour.keys()].sort();
  const first = hours[0];
  const last = hours.at(-1);
  let keyOf = (hour: string) => `${hour.slice(11, 13)}:00`;
  if (first && last && first.slice(0, 10) !== last.slice(0, 10)) {
    const days = (Date.parse(`${last.slice(0, 10)}T00:00Z`) - Date.parse(`${first.slice(0, 10)}T00:00Z`)) / 86_400_000;
    keyOf = days > 60 ? (hour) => hour.slice(0, 7) : (hour) => hour.slice(0, 10);
  }
  const merged = new Map<string, Record<ChartStatus, number>>();
  for (const hour of hours) {
    const key = keyOf(hour);
    const into = merged.get(key) ?? emptyCounts();
    const from = byHour.get(hour) ?? emptyCounts();
    for (const s of chartStatuses) into[s] += from[s];
    merged.set(key, into);
  }
  const list = [...merged].map(([label, counts]) => ({ label, counts }));
  if (chartStatuses.some((s) => earlier[s] > 0)) list.unshift({ label: 'sent earlier', counts: earlier });
  if (chartStatuses.some((s) => unknown[s] > 0)) list.push({ label: 'not sent', counts: unknown });
  return list;
}

function stillToSign(e: EnvelopeResult): ShownRecipient[] {
  if (e.outcome !== 'succeeded' || isSettledEnvelope(e.status) || e.status === 'created') return [];
  return (e.recipients as ShownRecipient[]).filter((r) => isStillToAct(r.status, r.kind));
}

function who(r: ShownRecipient): string {
  const part = partOf(r.kind);
  return `${r.name ?? r.clientUserId ?? r.roleName ?? `recipient ${r.recipientId}`}${part ? ` (${part})` : ''}`;
}

function howToSign(r: ShownRecipient): string {
  return r.signing === 'remote'
    ? 'by email'
    : r.signing === 'waiting-for-turn'
      ? 'waiting for their turn'
      : r.signing === 'on-demand'
        ? 'embedded (address made when they arrive)'
        : 'embedded';
}

interface JobTable {
  rows: string[];
  counts: Record<ChartStatus, number>;
  total: number;
}

function statusBadge(status: ChartStatus): string {
  return `<span class="badge" style="--c:${statusColours[status]}">${status}</span>`;
}

function more(n: number, what: string): string {
  return n > 0 ? `<p class="more">…and ${n} more ${what} (see report.json).</p>` : '';
}

/**
 * report.html: the campaign at a glance for people who do not read JSON —
 * a chart of envelopes by status, a table per job, who is still to sign,
 * and what failed with where and what to do. One self-contained file:
 * inline CSS and SVG, no script, no outside resource (its CSP forbids any),
 * readable at phone width. One read of the envelopes; each list capped.
 */
/** Why a declined or voided envelope ended, beneath its status. */
function settledReason(e: EnvelopeResult): string {
  const reason = settledReasonOf(e);
  return reason ? `<br><small>${escape(reason)}</small>` : '';
}

/** A link to an envelope's preview, opened beside the report. */
function previewLink(href: string | undefined): string {
  return href === undefined ? '' : ` <a href="${escape(href)}" target="_blank" rel="noopener">preview</a>`;
}

export async function reportHtml(
  source: ReportSource,
  options: {
    /** The link (relative to the report) to an envelope's `signrun preview`, when it has one. */
    previewHref?: (job: string, key: string) => string | undefined;
  } = {},
): Promise<string> {
  const { head } = source;
  const byHour = new Map<string, Record<ChartStatus, number>>();
  const unsent = emptyCounts();
  /** Envelopes the service has whose time no report gave: not "not sent". */
  const earlier = emptyCounts();
  const jobs = new Map<string, JobTable>();
  const toSign: string[] = [];
  let toSignCount = 0;
  const failed: Array<EnvelopeResult | AccountResult> = [];
  let failedCount = 0;

  for await (const e of source.envelopes()) {
    const status = chartStatusOf(e);
    // When this command sent it, else (an envelope a sync reports, sent by an earlier run) when its status last changed.
    const hour = (e.startedAt ?? e.statusAt)?.slice(0, 13);
    if (hour && status !== 'failed' && status !== 'not started') {
      const counts = byHour.get(hour) ?? emptyCounts();
      counts[status] += 1;
      byHour.set(hour, counts);
    } else if (e.envelopeId !== undefined) earlier[status] += 1;
    else unsent[status] += 1;

    const job = jobs.get(e.job) ?? { rows: [], counts: emptyCounts(), total: 0 };
    jobs.set(e.job, job);
    job.counts[status] += 1;
    job.total += 1;
    const pending = stillToSign(e);
    if (job.rows.length < MAX_ROWS)
      job.rows.push(
        `<tr><td><code>${escape(e.key)}</code>${previewLink(options.previewHref?.(e.job, e.key))}</td><td>${statusBadge(status)}${settledReason(e)}</td><td>${pending.map((r) => escape(who(r))).join(', ') || '–'}</td><td><code>${escape(`${placeOfEnvelope(e).file}:${placeOfEnvelope(e).line}`)}</code></td></tr>`,
      );
    for (const r of pending) {
      toSignCount += 1;
      if (toSign.length < MAX_ROWS)
        toSign.push(
          `<tr><td>${escape(who(r))}${r.email ? `<br><small>${escape(r.email)}</small>` : ''}</td><td><code>${escape(`${e.job}/${e.key}`)}</code></td><td>${howToSign(r)}</td></tr>`,
        );
    }
    if (e.outcome === 'failed') {
      failedCount += 1;
      if (failed.length < MAX_ROWS) failed.push(e);
    }
  }
  for (const a of source.accounts)
    if (a.outcome === 'failed') {
      failedCount += 1;
      if (failed.length < MAX_ROWS) failed.push(a);
    }

  const t = head.totals;
  const verdict = head.interrupted
    ? 'interrupted'
    : head.callBudget?.exhausted
      ? 'stopped: hourly call budget spent'
      : t.envelopes.failed + t.accounts.failed > 0
        ? 'failed'
        : 'succeeded';
  const chartBuckets = buckets(byHour, earlier, unsent);
  const totalsByStatus = emptyCounts();
  for (const b of chartBuckets) for (const s of chartStatuses) totalsByStatus[s] += b.counts[s];
  const legend = chartStatuses
    .filter((s) => totalsByStatus[s] > 0)
    .map((s) => `<li>${statusBadge(s)} ${totalsByStatus[s]}</li>`)
    .join('');

  const failedRows = failed.map((item) => {
    const code = item.error?.code ?? '';
    const hint = (errorCatalogue as Record<string, { hint?: string }>)[code]?.hint ?? '';
    // An envelope of a forEach at its row, as the envelopes' table above, the console and the annotations point.
    const where = placeOfEnvelope(item);
    return `<tr><td><code>${escape(`${item.job}/${item.key}`)}</code></td><td><code>${escape(`${where.file}:${where.line}`)}</code></td><td><code>${escape(code)}</code>${item.error?.step ? ` <small>(${escape(item.error.step)})</small>` : ''}<br>${escape(item.error?.message ?? '')}</td><td>${escape(hint)}</td></tr>`;
  });

  const jobSections = [...jobs]
    .map(
      ([name, job]) => `<section><h3><code>${escape(name)}</code> <small>${job.total} envelope(s): ${chartStatuses
        .filter((s) => job.counts[s] > 0)
        .map((s) => `${job.counts[s]} ${s}`)
        .join(', ')}</small></h3>
<div class="scroll"><table><thead><tr><th>key</th><th>status</th><th>still to sign</th><th>job file</th></tr></thead>
<tbody>${job.rows.join('\n')}</tbody></table></div>${more(job.total - job.rows.length, 'envelopes')}</section>`,
    )
    .join('\n');

  const when = head.endedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>signrun ${head.command ?? 'run'} report: ${escape(verdict)}</title>
<style>
:root{color-scheme:light;--fg:#1d1d1f;--muted:#555;--line:#e3e3e8}
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:var(--fg);background:#f5f5f7}
main{max-width:1100px;margin:auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.2rem;margin:1.5rem 0 .5rem}h3{font-size:1rem}
h3 small,.meta{color:var(--muted);font-weight:normal}
.card{background:#fff;border-radius:12px;padding:1rem;box-shadow:0 1px 3px #0002;margin-bottom:1rem}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:.75rem}
.tile{background:#fff;border-radius:10px;padding:.75rem;box-shadow:0 1px 3px #0002}
.tile b{display:block;font-size:1.6rem}
.chart{width:100%;max-width:760px;height:auto;display:block;margin:auto}
.legend{list-style:none;padding:0;margin:.5rem 0 0;display:flex;flex-wrap:wrap;gap:.5rem 1rem}
.badge{display:inline-block;padding:0 .5em;border-radius:1em;background:#f0f0f3;white-space:nowrap}
.badge::before{content:'';display:inline-block;width:.7em;height:.7em;border-radius:50%;background:var(--c);margin-right:.35em}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid var(--line)}
th{font-weight:600;background:#fafafa}
code{font-size:.85em;word-break:break-word}
.more{color:var(--muted)}
.verdict-failed{color:#b00020}.verdict-succeeded{color:#006b4f}
@media (max-width:600px){main{padding:.5rem}th,td{padding:.3rem}.tile b{font-size:1.3rem}}
</style></head>
<body><main>
<h1>signrun ${head.command ?? 'run'} <span class="verdict-${verdict === 'succeeded' ? 'succeeded' : 'failed'}">${escape(verdict)}</span></h1>
<p class="meta">Run <code>${escape(head.runId)}</code> on <code>${escape(head.target.rootUrl)}</code> · written ${escape(when)}</p>
<div class="tiles">
<div class="tile"><b>${t.envelopes.total}</b>envelope(s)</div>
<div class="tile"><b>${t.envelopes.succeeded}</b>sent (or already sent)</div>
<div class="tile"><b>${t.envelopes.failed}</b>failed</div>
<div class="tile"><b>${toSignCount}</b>signer(s) still to sign</div>
<div class="tile"><b>${t.accounts.total}</b>account(s)</div>
</div>
<h2>Envelopes by status</h2>
<div class="card">
${statusChartSvg(chartBuckets, 'Envelopes by the time they were sent, by status')}
<ul class="legend">${legend}</ul>
<p class="meta">Each bar is the envelopes sent in that period (UTC); its colours are their status when this report was written (${escape(when)}), as the service last told it (<code>npx signrun sync</code> brings it up to date).</p>
</div>
${failedCount > 0 ? `<h2>Failures (${failedCount})</h2><div class="card scroll"><table><thead><tr><th>item</th><th>where</th><th>what happened</th><th>next step</th></tr></thead><tbody>${failedRows.join('\n')}</tbody></table>${more(failedCount - failed.length, 'failures')}</div>` : ''}
<h2>Still to sign (${toSignCount})</h2>
<div class="card scroll">${toSignCount === 0 ? '<p>Nobody: every sent envelope is signed, settled or not sent.</p>' : `<table><thead><tr><th>signer</th><th>envelope</th><th>how</th></tr></thead><tbody>${toSign.join('\n')}</tbody></table>${more(toSignCount - toSign.length, 'signers')}`}</div>
<h2>Jobs</h2>
<div class="card">${jobSections || '<p>No envelopes in this run.</p>'}</div>
</main></body></html>
`;
}
