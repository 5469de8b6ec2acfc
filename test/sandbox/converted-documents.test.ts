import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, expectApiError, login, makePdf } from './helpers/api.js';
import { popplerWords } from '../pdf/poppler.js';
import { minimalDocx } from '../helpers/minimal-docx.js';
import { tempPdf, tool } from '../signing/pdf-tools.js';
import { signOverHttp } from '../signing/sign-over-http.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// Documents that are not PDFs (issue 20, part 3): the sandbox keeps the PDF
// rendition of an HTML or DOCX document, as DocuSign converts them; anchors
// are found in it, it is stamped and downloaded as a PDF. Both API versions.

let sandbox: RunningSandbox;
let accountId: string;

beforeAll(async () => {
  sandbox = await injectedSandbox();
  ({ accountId } = await login(sandbox.rootUrl));
});
afterAll(async () => sandbox.close());

const base = (version: 'v2' | 'v2.1') => `${sandbox.origin}/restapi/${version}/accounts/${accountId}`;

const offerHtml = Buffer.from(
  '<html><head><style>h1 { color: navy }</style></head><body><h1>Offer letter</h1>' +
    '<p>Dear Grace, we offer you the position of engineer.</p><ul><li>Salary: 85,000</li></ul>' +
    '<p>Signature: /sig1/</p></body></html>',
);
const termsDocx = minimalDocx([
  { text: 'Terms of employment', heading: 1 },
  { text: 'The employee keeps the secrets of the company.' },
  { text: 'Initials: /ini2/' },
]);

function definition(documents: Array<Record<string, unknown>>): Record<string, unknown> {
  return {
    emailSubject: 'Your offer',
    status: 'sent',
    documents,
    recipients: {
      signers: [
        {
          recipientId: '1',
          name: 'Grace Hopper',
          email: 'grace@example.com',
          clientUserId: 'grace-1',
          tabs: {
            signHereTabs: [{ anchorString: '/sig1/', anchorYOffset: '-10' }],
            initialHereTabs: [{ anchorString: '/ini2/' }],
          },
        },
      ],
    },
  };
}

const converted = () => [
  { documentId: '1', name: 'offer.html', fileExtension: 'html', documentBase64: offerHtml.toString('base64') },
  // No fileExtension: not a PDF, so the name's extension tells what it is.
  { documentId: '2', name: 'terms.docx', documentBase64: termsDocx.toString('base64') },
];

async function signingUrl(version: 'v2' | 'v2.1', envelopeId: string): Promise<string> {
  const view = await call(`${base(version)}/envelopes/${envelopeId}/views/recipient`, {
    headers: authHeader(),
    body: {
      email: 'grace@example.com',
      userName: 'Grace Hopper',
      clientUserId: 'grace-1',
      authenticationMethod: 'none',
      returnUrl: 'http://127.0.0.1:9/done',
    },
  });
  expect(view.status, JSON.stringify(view.json)).toBe(201);
  return view.json.url as string;
}

