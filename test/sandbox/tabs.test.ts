import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { maxAnchorPlacements } from '../../src/sandbox/esignature/envelopes/tabs/place-tabs.js';
import { authHeader, call, expectApiError, login } from './helpers/api.js';
import { popplerWords, type PopplerWord } from '../pdf/poppler.js';
import { tempPdf, tool } from '../signing/pdf-tools.js';
import { openSigningLink, postForm, signOverHttp } from '../signing/sign-over-http.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// Tabs of every kind through the real sandbox over HTTP (inject()) (issue 19, the
// sandbox's side): anchors placed where poppler reads their text, values read
// back through recipients?include_tabs=true, recipients/{id}/tabs and
// form_data (each answer checked against the Swagger by `call`), the
// service's values filled at signing and every value stamped in the PDF.

let sandbox: RunningSandbox;
let accountBase: string;
let offerPdf: Buffer;

/** An offer letter: anchor words on two pages. */
async function offerLetter(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const one = doc.addPage([612, 792]);
  one.drawText('Offer letter', { x: 72, y: 720, size: 18, font });
  one.drawText('Annual salary: /salary/', { x: 72, y: 640, size: 12, font });
  one.drawText('Start date: /start/', { x: 72, y: 610, size: 12, font });
  one.drawText('Relocation: /reloc/   Office: /office/', { x: 72, y: 580, size: 12, font });
  one.drawText('Signature: /sig1/   Date: /date1/', { x: 72, y: 300, size: 12, font });
  one.drawText('Name: /name1/', { x: 72, y: 260, size: 12, font });
  one.drawText('Initials: /ini/', { x: 72, y: 100, size: 12, font });
  const two = doc.addPage([612, 792]);
  two.drawText('Terms continue here.', { x: 72, y: 720, size: 12, font });
  two.drawText('Initials: /ini/', { x: 300, y: 150, size: 12, font });
  return Buffer.from(await doc.save());
}

const anchor = (anchorString: string, extra: Record<string, unknown> = {}) => ({
  anchorString,
  anchorUnits: 'pixels',
  anchorXOffset: '60',
  anchorYOffset: '-4',
  ...extra,
});

/** A fresh signing address for Grace, the offer's embedded signer (Recipients view, 201). */
async function graceSigningUrl(envelopeId: string): Promise<string> {
  const view = await call(`${accountBase}/envelopes/${envelopeId}/views/recipient`, {
    headers: authHeader(),
    body: {
      email: 'grace@example.com',
      userName: 'Grace Brewster Hopper',
      clientUserId: 'grace-1',
      authenticationMethod: 'none',
      returnUrl: 'http://127.0.0.1:9/done',
    },
  });
  expect(view.status, JSON.stringify(view.json)).toBe(201);
  return view.json.url as string;
}

function offerDefinition(tabs: Record<string, unknown>): Record<string, unknown> {
  return {
    emailSubject: 'Your offer',
    status: 'sent',
    documents: [
      { documentId: '1', name: 'offer.pdf', fileExtension: 'pdf', documentBase64: offerPdf.toString('base64') },
    ],
    recipients: {
      signers: [
        {
          recipientId: '1',
          name: 'Grace Brewster Hopper',
          email: 'grace@example.com',
          clientUserId: 'grace-1',
          routingOrder: '1',
          tabs,
        },
      ],
    },
  };
}

const offerTabs = {
  signHereTabs: [anchor('/sig1/', { anchorXOffset: '0', anchorYOffset: '10' })],
  initialHereTabs: [anchor('/ini/')],
  dateSignedTabs: [anchor('/date1/', { tabLabel: 'dateSigned' })],
  fullNameTabs: [anchor('/name1/', { tabLabel: 'fullName' })],
  textTabs: [anchor('/salary/', { tabLabel: 'salary', value: '85000', locked: 'true' })],
  dateTabs: [anchor('/start/', { tabLabel: 'startDate', value: '2027-01-04', locked: true })],
  checkboxTabs: [anchor('/reloc/', { tabLabel: 'relocation', selected: 'true', anchorXOffset: '70' })],
  listTabs: [
    anchor('/office/', {
      tabLabel: 'office',
      listItems: [
        { text: 'Boston office', value: 'BOS' },
        { text: 'Lisbon office', value: 'LIS', selected: 'true' },
      ],
    }),
  ],
  emailAddressTabs: [{ documentId: '1', pageNumber: '2', xPosition: '72', yPosition: '300', tabLabel: 'email' }],
};

beforeAll(async () => {
  sandbox = await injectedSandbox();
  const { accountId } = await login(sandbox.rootUrl);
  accountBase = `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`;
  offerPdf = await offerLetter();
});
afterAll(async () => sandbox.close());

