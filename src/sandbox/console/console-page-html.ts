import { shell } from '../signing/page-html.js';
import { escapeHtml } from '../platform/html-escape.js';
import { pageText } from '../signing/page-text.js';
import type { FolderType } from '../esignature/folders/repository.js';

/** One envelope row of the console. */
export interface ConsoleEnvelope {
  envelopeId: string;
  subject: string;
  status: string;
  /** ISO time it was sent, else created. */
  at: string;
  recipients: number;
}

/** The envelope opened in the console. */
export interface ConsoleEnvelopeDetail extends ConsoleEnvelope {
  recipients: number;
  people: { role: string; name: string; email: string; routingOrder: number; status: string }[];
  documents: { documentId: string; name: string }[];
}

/** What the console view shows. */
export interface ConsolePageModel {
  sessionId: string;
  accountName: string;
  userName: string;
  folders: { type: FolderType; name: string; count: number }[];
  folder: FolderType;
  envelopes: ConsoleEnvelope[];
  detail?: ConsoleEnvelopeDetail;
  returnUrl: string;
}

/**
 * The console view (DocuSign's `views/console`, its web app embedded): the
 * account's envelopes folder by folder, newest first, and one envelope's
 * recipients, statuses and documents. Links only, no script.
 */
export function consolePageHtml(m: ConsolePageModel): string {
  const base = `/console/s/${encodeURIComponent(m.sessionId)}`;
  const nav = m.folders
    .map(
      (f) =>
        `<li><a href="${base}?folder=${f.type}"${f.type === m.folder ? ' aria-current="page"' : ''}>${escapeHtml(f.name)} <span class="count">${f.count}</span></a></li>`,
    )
    .join('\n      ');
  const rows = m.envelopes
    .map(
      (e) =>
        `<tr data-envelope-id="${escapeHtml(e.envelopeId)}"><td><a href="${base}?folder=${m.folder}&amp;envelope=${encodeURIComponent(e.envelopeId)}">${escapeHtml(e.subject)}</a></td><td>${escapeHtml(e.status)}</td><td><time datetime="${escapeHtml(e.at)}">${escapeHtml(e.at.slice(0, 16).replace('T', ' '))}</time></td><td>${e.recipients}</td></tr>`,
    )
    .join('\n        ');
  const list =
    m.envelopes.length === 0
      ? '<p class="help" id="empty">No envelopes in this folder.</p>'
      : `<table class="list" id="envelopes">
      <caption>${escapeHtml(m.folders.find((f) => f.type === m.folder)?.name ?? '')}</caption>
      <thead><tr><th scope="col">Subject</th><th scope="col">Status</th><th scope="col">Sent or created (UTC)</th><th scope="col">Recipients</th></tr></thead>
      <tbody>
        ${rows}
      </tbody>
    </table>`;
  const detail = m.detail === undefined ? '' : detailHtml(base, m.detail);
  const body = `<header class="bar"><p class="brand">signrun sandbox · ${escapeHtml(m.accountName)}</p></header>
<main id="main" class="message wide">
  <h1>Envelopes</h1>
  <p>Signed in as ${escapeHtml(m.userName)}. <a href="${escapeHtml(m.returnUrl)}" id="back">Back to the application</a></p>
  <nav aria-label="Folders"><ul class="folders">
      ${nav}
  </ul></nav>
  ${detail}
  ${list}
</main>`;
  return shell(pageText('en'), 'Envelopes', body);
}

function detailHtml(base: string, d: ConsoleEnvelopeDetail): string {
  const people = d.people
    .map(
      (p) =>
        `<tr><td>${p.routingOrder}</td><td>${escapeHtml(p.name)}</td><td>${escapeHtml(p.email)}</td><td>${escapeHtml(p.role)}</td><td>${escapeHtml(p.status)}</td></tr>`,
    )
    .join('\n        ');
  const documents = d.documents
    .map(
      (doc) =>
        `<li><a href="${base}/envelopes/${encodeURIComponent(d.envelopeId)}/documents/${encodeURIComponent(doc.documentId)}" target="_blank" rel="noopener">${escapeHtml(doc.name)}</a></li>`,
    )
    .join('\n      ');
  return `<section class="panel" id="envelope-detail" aria-labelledby="detail-heading">
    <h2 id="detail-heading">${escapeHtml(d.subject)}</h2>
    <p>Status: <strong id="detail-status">${escapeHtml(d.status)}</strong></p>
    <table class="list">
      <thead><tr><th scope="col">Order</th><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th></tr></thead>
      <tbody>
        ${people}
      </tbody>
    </table>
    <h3>Documents</h3>
    <ul class="document-links">
      ${documents}
    </ul>
  </section>`;
}
