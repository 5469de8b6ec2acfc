import type { OutboxMessage } from '../platform/outbox.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The outbox as a page people can read: newest first, links clickable. */
export function outboxHtml(messages: OutboxMessage[]): string {
  const items = [...messages]
    .reverse()
    .map(
      (m) => `<article>
  <header><strong>${escape(m.subject)}</strong><br><small>${escape(m.kind)} · to ${escape(m.toName ? `${m.toName} <${m.to}>` : m.to)} · ${escape(m.at)}</small></header>
  <pre>${escape(m.body)}</pre>
  ${m.links.map((l) => `<p><a href="${escape(l)}">${escape(l)}</a></p>`).join('')}
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sandbox outbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}article{border:1px solid #ccc;border-radius:6px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap}</style>
</head><body><h1>Sandbox outbox</h1><p>${messages.length} message(s) the sandbox "sent". JSON: <a href="/sandbox/outbox?format=json">/sandbox/outbox?format=json</a></p>
${items || '<p>No messages yet.</p>'}
</body></html>`;
}