async function create(tabs: Record<string, unknown>, base = accountBase) {
  return call(`${base}/envelopes`, { headers: authHeader(), body: offerDefinition(tabs) });
}

async function get(path: string, version: 'v2' | 'v2.1' = 'v2.1'): Promise<any> {
  const r = await call(`${accountBase.replace('/v2.1/', `/${version}/`)}${path}`, { headers: authHeader() });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json;
}

/** The poppler word that is `text`, on page `page` (1-based). */
function wordOf(pages: { words: PopplerWord[] }[], page: number, text: string): PopplerWord[] {
  return pages[page - 1]!.words.filter((w) => w.word === text);
}

describe('anchored tabs', () => {
  it('places a tab at every occurrence of its anchor, where poppler reads the anchor, with ids', async () => {
    const r = await create(offerTabs);
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const tabs = await get(`/envelopes/${r.json.envelopeId}/recipients/1/tabs`);
    const pages = await popplerWords(tempPdf(offerPdf));

    const salary = tabs.textTabs[0];
    const [salaryWord] = wordOf(pages, 1, '/salary/');
    expect(salary).toMatchObject({
      documentId: '1',
      pageNumber: '1',
      recipientId: '1',
      value: '85000',
      tabLabel: 'salary',
    });
    expect(salary.tabId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // The anchor's top-left corner, moved by the offsets (pixels are points). The top is
    // the font size above the baseline; poppler's yMin is the font's ascent above it: a
    // few points apart, far less than a line.
    expect(Math.abs(Number(salary.xPosition) - (salaryWord!.xMin + 60))).toBeLessThanOrEqual(2);
    expect(Math.abs(Number(salary.yPosition) - (salaryWord!.yMin - 4))).toBeLessThanOrEqual(4);

    // Two /ini/ anchors, one per page: two initial tabs, each its own id.
    const initials = tabs.initialHereTabs as Record<string, string>[];
    expect(initials.map((t) => t.pageNumber)).toEqual(['1', '2']);
    expect(new Set(initials.map((t) => t.tabId)).size).toBe(2);
    const [ini2] = wordOf(pages, 2, '/ini/');
    expect(Math.abs(Number(initials[1]!.xPosition) - (ini2!.xMin + 60))).toBeLessThanOrEqual(2);
    expect(Math.abs(Number(initials[1]!.yPosition) - (ini2!.yMin - 4))).toBeLessThanOrEqual(4);

    // A positioned tab keeps its place and gets its ids too.
    expect(tabs.emailAddressTabs[0]).toMatchObject({
      pageNumber: '2',
      xPosition: '72',
      yPosition: '300',
      recipientId: '1',
    });
  });

  it('refuses an anchor no document contains with ANCHOR_TAB_STRING_NOT_FOUND, on v2 and v2.1', async () => {
    for (const base of [accountBase, accountBase.replace('/v2.1/', '/v2/')]) {
      const r = await create({ textTabs: [anchor('/nowhere/', { tabLabel: 'x' })] }, base);
      expectApiError(r, 400, 'ANCHOR_TAB_STRING_NOT_FOUND');
      expect(r.json.message).toContain('/nowhere/');
    }
  });

  it('refuses an anchor found more often than the sandbox places tabs for one anchor', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    // 40 lines of 30 words: 1,200 occurrences of "e", more than the cap.
    for (let line = 0; line < 40; line++) page.drawText('e '.repeat(30), { x: 40, y: 760 - line * 18, size: 10, font });
    const many = Buffer.from(await doc.save()).toString('base64');
    expect(1200).toBeGreaterThan(maxAnchorPlacements);
    const definition = offerDefinition({ textTabs: [anchor('e', { tabLabel: 'everywhere' })] });
    definition['documents'] = [{ documentId: '1', name: 'many.pdf', fileExtension: 'pdf', documentBase64: many }];
    const r = await call(`${accountBase}/envelopes`, { headers: authHeader(), body: definition });
    expectApiError(r, 400, 'INVALID_REQUEST_PARAMETER');
    expect(r.json.message).toContain(`at most ${maxAnchorPlacements} tabs`);
  });

  it('drops a tab whose anchor is missing when anchorIgnoreIfNotPresent is true', async () => {
    const r = await create({
      textTabs: [
        anchor('/nowhere/', { tabLabel: 'gone', anchorIgnoreIfNotPresent: 'true' }),
        anchor('/salary/', { tabLabel: 'kept' }),
      ],
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const tabs = await get(`/envelopes/${r.json.envelopeId}/recipients/1/tabs`);
    expect((tabs.textTabs as { tabLabel: string }[]).map((t) => t.tabLabel)).toEqual(['kept']);
  });
});

describe('values', () => {
  it('keeps prefilled values, fills the service’s at signing, answers them on the three GETs and stamps them', async () => {
    const r = await create(offerTabs);
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const envelopeId = r.json.envelopeId as string;

    // Before signing: the prefilled values, in both versions' shapes.
    for (const version of ['v2', 'v2.1'] as const) {
      const form = await get(`/envelopes/${envelopeId}/form_data`, version);
      expect(form.envelopeId).toBe(envelopeId);
      expect(form.formData).toEqual(
        expect.arrayContaining([
          { name: 'salary', value: '85000' },
          { name: 'startDate', value: '2027-01-04' },
          { name: 'relocation', value: 'X' },
          { name: 'office', value: 'LIS', listSelectedValue: 'Lisbon office' },
          { name: 'fullName', value: '' },
        ]),
      );
    }

    expect(await signOverHttp(await graceSigningUrl(envelopeId), 'Grace Hopper')).toBe('signing_complete');

    const recipients = await get(`/envelopes/${envelopeId}/recipients?include_tabs=true`);
    const signer = recipients.signers[0];
    const signed = new Date(signer.signedDateTime);
    const dateText = `${signed.getUTCMonth() + 1}/${signed.getUTCDate()}/${signed.getUTCFullYear()}`;
    expect(signer.tabs.dateSignedTabs[0].value).toBe(dateText);
    expect(signer.tabs.fullNameTabs[0].value).toBe('Grace Brewster Hopper');
    expect(signer.tabs.emailAddressTabs[0].value).toBe('grace@example.com');
    expect(signer.tabs.textTabs[0].value).toBe('85000');

    const tabs = await get(`/envelopes/${envelopeId}/recipients/1/tabs`, 'v2');
    expect(tabs.dateSignedTabs[0].value).toBe(dateText);

    const form = await get(`/envelopes/${envelopeId}/form_data`);
    expect(form.status).toBe('completed');
    expect(form.recipientFormData[0]).toMatchObject({ recipientId: '1', email: 'grace@example.com' });
    expect(form.recipientFormData[0].formData).toEqual(
      expect.arrayContaining([
        { name: 'dateSigned', value: dateText },
        { name: 'fullName', value: 'Grace Brewster Hopper' },
        { name: 'email', value: 'grace@example.com' },
        { name: 'salary', value: '85000' },
      ]),
    );

    // The completed document shows every value where its tab is.
    const res = await sandboxFetch(`${accountBase}/envelopes/${envelopeId}/documents/1`, { headers: authHeader() });
    expect(res.status).toBe(200);
    const file = tempPdf(Buffer.from(await res.arrayBuffer()));
    const { out } = await tool('pdftotext', ['-layout', file, '-']);
    for (const text of [
      '85000',
      '2027-01-04',
      'Lisbon office',
      dateText,
      'Grace Brewster Hopper',
      'grace@example.com',
      'GH',
    ])
      expect(out).toContain(text);
    const pages = await popplerWords(file);
    const [value] = wordOf(pages, 1, '85000');
    const salary = signer.tabs.textTabs[0];
    expect(value!.xMin).toBeGreaterThan(Number(salary.xPosition));
    expect(value!.xMin).toBeLessThan(Number(salary.xPosition) + 10);
    expect(value!.yMin).toBeGreaterThan(Number(salary.yPosition));
    expect(value!.yMax).toBeLessThan(Number(salary.yPosition) + 18);
    // The checkbox's X, and the initials on page 2.
    expect(wordOf(pages, 1, 'X').length).toBeGreaterThan(0);
    expect(wordOf(pages, 2, 'GH').length).toBe(1);
  });

  it('answers UNKNOWN_ENVELOPE_RECIPIENT for the tabs of a recipient the envelope lacks', async () => {
    const r = await create({ textTabs: [anchor('/salary/', { tabLabel: 'salary' })] });
    const res = await call(`${accountBase}/envelopes/${r.json.envelopeId}/recipients/7/tabs`, {
      headers: authHeader(),
    });
    expectApiError(res, 400, 'UNKNOWN_ENVELOPE_RECIPIENT');
  });
});

describe('what the signer enters', () => {
  const entryTabs = {
    signHereTabs: [anchor('/sig1/', { anchorXOffset: '0', anchorYOffset: '10' })],
    textTabs: [
      anchor('/salary/', { tabLabel: 'salary', value: '85000', locked: 'true' }),
      anchor('/start/', { tabLabel: 'nickname' }),
    ],
    numberTabs: [anchor('/date1/', { tabLabel: 'years' })],
    checkboxTabs: [anchor('/reloc/', { tabLabel: 'relocation', anchorXOffset: '70' })],
    listTabs: [
      anchor('/office/', {
        tabLabel: 'office',
        listItems: [
          { text: 'Boston office', value: 'BOS' },
          { text: 'Lisbon office', value: 'LIS' },
        ],
      }),
    ],
  };

  async function openFor(envelopeId: string) {
    return openSigningLink(await graceSigningUrl(envelopeId));
  }

  it('shows each field as its control, refuses to finish without the required ones, keeps locked values, stores and stamps the rest', async () => {
    const r = await create(entryTabs);
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const envelopeId = r.json.envelopeId as string;
    const tabs = await get(`/envelopes/${envelopeId}/recipients/1/tabs`);
    const field = (tab: { tabId: string }) => `tab.${tab.tabId}`;
    const { html, sessionUrl, cookie, csrf } = await openFor(envelopeId);
    // Controls: a read-only prefilled salary, text boxes, a checkbox, a list.
    expect(html).toMatch(new RegExp(`name="${field(tabs.textTabs[0])}" value="85000" readonly`));
    // Each control names the sign form: the page script moves it onto its place on the document.
    expect(html).toMatch(
      new RegExp(`type="text" form="sign-form" name="${field(tabs.textTabs[1])}" value="" required`),
    );
    expect(html).toContain(`type="checkbox" form="sign-form" name="${field(tabs.checkboxTabs[0])}"`);
    expect(html).toContain('name="fieldsShown" value="1"');
    expect(html).toMatch(new RegExp(`<select id="field-\\d+" form="sign-form" name="${field(tabs.listTabs[0])}"`));

    // Required text, number and list left empty: refused, page shown again with the error.
    const refused = await postForm(`${sessionUrl}/sign`, cookie, { signatureName: 'Grace Hopper', csrfToken: csrf });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain('Fill in the required fields: nickname, years, office.');

    // A number that is not one: refused too.
    const notNumber = await postForm(`${sessionUrl}/sign`, cookie, {
      signatureName: 'Grace Hopper',
      csrfToken: csrf,
      [field(tabs.textTabs[1])]: 'Amazing Grace',
      [field(tabs.numberTabs[0])]: 'twelve',
      [field(tabs.listTabs[0])]: 'BOS',
    });
    expect(notNumber.status).toBe(400);
    expect(await notNumber.text()).toContain('do not hold a valid value: years');

    const done = await postForm(`${sessionUrl}/sign`, cookie, {
      signatureName: 'Grace Hopper',
      csrfToken: csrf,
      fieldsShown: '1',
      [field(tabs.textTabs[0])]: '999999', // locked: ignored
      [field(tabs.textTabs[1])]: 'Amazing Grace',
      [field(tabs.numberTabs[0])]: '12',
      [field(tabs.checkboxTabs[0])]: 'true',
      [field(tabs.listTabs[0])]: 'BOS',
    });
    expect(done.status).toBe(303);
    expect(new URL(done.headers.get('location')!).searchParams.get('event')).toBe('signing_complete');

    const form = await get(`/envelopes/${envelopeId}/form_data`);
    expect(form.recipientFormData[0].formData).toEqual([
      { name: 'salary', value: '85000' },
      { name: 'nickname', value: 'Amazing Grace' },
      { name: 'years', value: '12' },
      { name: 'relocation', value: 'X' },
      { name: 'office', value: 'BOS', listSelectedValue: 'Boston office' },
    ]);
    const res = await sandboxFetch(`${accountBase}/envelopes/${envelopeId}/documents/1`, { headers: authHeader() });
    const { out } = await tool('pdftotext', ['-layout', tempPdf(Buffer.from(await res.arrayBuffer())), '-']);
    for (const text of ['85000', 'Amazing Grace', '12', 'Boston office']) expect(out).toContain(text);
    expect(out).not.toContain('999999');
  });
});

describe('formula tabs', () => {
  it('are computed at signing from the values their [TabLabel]s name, rounded as asked, and stamped', async () => {
    const r = await create({
      signHereTabs: [anchor('/sig1/', { anchorXOffset: '0', anchorYOffset: '10' })],
      numberTabs: [
        anchor('/salary/', { tabLabel: 'monthly', value: '1000', locked: 'true' }),
        anchor('/start/', { tabLabel: 'bonus' }),
      ],
      formulaTabs: [
        anchor('/date1/', { tabLabel: 'total', formula: '([monthly] * 12 + [bonus]) / 2', roundDecimalPlaces: '2' }),
      ],
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const envelopeId = r.json.envelopeId as string;
    const tabs = await get(`/envelopes/${envelopeId}/recipients/1/tabs`);
    const { sessionUrl, cookie, csrf } = await openSigningLink(await graceSigningUrl(envelopeId));
    const done = await postForm(`${sessionUrl}/sign`, cookie, {
      signatureName: 'Grace Hopper',
      csrfToken: csrf,
      [`tab.${tabs.numberTabs[1].tabId as string}`]: '501',
    });
    expect(done.status).toBe(303);
    const after = await get(`/envelopes/${envelopeId}/recipients/1/tabs`);
    expect(after.formulaTabs[0].value).toBe('6250.50');
    const res = await sandboxFetch(`${accountBase}/envelopes/${envelopeId}/documents/1`, { headers: authHeader() });
    const { out } = await tool('pdftotext', ['-layout', tempPdf(Buffer.from(await res.arrayBuffer())), '-']);
    expect(out).toContain('6250.50');
  });
});

describe('template roles', () => {
  it('fill the template’s tabs by tabLabel, which keep their place; a role tab with a place of its own is added', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'signrun-tabs-seed-'));
    const templateId = '7a0c2f4e-1b3d-4c5e-8f90-a1b2c3d4e5f6';
    writeFileSync(
      join(dir, 'seed.yaml'),
      [
        'integratorKeys: [tabs-key]',
        'accounts:',
        '  - accountName: Tabs Corp',
        '    users:',
        '      - { userName: tabs@example.com, password: pw }',
        '    templates:',
        `      - templateId: ${templateId}`,
        '        name: Offer',
        '        emailSubject: Your offer',
        '        documents: [{ documentId: "1", name: offer.pdf }]',
        '        roles:',
        '          - roleName: candidate',
        '            routingOrder: "1"',
        '            recipientId: "1"',
        '            tabs:',
        '              signHereTabs: [{ documentId: "1", pageNumber: "1", xPosition: "100", yPosition: "600" }]',
        '              textTabs: [{ tabLabel: salary, documentId: "1", pageNumber: "1", xPosition: "100", yPosition: "500" }]',
        '',
      ].join('\n'),
    );
    const seeded = await injectedSandbox({ seedFile: join(dir, 'seed.yaml') });
    try {
      const credentials = { username: 'tabs@example.com', password: 'pw', integratorKey: 'tabs-key' };
      const { baseUrl } = await login(seeded.rootUrl, credentials);
      const headers = authHeader(credentials);
      const created = await call(`${baseUrl}/envelopes`, {
        headers,
        body: {
          status: 'sent',
          templateId,
          templateRoles: [
            {
              roleName: 'candidate',
              name: 'Ada Lovelace',
              email: 'ada@example.com',
              clientUserId: 'ada',
              tabs: {
                textTabs: [
                  { tabLabel: 'salary', value: '91000', locked: 'true' },
                  { tabLabel: 'unplaced', value: 'ignored' },
                ],
                dateSignedTabs: [{ documentId: '1', pageNumber: '1', xPosition: '300', yPosition: '600' }],
              },
            },
          ],
        },
      });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const envelopeId = created.json.envelopeId as string;
      const tabs = (await call(`${baseUrl}/envelopes/${envelopeId}/recipients/1/tabs`, { headers })).json;
      expect(tabs.textTabs).toHaveLength(1);
      expect(tabs.textTabs[0]).toMatchObject({
        tabLabel: 'salary',
        value: '91000',
        xPosition: '100',
        yPosition: '500',
      });
      expect(tabs.signHereTabs).toHaveLength(1);
      expect(tabs.dateSignedTabs[0]).toMatchObject({ xPosition: '300', recipientId: '1' });

      const view = await call(`${baseUrl}/envelopes/${envelopeId}/views/recipient`, {
        headers,
        body: {
          email: 'ada@example.com',
          userName: 'Ada Lovelace',
          clientUserId: 'ada',
          authenticationMethod: 'none',
          returnUrl: 'http://127.0.0.1:9/',
        },
      });
      expect(await signOverHttp(view.json.url as string, 'Ada Lovelace')).toBe('signing_complete');
      const doc = await sandboxFetch(`${baseUrl}/envelopes/${envelopeId}/documents/1`, { headers });
      const { out } = await tool('pdftotext', ['-layout', tempPdf(Buffer.from(await doc.arrayBuffer())), '-']);
      expect(out).toContain('91000');
    } finally {
      await seeded.close();
    }
  });
});
