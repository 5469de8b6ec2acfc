/**
 * The signing page's script (served at /signing/assets/signing.js as an ES
 * module). pdf.js (pdfjs-dist, served from node_modules) draws each page into
 * a canvas in the browser: the server then needs no renderer (pdfjs-dist in
 * Node needs a native canvas package; poppler is not a dependency at run
 * time), and pages stay sharp at any width and pixel density. Tabs and placed
 * signatures are positioned in percent of the page, so the layout follows the
 * width of a phone or a desktop without recomputation.
 *
 * Without script the forms still work for signers who have tabs; documents
 * are then links.
 */
export const signingPageScript = String.raw`
import * as pdfjs from '/signing/assets/pdf.min.mjs';
import { formulaValues } from '/signing/assets/formula.js';

pdfjs.GlobalWorkerOptions.workerSrc = '/signing/assets/pdf.worker.min.mjs';
// One pdf.js worker for every document of the envelope: getDocument without
// one starts a worker of its own per document, each loading and compiling
// pdf.worker (1.2 MB) before its document is even fetched.
const pdfWorker = new pdfjs.PDFWorker();

const data = JSON.parse(document.getElementById('signing-data').textContent);
const t = data.text;
const form = document.getElementById('sign-form');
const nameInput = document.getElementById('signature-name');
const preview = document.getElementById('signature-preview');
const placementsInput = document.getElementById('placements');
const errorBox = document.getElementById('sign-error');
const declineForm = document.getElementById('decline-form');
const declineReason = document.getElementById('decline-reason');
const placements = [];
const tabButtons = [];

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, function (_, k) { return String(values[k]); });
}
function pct(value, total) { return (100 * value / total) + '%'; }
// The alert moves next to the control that was used (Finish, Decline), so it
// is seen where the signer is looking, on a phone as on a desktop; focus
// then goes to what needs doing without scrolling the alert away.
function showError(message, focusTarget, anchor) {
  if (anchor && anchor.parentNode) anchor.parentNode.insertBefore(errorBox, anchor);
  errorBox.textContent = message;
  errorBox.hidden = false;
  if (focusTarget) focusTarget.focus({ preventScroll: Boolean(anchor) });
  if (anchor) errorBox.scrollIntoView({ block: 'nearest' });
}
const finishButton = document.getElementById('finish');
const declineButton = declineForm.querySelector('button[type=submit]');
function adoptedName() { return nameInput.value.trim(); }

nameInput.addEventListener('input', function () {
  preview.textContent = adoptedName();
  for (const b of tabButtons) if (b.classList.contains('is-signed')) b.textContent = markText(b, true);
  for (const p of placements) p.el.textContent = adoptedName();
});

function place(box, el, x, y, size) {
  el.style.left = pct(x, size.width);
  el.style.top = pct(y, size.height);
  el.style.width = pct(data.stamp.width, size.width);
  el.style.height = pct(data.stamp.height, size.height);
}

// A box the server placed (page-places.ts: the preview's and the stamp's
// placement), in percent of its page, so it follows the page at any width.
function placeBox(el, p) {
  el.style.left = pct(p.left, p.pageWidth);
  el.style.top = pct(p.top, p.pageHeight);
  el.style.width = pct(p.width, p.pageWidth);
  el.style.height = pct(p.height, p.pageHeight);
}
// Text at the size the stamp writes it in a box of this height (textLineFit),
// scaled with the page: 100cqw is the page's width (.page is a size container).
function fitText(el, p) {
  const points = Math.min(10, Math.max(6, p.height - 6));
  el.style.fontSize = 'calc(' + points + ' * 100cqw / ' + p.pageWidth + ')';
}

function initialsOf(name) {
  return name.trim().split(/\s+/).map(function (w) { return Array.from(w)[0] || ''; }).join('').toUpperCase();
}
function markText(b, signed) {
  if (b.dataset.drawing === 'initials') return signed ? initialsOf(adoptedName()) : t.initialHere;
  return signed ? adoptedName() : t.signHere;
}

function addMark(wrap, mark) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'tab' + (mark.drawing === 'initials' ? ' initials' : '');
  b.dataset.drawing = mark.drawing;
  b.dataset.optional = String(mark.optional);
  b.textContent = markText(b, false);
  b.setAttribute('aria-pressed', 'false');
  b.dataset.documentId = mark.onPage.documentId;
  b.dataset.pageNumber = String(mark.onPage.pageNumber);
  placeBox(b, mark.onPage);
  b.addEventListener('click', function (event) {
    event.stopPropagation();
    if (!adoptedName()) { showError(t.errorNoName, nameInput); return; }
    const signed = !b.classList.contains('is-signed');
    b.classList.toggle('is-signed', signed);
    b.setAttribute('aria-pressed', String(signed));
    b.textContent = markText(b, signed);
    const done = mark.drawing === 'initials' ? t.initialledTab : t.signedTab;
    b.setAttribute('aria-label', signed ? done + ': ' + b.textContent : markText(b, false));
  });
  tabButtons.push(b);
  return b;
}

// A control of the list beside the document, moved onto its place on the
// page (its <label for> stays in the list: keyboards and screen readers use
// the list, a click on a label brings the field into view).
function moveField(field) {
  const el = document.getElementById(field.control);
  if (!el) return undefined;
  el.classList.add('on-page');
  if (el.required) el.classList.add('is-required');
  placeBox(el, field.onPage);
  if (el.type !== 'checkbox' && el.type !== 'radio') fitText(el, field.onPage);
  const entry = el.closest('.field');
  if (entry) entry.classList.add('is-placed');
  // A click in a field fills it; it never places a signature on the page beneath.
  el.addEventListener('click', function (event) { event.stopPropagation(); });
  return el;
}

// A radio's option written just right of its box, at the size and place the
// stamp writes it (src/pdf/tab-drawers.ts, radio), so the signer sees which
// button is which option. Hidden from screen readers: the radio's own label,
// in the list beside the documents, names it.
function radioCaption(field) {
  const p = field.onPage;
  const caption = document.createElement('span');
  caption.className = 'radio-caption';
  caption.setAttribute('aria-hidden', 'true');
  caption.textContent = field.caption;
  caption.style.left = pct(p.left + p.width + 3, p.pageWidth);
  caption.style.top = pct(p.top, p.pageHeight);
  caption.style.height = pct(p.height, p.pageHeight);
  caption.style.lineHeight = 'calc(' + p.height + ' * 100cqw / ' + p.pageWidth + ')';
  caption.style.fontSize = 'calc(' + Math.min(10, Math.max(6, p.height - 2)) + ' * 100cqw / ' + p.pageWidth + ')';
  return caption;
}

// Everything on the pages, in reading order (document, page, top, left): Finish leads to the first one still to do.
const onPages = [];

function syncPlacements() {
  placementsInput.value = JSON.stringify(placements.map(function (p) {
    return { documentId: p.documentId, pageNumber: p.pageNumber, xPosition: Math.round(p.x), yPosition: Math.round(p.y) };
  }));
  placements.forEach(function (p, i) { p.el.setAttribute('aria-label', fill(t.placedLabel, { n: i + 1 }) + ': ' + adoptedName()); });
}

function addPlacement(wrap, documentId, pageNumber, size, centreX, centreY) {
  if (!adoptedName()) { showError(t.errorNoName, nameInput); return; }
  const clampX = function (x) { return Math.max(0, Math.min(size.width - data.stamp.width, x)); };
  const clampY = function (y) { return Math.max(0, Math.min(size.height - data.stamp.height, y)); };
  const p = { documentId: documentId, pageNumber: pageNumber, x: clampX(centreX - data.stamp.width / 2), y: clampY(centreY - data.stamp.height / 2), el: document.createElement('button') };
  p.el.type = 'button';
  p.el.className = 'placed';
  p.el.textContent = adoptedName();
  place(wrap, p.el, p.x, p.y, size);
  p.el.addEventListener('click', function (event) { event.stopPropagation(); });
  p.el.addEventListener('keydown', function (event) {
    const step = event.shiftKey ? 20 : 5;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (moves[event.key]) {
      event.preventDefault();
      p.x = clampX(p.x + moves[event.key][0]);
      p.y = clampY(p.y + moves[event.key][1]);
      place(wrap, p.el, p.x, p.y, size);
      syncPlacements();
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      placements.splice(placements.indexOf(p), 1);
      p.el.remove();
      syncPlacements();
      wrap.focus();
    }
  });
  wrap.append(p.el);
  placements.push(p);
  syncPlacements();
  errorBox.hidden = true;
  p.el.focus();
}

function enablePlacement(wrap, doc, pageNumber, size) {
  wrap.classList.add('placing');
  wrap.tabIndex = 0;
  // A labelled, focusable group (not a button: it holds the placed signatures, which are buttons).
  wrap.setAttribute('role', 'group');
  wrap.setAttribute('aria-label', fill(t.pageRegionLabel, { doc: doc.name, n: pageNumber }));
  wrap.addEventListener('click', function (event) {
    const r = wrap.getBoundingClientRect();
    addPlacement(wrap, doc.documentId, pageNumber, size, (event.clientX - r.left) / r.width * size.width, (event.clientY - r.top) / r.height * size.height);
  });
  wrap.addEventListener('keydown', function (event) {
    if (event.target !== wrap || (event.key !== 'Enter' && event.key !== ' ')) return;
    event.preventDefault();
    addPlacement(wrap, doc.documentId, pageNumber, size, size.width / 2, size.height / 2);
  });
}

async function renderDocument(doc, docIndex) {
  const section = document.querySelector('[data-document-id="' + CSS.escape(doc.documentId) + '"] .pages');
  const loading = section.querySelector('.loading');
  const pdf = await pdfjs.getDocument({ url: doc.url, worker: pdfWorker, isEvalSupported: false, standardFontDataUrl: '/signing/assets/standard_fonts/' }).promise;
  const width = Math.min(section.clientWidth || 800, 900);
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const base = page.getViewport({ scale: 1 });
    const size = { width: base.width, height: base.height };
    const density = Math.min(window.devicePixelRatio || 1, 2);
    const viewport = page.getViewport({ scale: (width / base.width) * density });
    const wrap = document.createElement('div');
    wrap.className = 'page';
    wrap.dataset.pageNumber = String(n);
    const canvas = document.createElement('canvas');
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', doc.name + ', ' + fill(t.page, { n: n, total: pdf.numPages }));
    wrap.append(canvas);
    const label = document.createElement('span');
    label.className = 'page-number';
    label.textContent = fill(t.page, { n: n, total: pdf.numPages });
    wrap.append(label);
    await page.render({ canvas: canvas, canvasContext: canvas.getContext('2d'), viewport: viewport }).promise;
    wrap.style.setProperty('--page-width', String(size.width));
    const here = function (p) { return p.onPage.documentId === doc.documentId && p.onPage.pageNumber === n; };
    const items = [];
    for (const mark of data.marks.filter(here)) items.push({ at: mark.onPage, el: addMark(wrap, mark) });
    for (const field of data.fields.filter(here)) {
      const el = moveField(field);
      if (el) items.push({ at: field.onPage, el: el });
      if (el && field.caption) wrap.append(radioCaption(field));
    }
    for (const button of data.buttons.filter(here)) {
      const el = moveField(button);
      if (!el) continue;
      // An attachment box is too small for its words: a "+" on the page, its words kept as its name (and its title says why nothing opens).
      if (el.dataset.button === 'signerAttachment') {
        el.setAttribute('aria-label', el.textContent);
        el.textContent = '+';
      }
      items.push({ at: button.onPage, el: el });
    }
    // Appended in reading order, so Tab moves through the page as a reader would.
    items.sort(function (a, b) { return a.at.top - b.at.top || a.at.left - b.at.left; });
    for (const item of items) {
      wrap.append(item.el);
      onPages.push({ order: [docIndex, n, item.at.top, item.at.left], el: item.el, wrap: wrap, at: item.at });
    }
    if (data.freePlacement) enablePlacement(wrap, doc, n, size);
    section.append(wrap);
  }
  loading.remove();
}

// What still needs the signer: an unsigned (not optional) mark, a required
// field left empty, a value its field refuses. Readonly and disabled (locked)
// controls are never to do: the browser leaves them out of validation.
function stillToDo(el) {
  if (el.dataset.button === 'view') return el.dataset.required === 'true' && !viewOpened(el);
  if (el.dataset.button) return false;
  if (el.dataset.drawing) return el.dataset.optional !== 'true' && !el.classList.contains('is-signed');
  return typeof el.checkValidity === 'function' && !el.checkValidity();
}
function labelOfField(el) {
  const label = el.labels && el.labels[0];
  const group = el.type === 'radio' ? el.closest('fieldset') : null;
  const legend = group ? group.querySelector('legend') : null;
  return ((legend || label || el).textContent || '').replace(/\*$/, '').trim();
}
function messageFor(el) {
  if (el.dataset.button === 'view') return fill(t.errorUnopenedViews, { label: el.dataset.label });
  if (el.dataset.drawing === 'initials') return t.errorUninitialledTabs;
  if (el.dataset.drawing) return t.errorUnsignedTabs;
  const empty = el.validity && el.validity.valueMissing;
  return fill(empty ? t.errorRequiredField : t.errorInvalidField, { label: labelOfField(el) });
}
// As DocuSign's Next: bring the next field to do into view, focus it, and
// say beside it what it needs (the alert moves under the field on its page).
function leadTo(item) {
  const el = item.el;
  errorBox.textContent = messageFor(el);
  errorBox.hidden = false;
  if (item.wrap) {
    item.wrap.append(errorBox);
    errorBox.classList.add('at-field');
    errorBox.style.left = pct(item.at.left, item.at.pageWidth);
    errorBox.style.top = pct(item.at.top + item.at.height, item.at.pageHeight);
  } else {
    errorBox.classList.remove('at-field');
    errorBox.style.left = '';
    errorBox.style.top = '';
    el.parentNode.insertBefore(errorBox, el);
  }
  document.querySelectorAll('.is-next').forEach(function (x) { x.classList.remove('is-next'); });
  el.classList.add('is-next');
  el.scrollIntoView({ block: 'center' });
  el.focus({ preventScroll: true });
  errorBox.scrollIntoView({ block: 'nearest' });
}
function nextToDo(approving) {
  const placed = onPages.filter(function (item) { return !(approving && item.el.dataset.drawing); }).slice().sort(function (a, b) {
    for (let i = 0; i < 4; i++) if (a.order[i] !== b.order[i]) return a.order[i] - b.order[i];
    return 0;
  });
  const first = placed.find(function (item) { return stillToDo(item.el); });
  if (first) return first;
  // Fields with no place on a page stay in the list beside the documents.
  const listed = Array.from(document.querySelectorAll('#fields input, #fields select, #buttons [data-button=view]'));
  const el = listed.find(function (x) { return !x.classList.contains('on-page') && stillToDo(x); });
  return el ? { el: el } : undefined;
}

// Formula tabs, computed as the signer types with the sandbox's own
// evaluator (formula.js: the code that computes them on submit): each tab's
// value is what its control holds now (a text-like tab, a list), as the sign
// form will apply it, else the value the page was drawn with.
function recomputeFormulas() {
  if (data.formulas.length === 0) return;
  const values = formulaValues(data.formulas.map(function (f) {
    let value = f.value;
    const control = f.entered ? form.elements.namedItem(f.name) : null;
    // An empty list choice leaves the list's value as it was (applyEntered).
    if (control && typeof control.value === 'string' && !(control.tagName === 'SELECT' && control.value === '')) value = control.value;
    return { label: f.label, value: value, formula: f.formula, roundDecimalPlaces: f.roundDecimalPlaces };
  }));
  data.formulas.forEach(function (f, i) {
    if (f.formula === undefined || values[i] === undefined) return;
    const shown = document.querySelector('[data-tab="' + CSS.escape(f.name) + '"]');
    if (shown) shown.value = values[i];
  });
}
document.addEventListener('input', recomputeFormulas);
document.addEventListener('change', recomputeFormulas);
recomputeFormulas();

// The approve, decline and view tabs (page-html.ts, buttonsHtml). A view tab
// opens its document (a link, in a new tab) and records that it was opened.
function viewOpened(el) { return document.getElementById(el.id + '-opened').value !== ''; }
document.querySelectorAll('[data-button=view]').forEach(function (el) {
  el.addEventListener('click', function () {
    const opened = document.getElementById(el.id + '-opened');
    opened.value = opened.dataset.openedValue;
    el.classList.add('is-opened');
    el.classList.remove('is-next');
  });
});
// A decline tab opens the page's own decline form: the reason is asked there, as for the page's Decline.
document.querySelectorAll('[data-button=decline]').forEach(function (el) {
  el.addEventListener('click', function (event) {
    if (declineReason.value.trim()) return;
    event.preventDefault();
    declineForm.closest('details').open = true;
    declineReason.scrollIntoView({ block: 'center' });
    declineReason.focus({ preventScroll: true });
  });
});

form.addEventListener('submit', function (event) {
  // An approve tab completes the signer's part without a signature: only the fields (and views) are checked.
  if (event.submitter && event.submitter.dataset.button === 'approve') {
    const todo = nextToDo(true);
    if (todo) { event.preventDefault(); leadTo(todo); }
    return;
  }
  if (!adoptedName()) { event.preventDefault(); showError(t.errorNoName, nameInput, finishButton); return; }
  if (data.freePlacement) {
    if (placements.length === 0) { event.preventDefault(); showError(t.errorNoPlacement, document.querySelector('.page.placing'), finishButton); return; }
    syncPlacements();
  }
  const next = nextToDo();
  if (next) { event.preventDefault(); leadTo(next); }
});

declineForm.addEventListener('submit', function (event) {
  if (!declineReason.value.trim()) { event.preventDefault(); showError(t.errorNoReason, declineReason, declineButton); }
});

Promise.all(data.documents.map(renderDocument)).then(
  function () { document.documentElement.dataset.ready = 'true'; },
  function (error) { document.documentElement.dataset.ready = 'error'; console.error(error); },
);
`;
