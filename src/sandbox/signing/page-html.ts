import { tabSize } from '../../pdf/index.js';
import type { PageText } from './page-text.js';
import type { MarkOnPage, SignaturePlace } from './signature-places.js';
import { fieldsShownField, type SigningField } from '../esignature/envelopes/tabs/entered-values.js';
import type { PageBrand } from '../esignature/brands/brand-look.js';
import { escapeHtml } from '../platform/html-escape.js';
import { viewedValue, type ButtonTab } from './button-tabs.js';
import type { LiveFormulaInput } from './live-formulas.js';

/** What the signing page shows. */
export interface SigningPageModel {
  text: PageText;
  sessionId: string;
  csrfToken: string;
  /** Sender's account name. */
  senderName: string;
  emailSubject: string;
  recipientName: string;
  documents: { documentId: string; name: string }[];
  /** The signer's sign-here tabs; empty: the signer places the signature. */
  tabs: SignaturePlace[];
  /** The sign-here and initial-here boxes where the document shows them. */
  marks?: MarkOnPage[];
  /** The fields the signer fills or sees (every tab holding a value). */
  fields?: SigningField[];
  /** The signer's approve, decline, view and signer-attachment tabs (button-tabs.ts). */
  buttons?: ButtonTab[];
  /** The tabs formulas read, when the signer has a formula tab: the script computes them as the signer types. */
  formulas?: LiveFormulaInput[];
  /** Shown at the top (role=alert) after a refused POST. */
  error?: string;
  /** Prefill of the signature field after a refused POST. */
  signatureName?: string;
  /** Who signs and for whom, when it is not plain (an in-person signer's host, a witness): shown above the documents. */
  notice?: string;
  /** The envelope's brand (its brandId, or the account's sending default): name, logo and colours. */
  brand?: PageBrand;
}

/** The page's top bar: the envelope's brand (logo, name) or the sandbox's name. */
export function barHtml(brand: PageBrand | undefined): string {
  if (brand === undefined) return `<header class="bar">\n  <p class="brand">signrun sandbox</p>\n</header>`;
  const logo =
    brand.logoDataUrl === undefined
      ? ''
      : `<img class="brand-logo" src="${escapeHtml(brand.logoDataUrl)}" alt="${escapeHtml(brand.name)} logo"> `;
  return `<header class="bar" data-branded>\n  <p class="brand">${logo}${escapeHtml(brand.name)}</p>\n</header>`;
}

/** The brand's stylesheet link, after the page's own so its colours win. */
export function brandHead(brand: PageBrand | undefined): string {
  return brand?.stylesheetHref === undefined
    ? ''
    : `<link rel="stylesheet" href="${escapeHtml(brand.stylesheetHref)}">`;
}

