import { recipientColour } from './recipient-colours.js';

/** One envelope on the contact sheet. */
export interface SheetEntry {
  readonly job: string;
  readonly key: string;
  readonly row?: number;
  /** The job file, as shown to the user. */
  readonly file: string;
  /** In the envelope's order; `colour` is CSS, `colourName` what people call it. */
  readonly recipients: ReadonlyArray<{ name: string; kind: string; colour: string; colourName: string }>;
  /** preview.pdf, relative to the output folder. */
  pdf?: string;
  /** Its page images in order, relative to the output folder. */
  pages?: string[];
  /** Warnings (and an error that stopped its preview), one line each. */
  readonly warnings: string[];
  /** Why it was not previewed. */
  skipped?: string;
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const html = (s: string) => s.replace(/[&<>"']/g, (c) => escapes[c]!);
/** A path of the output folder as a relative link that works opened from disk (each segment escaped). */
const href = (path: string) => html(path.split('/').map(encodeURIComponent).join('/'));

function legend(entries: readonly SheetEntry[]): string {
  const most = Math.max(1, ...entries.map((e) => e.recipients.length));
  const items = Array.from({ length: Math.min(most, 8) }, (_, i) => {
    const c = recipientColour(i);
    return `<li><span class="swatch" style="background:${c.css}" aria-hidden="true"></span>Recipient ${i + 1}: ${c.name}</li>`;
  });
  return `<ul class="legend">${items.join('')}</ul>`;
}

function card(e: SheetEntry): string {
  const title = `${e.job} / ${e.key}${e.row === undefined ? '' : ` (row ${e.row})`}`;
  const who = e.recipients
    .map(
      (r) =>
        `<li><span class="swatch" style="background:${html(r.colour)}" aria-hidden="true"></span>${html(r.name)} <span class="kind">(${html(r.kind)}, ${html(r.colourName)})</span></li>`,
    )
    .join('');
  const first = e.pages?.[0];
  const picture =
    first === undefined
      ? `<p class="none">${html(e.skipped ?? 'No page could be drawn.')}</p>`
      : `<a href="${href(first)}"><img src="${href(first)}" alt="First page of ${html(title)}, each tab drawn in its recipient's colour" loading="lazy"></a>`;
  const links = [
    ...(e.pdf === undefined ? [] : [`<a href="${href(e.pdf)}">preview.pdf</a>`]),
    ...(e.pages ?? []).map((p, i) => `<a href="${href(p)}">page ${i + 1}</a>`),
  ].join(' · ');
  const warnings =
    e.warnings.length === 0
      ? ''
      : `<ul class="warnings" aria-label="Warnings">${e.warnings.map((w) => `<li>${html(w)}</li>`).join('')}</ul>`;
  return `<article class="${e.warnings.length > 0 ? 'card warned' : 'card'}">
<h3>${html(title)}</h3>
${picture}
<ul class="who" aria-label="Recipients">${who}</ul>
${links === '' ? '' : `<p class="links">${links}</p>`}
${warnings}
</article>`;
}

/**
 * preview.html: every envelope's first page (linked to its pages and PDF),
 * its recipients in their colours, its warnings in red. One file, styles
 * inline, images by relative link (the PNGs beside it in the output
 * folder): it opens from disk in any browser, and stays light for a
 * thousand rows (images load lazily).
 */
export function contactSheet(entries: readonly SheetEntry[], options: { scale: number }): string {
  const warned = entries.filter((e) => e.warnings.length > 0).length;
  const warnings = entries.reduce((n, e) => n + e.warnings.length, 0);
  const skipped = entries.filter((e) => e.skipped !== undefined).length;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>signrun preview: ${entries.length} envelope${entries.length === 1 ? '' : 's'}</title>
<style>
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1a1a1a; }
.summary { font-size: 1.05rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 1rem; }
.card { border: 1px solid #ccc; border-radius: 6px; padding: .6rem; }
.card.warned { border: 2px solid #b00020; }
.card h3 { font-size: .95rem; margin: 0 0 .4rem; overflow-wrap: anywhere; }
.card img { width: 100%; height: auto; border: 1px solid #ddd; }
.who, .legend, .warnings { list-style: none; padding: 0; margin: .4rem 0; }
.legend li { display: inline-block; margin-right: 1rem; }
.swatch { display: inline-block; width: .8em; height: .8em; margin-right: .35em; border-radius: 2px; vertical-align: -0.05em; }
.kind { color: #555; }
.warnings li, .bad { color: #b00020; font-weight: 600; }
.warnings li { font-size: .85rem; overflow-wrap: anywhere; margin-top: .3rem; }
.none { color: #555; font-style: italic; }
.links { font-size: .85rem; }
</style>
</head>
<body>
<h1>Preview of ${entries.length} envelope${entries.length === 1 ? '' : 's'}</h1>
<p class="summary">${
    warnings === 0
      ? 'No warnings.'
      : `<span class="bad">${warnings} warning${warnings === 1 ? '' : 's'} in ${warned} envelope${warned === 1 ? '' : 's'}</span> (outlined in red).`
  }${skipped > 0 ? ` ${skipped} not previewed (built from stored templates).` : ''} Pages at ${Math.round(options.scale * 72)} dots per inch; dashed boxes are for the signer to fill, solid ones hold a value given before sending.</p>
<h2>Colours of the recipients</h2>
${legend(entries)}
<h2>Envelopes</h2>
<div class="grid">
${entries.map(card).join('\n')}
</div>
</body>
</html>
`;
}
