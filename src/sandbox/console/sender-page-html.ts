import { shell } from '../signing/page-html.js';
import { escapeHtml } from '../platform/html-escape.js';
import { pageText } from '../signing/page-text.js';

/** What the sender view shows of a draft. */
export interface SenderPageModel {
  sessionId: string;
  csrfToken: string;
  accountName: string;
  senderName: string;
  emailSubject: string;
  emailBlurb: string;
  documents: { documentId: string; name: string; pages: number | null }[];
  recipients: { role: string; name: string; email: string; routingOrder: number; fields: number }[];
  /** Shown (role=alert) after a refused send. */
  error?: string;
}

/**
 * The sender view (DocuSign's embedded sending, `views/sender`): the sender
 * reviews a draft — its message, documents and recipients in routing order —
 * and sends it, or saves it and goes back. Plain forms, no script.
 */
export function senderPageHtml(m: SenderPageModel): string {
  const base = `/sending/s/${encodeURIComponent(m.sessionId)}`;
  const hidden = `<input type="hidden" name="csrfToken" value="${escapeHtml(m.csrfToken)}">`;
  const documents = m.documents
    .map(
      (d) =>
        `<li><a href="${base}/documents/${encodeURIComponent(d.documentId)}" target="_blank" rel="noopener">${escapeHtml(d.name)}</a>${
          d.pages === null ? '' : ` <span class="help">(${d.pages} page${d.pages === 1 ? '' : 's'})</span>`
        }</li>`,
    )
    .join('\n      ');
  const recipients = m.recipients
    .map(
      (r) =>
        `<tr><td>${r.routingOrder}</td><td>${escapeHtml(r.name)}</td><td>${escapeHtml(r.email)}</td><td>${escapeHtml(r.role)}</td><td>${r.fields}</td></tr>`,
    )
    .join('\n        ');
  const body = `<header class="bar"><p class="brand">signrun sandbox · ${escapeHtml(m.accountName)}</p></header>
<main id="main" class="message wide">
  <h1>Review and send: ${escapeHtml(m.emailSubject)}</h1>
  <p>Sending as ${escapeHtml(m.senderName)}. Nothing is sent until you press Send.</p>
  <div id="send-error" class="error" role="alert"${m.error === undefined ? ' hidden' : ''}>${escapeHtml(m.error ?? '')}</div>
  <section aria-labelledby="message-heading">
    <h2 id="message-heading">Message</h2>
    <p><strong>Subject:</strong> ${escapeHtml(m.emailSubject)}</p>
    <p class="blurb">${m.emailBlurb === '' ? '<span class="help">(no message)</span>' : escapeHtml(m.emailBlurb)}</p>
  </section>
  <section aria-labelledby="documents-heading">
    <h2 id="documents-heading">Documents</h2>
    <ul class="document-links">
      ${documents}
    </ul>
  </section>
  <section aria-labelledby="recipients-heading">
    <h2 id="recipients-heading">Recipients</h2>
    <table class="list">
      <thead><tr><th scope="col">Order</th><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Fields</th></tr></thead>
      <tbody>
        ${recipients}
      </tbody>
    </table>
  </section>
  <div class="actions">
    <form method="post" action="${base}/send">${hidden}<button type="submit" class="primary" id="send">Send</button></form>
    <form method="post" action="${base}/save">${hidden}<button type="submit" class="secondary" id="save">Save and close</button></form>
  </div>
</main>`;
  return shell(pageText('en'), `Send ${m.emailSubject}`, body);
}
