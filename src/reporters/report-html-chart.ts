import { scaleBand, scaleLinear } from 'd3-scale';

/** The statuses the chart stacks, in the order of an envelope's life, then what never got there. */
export const chartStatuses = [
  'draft',
  'sent',
  'delivered',
  'completed',
  'declined',
  'voided',
  'failed',
  'not started',
] as const;
export type ChartStatus = (typeof chartStatuses)[number];

/** Colours that stay apart for the common colour-vision deficiencies (Okabe–Ito). */
export const statusColours: Record<ChartStatus, string> = {
  draft: '#F0E442',
  sent: '#56B4E9',
  delivered: '#0072B2',
  completed: '#009E73',
  declined: '#E69F00',
  voided: '#999999',
  failed: '#D55E00',
  'not started': '#CC79A7',
};

/** One bar: a period and how many envelopes of it are in each status. */
export interface ChartBucket {
  label: string;
  counts: Record<ChartStatus, number>;
}

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

/**
 * A stacked bar chart as inline SVG, computed now (d3-scale's band layout
 * and nice ticks): no script, no network, and it scales with the page
 * (viewBox). Each bar is a period in which envelopes were sent; its
 * segments, their status when the report was written.
 */
export function statusChartSvg(buckets: ChartBucket[], title: string): string {
  const width = 480;
  const height = 240;
  const margin = { top: 12, right: 12, bottom: 44, left: 44 };
  const totals = buckets.map((b) => chartStatuses.reduce((n, s) => n + b.counts[s], 0));
  // A few bars stay bar-shaped: at most ~70 units of width per bar, centred.
  const plot = Math.min(width - margin.left - margin.right, Math.max(1, buckets.length) * 70);
  const start = margin.left + (width - margin.left - margin.right - plot) / 2;
  const x = scaleBand<string>()
    .domain(buckets.map((b) => b.label))
    .range([start, start + plot])
    .paddingInner(0.25)
    .paddingOuter(0.15);
  const y = scaleLinear()
    .domain([0, Math.max(1, ...totals)])
    .nice(5)
    .range([height - margin.bottom, margin.top]);
  const parts: string[] = [];
  for (const tick of y.ticks(5).filter(Number.isInteger)) {
    const ty = y(tick);
    parts.push(
      `<line x1="${margin.left}" x2="${width - margin.right}" y1="${ty}" y2="${ty}" stroke="#ddd"/>`,
      `<text x="${margin.left - 6}" y="${ty}" dy="0.32em" text-anchor="end">${tick}</text>`,
    );
  }
  const band = x.bandwidth();
  // Labels thinned out when bars are narrow, so they never overlap.
  const every = Math.max(1, Math.ceil(60 / Math.max(band, 1)));
  buckets.forEach((b, i) => {
    const bx = x(b.label) ?? 0;
    let base = 0;
    for (const status of chartStatuses) {
      const n = b.counts[status];
      if (n === 0) continue;
      const top = y(base + n);
      const h = y(base) - top;
      parts.push(
        `<rect x="${bx}" y="${top}" width="${band}" height="${h}" fill="${statusColours[status]}"><title>${escape(b.label)}: ${n} ${status}</title></rect>`,
      );
      base += n;
    }
    if (i % every === 0)
      parts.push(
        `<text x="${bx + band / 2}" y="${height - margin.bottom + 16}" text-anchor="middle">${escape(b.label)}</text>`,
      );
  });
  parts.push(
    `<line x1="${margin.left}" x2="${width - margin.right}" y1="${height - margin.bottom}" y2="${height - margin.bottom}" stroke="#888"/>`,
  );
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="chart-title" font-size="14" font-family="system-ui, sans-serif" fill="#333">
<title id="chart-title">${escape(title)}</title>
${parts.join('\n')}
</svg>`;
}