describe('documents DocuSign converts', () => {
  for (const version of ['v2', 'v2.1'] as const) {
    it(`${version}: keeps an HTML and a DOCX as PDF renditions, places anchored tabs in them, stamps and serves them as PDFs`, async () => {
      const created = await call(`${base(version)}/envelopes`, {
        headers: authHeader(),
        body: definition(converted()),
      });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const envelopeId = created.json.envelopeId as string;

      const listed = await call(`${base(version)}/envelopes/${envelopeId}/documents`, { headers: authHeader() });
      expect(listed.status).toBe(200);
      const docs = (listed.json.envelopeDocuments as Array<Record<string, unknown>>).filter(
        (d) => d['type'] === 'content',
      );
      // The name is kept, as DocuSign keeps it; the pages are the rendition's.
      // (v2.1 lists pages one by one, v2 counts them.)
      const pages = (d: Record<string, unknown>) =>
        Array.isArray(d['pages']) ? d['pages'].length : Number(d['pages']);
      expect(docs.map((d) => [d['documentId'], d['name'], pages(d)])).toEqual([
        ['1', 'offer.html', 1],
        ['2', 'terms.docx', 1],
      ]);

      // The anchors were found in the renditions: each tab is on its document's page 1, at its anchor.
      const tabs = await call(`${base(version)}/envelopes/${envelopeId}/recipients/1/tabs`, { headers: authHeader() });
      expect(tabs.status).toBe(200);
      const signHere = (tabs.json.signHereTabs as Array<Record<string, string>>)[0]!;
      const initialHere = (tabs.json.initialHereTabs as Array<Record<string, string>>)[0]!;
      expect([signHere.documentId, signHere.pageNumber]).toEqual(['1', '1']);
      expect([initialHere.documentId, initialHere.pageNumber]).toEqual(['2', '1']);

      expect(await signOverHttp(await signingUrl(version, envelopeId), 'Grace Hopper')).toBe('signing_complete');

      for (const [documentId, text, anchorWord] of [
        ['1', ['Offer letter', 'Dear Grace, we offer you the position of engineer.', 'Salary: 85,000'], '/sig1/'],
        ['2', ['Terms of employment', 'The employee keeps the secrets of the company.'], '/ini2/'],
      ] as const) {
        const download = await call(`${base(version)}/envelopes/${envelopeId}/documents/${documentId}`, {
          headers: authHeader(),
        });
        expect(download.status).toBe(200);
        expect(download.headers.get('content-type')).toBe('application/pdf');
        expect(download.headers.get('content-disposition')).toMatch(/filename="(offer\.html|terms\.docx)\.pdf"/);
        expect(download.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        const path = tempPdf(download.bytes);
        const out = (await tool('pdftotext', [path, '-'])).out;
        for (const line of text) expect(out).toContain(line);
        // The stamp is where the anchor is: the signer's mark starts at the anchor's left edge, on its page.
        const [page] = await popplerWords(path);
        const anchor = page!.words.find((w) => w.word === anchorWord)!;
        const x = Number(documentId === '1' ? signHere.xPosition : initialHere.xPosition);
        expect(x).toBeCloseTo(anchor.xMin, -1);
        expect(page!.words.some((w) => /^(Grace|GH)$/.test(w.word) && Math.abs(w.xMin - anchor.xMin) < 20)).toBe(true);
      }
    });
  }

  it('still refuses what is neither a PDF nor a kind it converts, and a DOCX it cannot read, with FORMAT_CONVERSION_ERROR', async () => {
    const pdf = (await makePdf(1)).toString('base64');
    const refused = async (document: Record<string, unknown>) =>
      expectApiError(
        await call(`${base('v2.1')}/envelopes`, { headers: authHeader(), body: definition([document]) }),
        400,
        'FORMAT_CONVERSION_ERROR',
      );
    const hello = Buffer.from('hello').toString('base64');
    await refused({ documentId: '1', name: 'sheet.xlsx', fileExtension: 'xlsx', documentBase64: hello });
    await refused({ documentId: '1', name: 'notes', documentBase64: hello });
    await refused({ documentId: '1', name: 'broken.docx', fileExtension: 'docx', documentBase64: hello });
    // A PDF stays a PDF whatever its name says, when no fileExtension says otherwise.
    const named = await call(`${base('v2.1')}/envelopes`, {
      headers: authHeader(),
      body: {
        ...definition([{ documentId: '1', name: 'scan.docx', documentBase64: pdf }]),
        recipients: { signers: [{ recipientId: '1', name: 'Grace Hopper', email: 'grace@example.com' }] },
      },
    });
    expect(named.status, JSON.stringify(named.json)).toBe(201);
  });

  it('reads a creation request written in PascalCase, as DocuSign does', async () => {
    const created = await call(`${base('v2.1')}/envelopes`, {
      headers: authHeader(),
      body: {
        EmailSubject: 'Pascal',
        Status: 'sent',
        Documents: [
          {
            DocumentId: '1',
            Name: 'note.txt',
            FileExtension: 'txt',
            DocumentBase64: Buffer.from('Sign: /s/').toString('base64'),
          },
        ],
        Recipients: {
          Signers: [
            {
              RecipientId: '7',
              Name: 'Ada Lovelace',
              Email: 'ada@example.com',
              ClientUserId: 'ada-1',
              RoutingOrder: '1',
              Tabs: { SignHereTabs: [{ AnchorString: '/s/', AnchorXOffset: '5' }] },
            },
          ],
        },
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const envelopeId = created.json.envelopeId as string;
    const recipients = await call(`${base('v2.1')}/envelopes/${envelopeId}/recipients?include_tabs=true`, {
      headers: authHeader(),
    });
    const signer = (recipients.json.signers as Array<Record<string, any>>)[0]!;
    expect([signer.recipientId, signer.name, signer.email, signer.clientUserId]).toEqual([
      '7',
      'Ada Lovelace',
      'ada@example.com',
      'ada-1',
    ]);
    expect(signer.tabs.signHereTabs).toHaveLength(1);
    const envelope = await call(`${base('v2.1')}/envelopes/${envelopeId}`, { headers: authHeader() });
    expect([envelope.json.emailSubject, envelope.json.status]).toEqual(['Pascal', 'sent']);
  });
});