export function shell(text: PageText, title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="${text.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} · signrun sandbox</title>
<link rel="stylesheet" href="/signing/assets/signing.css">
${head}
</head>
<body>
${body}
</body>
</html>
`;
}

/** The page a signer signs on. Documents are drawn by pdf.js in the browser (see signing-client.ts). */
export function signingPageHtml(m: SigningPageModel): string {
  const t = m.text;
  const base = `/signing/s/${encodeURIComponent(m.sessionId)}`;
  const buttons = m.buttons ?? [];
  // A signer who approves (or declines) on a tab of the sender places no signature (DocuSign's free-form signing is for a signer with no tabs).
  const approves = buttons.some((b) => b.kind === 'approve' || b.kind === 'decline');
  const free = m.tabs.length === 0 && !approves;
  const data = {
    sessionId: m.sessionId,
    freePlacement: free,
    // The box the stamp draws (the PDF layer's size of a sign-here tab), so the page shows the same box.
    stamp: tabSize('signHere'),
    marks: m.marks ?? [],
    // The controls the script moves from the list onto their page (by element id), at their box.
    fields: (m.fields ?? []).flatMap((f, i) =>
      f.control === 'radio'
        ? f.options.flatMap((o, j) =>
            o.onPage === undefined
              ? []
              : // A radio's box is too small to hold its option: its text beside it, as the stamp writes it.
                [{ control: `field-${i}-${j}`, onPage: o.onPage, drawing: f.drawing, caption: o.text }],
          )
        : f.onPage === undefined
          ? []
          : [{ control: `field-${i}`, onPage: f.onPage, drawing: f.drawing }],
    ),
    // The approve, decline, view and attachment buttons the script moves onto their place (by element id).
    buttons: buttons.flatMap((b, i) => (b.onPage === undefined ? [] : [{ control: `button-${i}`, onPage: b.onPage }])),
    formulas: m.formulas ?? [],
    documents: m.documents.map((d) => ({ ...d, url: `${base}/documents/${encodeURIComponent(d.documentId)}` })),
    text: {
      signHere: t.signHere,
      signedTab: t.signedTab,
      initialHere: t.initialHere,
      initialledTab: t.initialledTab,
      errorUninitialledTabs: t.errorUninitialledTabs,
      errorRequiredField: t.errorRequiredFields('{label}'),
      errorInvalidField: t.errorInvalidFields('{label}'),
      pageLabel: t.documentsHeading,
      errorNoName: t.errorNoName,
      errorUnsignedTabs: t.errorUnsignedTabs,
      errorNoPlacement: t.errorNoPlacement,
      errorNoReason: t.errorNoReason,
      errorUnopenedViews: t.errorUnopenedViews('{label}'),
      removePlacement: t.removePlacement,
      // Templates filled in by the page script.
      placedLabel: t.placedLabel('{n}'),
      pageRegionLabel: t.pageRegionLabel('{doc}', '{n}'),
      page: t.page('{n}', '{total}'),
    },
  };
  // JSON in a data block: `<` escaped so no `</script>` can end it early.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  const docs = m.documents
    .map(
      (
        d,
      ) => `<section class="document" data-document-id="${escapeHtml(d.documentId)}" aria-labelledby="doc-${escapeHtml(d.documentId)}">
  <h3 id="doc-${escapeHtml(d.documentId)}">${escapeHtml(d.name)}</h3>
  <div class="pages"><p class="loading" role="status">${escapeHtml(t.loading)} <a href="${base}/documents/${encodeURIComponent(d.documentId)}">${escapeHtml(t.downloadFallback)}</a></p></div>
</section>`,
    )
    .join('\n');
  const body = `${barHtml(m.brand)}
<main id="main" class="layout">
  <div class="intro">
    <h1>${escapeHtml(t.heading(m.emailSubject))}</h1>
    <p>${escapeHtml(t.intro(m.senderName))}</p>
    ${m.notice === undefined ? '' : `<p class="notice" id="signing-notice"><strong>${escapeHtml(m.notice)}</strong></p>`}
    <p class="help" id="placement-help">${escapeHtml(placementHelp(t, free, m.tabs.length, buttons))}</p>
    <div id="sign-error" class="error" role="alert"${m.error === undefined ? ' hidden' : ''}>${escapeHtml(m.error ?? '')}</div>
  </div>
  <aside class="panel">
    <form id="sign-form" method="post" action="${base}/sign" novalidate>
      <input type="hidden" name="csrfToken" value="${escapeHtml(m.csrfToken)}">
      <input type="hidden" name="placements" id="placements" value="">
      <h2>${escapeHtml(t.adoptHeading)}</h2>
      <label for="signature-name">${escapeHtml(t.adoptLabel)}</label>
      <input id="signature-name" name="signatureName" type="text" autocomplete="name" required maxlength="100"
        value="${escapeHtml(m.signatureName ?? m.recipientName)}" aria-describedby="adopt-help">
      <p class="help" id="adopt-help">${escapeHtml(t.adoptHelp)}</p>
      <p class="preview-label">${escapeHtml(t.preview)}</p>
      <p class="signature-preview" id="signature-preview" aria-live="polite">${escapeHtml(m.signatureName ?? m.recipientName)}</p>
      ${fieldsHtml(t, m.fields ?? [])}
      ${buttonsHtml(t, base, buttons)}
      <button type="submit" class="primary" id="finish">${escapeHtml(t.finish)}</button>
    </form>
    <form method="post" action="${base}/cancel" class="later">
      <input type="hidden" name="csrfToken" value="${escapeHtml(m.csrfToken)}">
      <button type="submit" class="secondary">${escapeHtml(t.finishLater)}</button>
    </form>
    <details class="decline">
      <summary>${escapeHtml(t.declineHeading)}</summary>
      <form id="decline-form" method="post" action="${base}/decline" novalidate>
        <input type="hidden" name="csrfToken" value="${escapeHtml(m.csrfToken)}">
        <label for="decline-reason">${escapeHtml(t.declineLabel)}</label>
        <textarea id="decline-reason" name="reason" rows="3" required maxlength="500"></textarea>
        <button type="submit" class="danger">${escapeHtml(t.declineButton)}</button>
      </form>
    </details>
  </aside>
  <div class="documents">
    <h2>${escapeHtml(t.documentsHeading)}</h2>
    ${docs}
  </div>
</main>
<script type="application/json" id="signing-data">${json}</script>
<script type="module" src="/signing/assets/signing.js"></script>`;
  return shell(t, t.heading(m.emailSubject), body, brandHead(m.brand));
}

/** What the page of a recipient who does not sign shows. */
export interface ViewPageModel {
  text: PageText;
  sessionId: string;
  csrfToken: string;
  senderName: string;
  emailSubject: string;
  documents: { documentId: string; name: string }[];
  /** True when the recipient finishes its part here (certified delivery, editor, agent, intermediary); false for a carbon copy. */
  acts: boolean;
  /** The envelope's brand, as on the signing page. */
  brand?: PageBrand;
}

/**
 * The page of a recipient who does not sign: the documents (opened in the
 * browser's own PDF viewer, no script needed) and, for one who must act, a
 * Finish button that completes its part; a carbon copy only reads.
 */
export function viewPageHtml(m: ViewPageModel): string {
  const t = m.text;
  const base = `/signing/s/${encodeURIComponent(m.sessionId)}`;
  const docs = m.documents
    .map(
      (d) =>
        `<li><a href="${base}/documents/${encodeURIComponent(d.documentId)}" target="_blank" rel="noopener">${escapeHtml(d.name)}</a></li>`,
    )
    .join('\n      ');
  const action = m.acts
    ? `<form id="act-form" method="post" action="${base}/act">
      <input type="hidden" name="csrfToken" value="${escapeHtml(m.csrfToken)}">
      <button type="submit" class="primary" id="finish">${escapeHtml(t.actButton)}</button>
    </form>
    <form method="post" action="${base}/cancel" class="later">
      <input type="hidden" name="csrfToken" value="${escapeHtml(m.csrfToken)}">
      <button type="submit" class="secondary">${escapeHtml(t.finishLater)}</button>
    </form>`
    : '';
  const body = `${barHtml(m.brand)}
<main id="main" class="message">
  <h1>${escapeHtml(`${t.viewTitle}: ${m.emailSubject}`)}</h1>
  <p>${escapeHtml(t.viewIntro(m.senderName))}</p>
  <p class="help" id="view-help">${escapeHtml(m.acts ? t.actHelp : t.copyHelp)}</p>
  <section aria-labelledby="documents-heading">
    <h2 id="documents-heading">${escapeHtml(t.documentsHeading)}</h2>
    <ul class="document-links">
      ${docs}
    </ul>
  </section>
  ${action}
</main>`;
  return shell(t, t.viewTitle, body, brandHead(m.brand));
}

/** The access-code step: one labelled field; after a wrong code, the error says how many attempts are left. */
export function accessCodePageHtml(m: {
  text: PageText;
  sessionId: string;
  csrfToken: string;
  error?: string;
}): string {
  const t = m.text;
  const base = `/signing/s/${encodeURIComponent(m.sessionId)}`;
  const body = `<header class="bar"><p class="brand">signrun sandbox</p></header>
<main id="main" class="message">
  <h1>${escapeHtml(t.accessCodeTitle)}</h1>
  <p id="access-code-help">${escapeHtml(t.accessCodeHelp)}</p>
  <div id="access-code-error" class="error" role="alert"${m.error === undefined ? ' hidden' : ''}>${escapeHtml(m.error ?? '')}</div>
  <form id="access-code-form" method="post" action="${base}/access-code">
    <input type="hidden" name="csrfToken" value="${escapeHtml(m.csrfToken)}">
    <label for="access-code">${escapeHtml(t.accessCodeLabel)}</label>
    <input id="access-code" name="accessCode" type="password" autocomplete="off" required maxlength="50"
      aria-describedby="access-code-help${m.error === undefined ? '' : ' access-code-error'}"${m.error === undefined ? '' : ' aria-invalid="true"'}>
    <button type="submit" class="primary">${escapeHtml(t.accessCodeButton)}</button>
  </form>
</main>`;
  return shell(t, t.accessCodeTitle, body);
}

/** The value a number, date or text field's keyboard suits (inputmode). */
function inputMode(kind: string): string {
  if (kind === 'number' || kind === 'currency' || kind === 'zip' || kind === 'ssn') return ' inputmode="decimal"';
  if (kind === 'email') return ' inputmode="email"';
  if (kind === 'phoneNumber') return ' inputmode="tel"';
  return '';
}

/**
 * The signer's fields as HTML controls inside the sign form: text boxes,
 * checkboxes, lists and radio groups, posted as `tab.<tabId>`; locked ones
 * read-only (and not posted: the server keeps the sender's value), the
 * service's shown with what fills them. Required ones are marked; the server
 * refuses to finish without them.
 */
function fieldsHtml(t: PageText, fields: readonly SigningField[]): string {
  if (fields.length === 0) return '';
  // Each control names its form: the page script moves it out of the form, onto its place on the document.
  const owner = ' form="sign-form"';
  const controls = fields.map((f, i) => {
    const id = `field-${i}`;
    const required = f.required && !f.locked ? ' required aria-required="true"' : '';
    const mark = f.required && !f.locked ? ' <span class="required" aria-hidden="true">*</span>' : '';
    const label = `<label for="${id}">${escapeHtml(f.label)}${mark}</label>`;
    const locked = f.locked ? ' data-locked="true"' : '';
    switch (f.control) {
      case 'shown':
        // data-tab: a formula's result is written here by the page script as the signer types.
        return `<div class="field"${locked}>${label}<input id="${id}" type="text" readonly${owner} data-tab="${escapeHtml(f.name)}" value="${escapeHtml(f.value === '' ? t.filledOnSigning : f.value)}"></div>`;
      case 'checkbox':
        return `<div class="field checkbox"${locked}><input id="${id}" type="checkbox"${owner} name="${escapeHtml(f.name)}" value="true"${f.selected ? ' checked' : ''}${f.locked ? ' disabled' : ''}${required}> ${label}</div>`;
      case 'select':
        return `<div class="field"${locked}>${label}<select id="${id}"${owner} name="${escapeHtml(f.name)}"${f.locked ? ' disabled' : ''}${required}><option value=""></option>${f.options
          .map(
            (o) =>
              `<option value="${escapeHtml(o.value)}"${o.selected ? ' selected' : ''}>${escapeHtml(o.text)}</option>`,
          )
          .join('')}</select></div>`;
      case 'radio':
        return `<fieldset class="field radios"${locked}><legend>${escapeHtml(f.label)}${mark}</legend>${f.options
          .map(
            (o, j) =>
              `<label for="${id}-${j}"><input id="${id}-${j}" type="radio"${owner} name="${escapeHtml(f.name)}" value="${escapeHtml(o.value)}"${o.selected ? ' checked' : ''}${f.locked ? ' disabled' : ''}${required}> ${escapeHtml(o.text)}</label>`,
          )
          .join('')}</fieldset>`;
      default:
        return `<div class="field"${locked}>${label}<input id="${id}" type="text"${owner} name="${escapeHtml(f.name)}" value="${escapeHtml(f.value)}"${f.locked ? ' readonly' : ''}${required}${f.maxLength === undefined ? '' : ` maxlength="${f.maxLength}"`}${inputMode(f.kind)}></div>`;
    }
  });
  return `<input type="hidden" name="${fieldsShownField}" value="1">
      <fieldset class="fields" id="fields"><legend>${escapeHtml(t.fieldsHeading)}</legend>
        ${controls.join('\n        ')}
      </fieldset>`;
}

/** What the signer does to finish: place a signature, select the sign-here fields, or (no signature) approve or finish. */
function placementHelp(t: PageText, free: boolean, signatureTabs: number, buttons: readonly ButtonTab[]): string {
  if (free) return t.placeHelp;
  if (signatureTabs > 0) return t.tabsHelp(signatureTabs);
  return buttons.some((b) => b.kind === 'approve') ? t.buttonsHelp : t.noSignatureHelp;
}

/**
 * The approve, decline, view and signer-attachment tabs, listed beside the
 * documents (the page script moves each onto its place, as the preview draws
 * it). Approve posts the sign form to /approve (DocuSign completes the
 * recipient without a signature); decline opens the page's decline form
 * (its reason is required); view opens the document it sits on in a new
 * tab, and the script records that it was opened (a required view must be,
 * before finishing); an attachment says the sandbox takes no upload.
 */
function buttonsHtml(t: PageText, base: string, buttons: readonly ButtonTab[]): string {
  if (buttons.length === 0) return '';
  const items = buttons.map((b, i) => {
    const id = `button-${i}`;
    switch (b.kind) {
      case 'approve':
        return `<div class="field"><button type="submit" id="${id}" class="tab-button" data-button="approve" form="sign-form" formaction="${base}/approve">${escapeHtml(b.buttonText ?? t.approveTab)}</button></div>`;
      case 'decline':
        // Without script it posts the decline form as it is: an empty reason is refused with the page's own message.
        return `<div class="field"><button type="submit" id="${id}" class="tab-button danger" data-button="decline" form="decline-form">${escapeHtml(b.buttonText ?? t.declineTab)}</button></div>`;
      case 'view': {
        const text = b.buttonText ?? t.viewTab;
        const required = b.required ? ' <span class="required" aria-hidden="true">*</span>' : '';
        return `<div class="field"><a id="${id}" class="tab-button" data-button="view" data-required="${String(b.required)}" data-label="${escapeHtml(b.tabLabel ?? text)}" href="${base}/documents/${encodeURIComponent(b.documentId)}" target="_blank" rel="noopener">${escapeHtml(text)}</a>${required}<input type="hidden" form="sign-form" id="${id}-opened" name="${escapeHtml(b.name)}" value="" data-opened-value="${viewedValue}"></div>`;
      }
      default:
        return `<div class="field"><span id="${id}" class="tab-button attachment" data-button="signerAttachment" role="note" title="${escapeHtml(t.attachmentUnsupported)}" aria-describedby="${id}-help">${escapeHtml(b.tabLabel ?? t.attachmentTab)}</span><p class="help" id="${id}-help">${escapeHtml(t.attachmentUnsupported)}</p></div>`;
    }
  });
  return `<div class="fields" id="buttons">
        ${items.join('\n        ')}
      </div>`;
}

/**
 * An explanation page (expired link, not your turn …). With `redirectTo`, the
 * browser goes there after a few seconds (meta refresh: no script needed),
 * and a link lets the signer go at once.
 */
export function messagePageHtml(text: PageText, title: string, message: string, redirectTo?: string): string {
  const head = redirectTo === undefined ? '' : `<meta http-equiv="refresh" content="3;url=${escapeHtml(redirectTo)}">`;
  const link =
    redirectTo === undefined
      ? ''
      : `<p>${escapeHtml(text.redirecting)} <a href="${escapeHtml(redirectTo)}" id="continue">${escapeHtml(text.continueLink)}</a></p>`;
  const body = `<header class="bar"><p class="brand">signrun sandbox</p></header>
<main id="main" class="message">
  <h1>${escapeHtml(title)}</h1>
  <p>${escapeHtml(message)}</p>
  ${link}
</main>`;
  return shell(text, title, body, head);
}
