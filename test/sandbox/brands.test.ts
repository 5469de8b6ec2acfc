import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { minimalDocx } from '../helpers/minimal-docx.js';
import { authHeader, call, expectApiError, login, makePdf, templateId } from './helpers/api.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// Brands (Accounts: Brands in the v2.1 Swagger) over HTTP through inject(), every JSON
// answer checked against the Swagger by `call`; and DocuSign's brand
// examples (code-examples-node, lib/eSignature/examples: createBrand.js =
// eg028, applyBrandToEnvelope.js = eg029, applyBrandToTemplate.js = eg030),
// their bodies as the Node SDK puts them on the wire.

let sandbox: RunningSandbox;
let base: string;
const auth = authHeader();
/** A 1×1 PNG. */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  sandbox = await injectedSandbox();
  const { accountId } = await login(sandbox.rootUrl);
  base = `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`;
});
afterAll(async () => sandbox.close());

const outboxTo = async (to: string, envelopeId: string) =>
  (
    (await (
      await sandboxFetch(`${sandbox.origin}/sandbox/outbox?to=${encodeURIComponent(to)}&envelopeId=${envelopeId}`)
    ).json()) as {
      messages: { body: string; subject: string }[];
    }
  ).messages;

/** eg029's makeEnvelope(args), as JSON: three documents (HTML, DOCX, PDF) anchored by **signature_1** and /sn1/. */
async function eg029Envelope(args: { signerEmail: string; signerName: string; brandId: string; status: string }) {
  const document1 = `
    <!DOCTYPE html>
    <html><head><meta charset="UTF-8"></head>
        <body style="font-family:sans-serif;margin-left:2em;">
        <h1>World Wide Corp</h1>
        <h4>Ordered by ${args.signerName}</h4>
        <p>Email: ${args.signerEmail}</p>
        <h3 style="margin-top:3em;">Agreed: <span style="color:white;">**signature_1**/</span></h3>
        </body>
    </html>`;
  return {
    emailSubject: 'Please sign this document set',
    documents: [
      {
        documentBase64: Buffer.from(document1).toString('base64'),
        name: 'Order acknowledgement',
        fileExtension: 'html',
        documentId: '1',
      },
      {
        documentBase64: minimalDocx([{ text: 'Battle plan' }, { text: 'Signature: /sn1/' }]).toString('base64'),
        name: 'Battle Plan',
        fileExtension: 'docx',
        documentId: '2',
      },
      {
        documentBase64: (await makePdf(1, 'Lorem ipsum /sn1/')).toString('base64'),
        name: 'Lorem Ipsum',
        fileExtension: 'pdf',
        documentId: '3',
      },
    ],
    recipients: {
      signers: [
        {
          email: args.signerEmail,
          name: args.signerName,
          recipientId: '1',
          routingOrder: '1',
          tabs: {
            signHereTabs: [
              { anchorString: '**signature_1**', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' },
              { anchorString: '/sn1/', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' },
            ],
          },
        },
      ],
    },
    status: args.status,
    brandId: args.brandId,
  };
}

describe('brands', () => {
  let brandId: string;

  it("creates eg028's brand (brandName, defaultBrandLanguage) and answers AccountBrands holding it, as the example reads brands[0].brandId", async () => {
    const r = await call(`${base}/brands`, {
      method: 'POST',
      headers: auth,
      body: { brandName: 'Example brand', defaultBrandLanguage: 'en' },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    brandId = r.json.brands[0].brandId;
    expect(r.json.brands[0]).toMatchObject({
      brandName: 'Example brand',
      defaultBrandLanguage: 'en',
      isSendingDefault: false,
    });
    // eg029/eg030's getBrands: the list the form offers.
    const list = await call(`${base}/brands`, { headers: auth });
    expect(list.json.brands.map((b: { brandId: string }) => b.brandId)).toContain(brandId);
  });

  it('reads, updates (keeping what the body leaves out), and refuses a colour that is not #rrggbb', async () => {
    const updated = await call(`${base}/brands/${brandId}`, {
      method: 'PUT',
      headers: auth,
      body: {
        brandCompany: 'World Wide Corp',
        colors: [
          { name: 'headerBackground', value: '#7a1f5c' },
          { name: 'buttonPrimaryBackground', value: '#005a32' },
        ],
        emailContent: [{ emailContentType: 'envelopeActivation', content: 'World Wide Corp asks you to sign.' }],
      },
    });
    expect(updated.status, JSON.stringify(updated.json)).toBe(200);
    expect(updated.json).toMatchObject({
      brandName: 'Example brand',
      defaultBrandLanguage: 'en',
      brandCompany: 'World Wide Corp',
    });
    const read = await call(`${base}/brands/${brandId}`, { headers: auth });
    expect(read.json.colors).toEqual([
      { name: 'headerBackground', value: '#7a1f5c' },
      { name: 'buttonPrimaryBackground', value: '#005a32' },
    ]);
    const bad = await call(`${base}/brands/${brandId}`, {
      method: 'PUT',
      headers: auth,
      body: { colors: [{ name: 'headerBackground', value: 'red;}body{display:none' }] },
    });
    expectApiError(bad, 400, 'INVALID_REQUEST_BODY');
    expectApiError(await call(`${base}/brands/${crypto.randomUUID()}`, { headers: auth }), 400, 'INVALID_BRAND_ID');
  });

  it('keeps a logo (PUT the image, GET it back, listed in logos), refuses what is not an image, deletes it', async () => {
    const put = await sandboxFetch(`${base}/brands/${brandId}/logos/primary`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'image/png' },
      body: png,
    });
    expect(put.status).toBe(200);
    const got = await sandboxFetch(`${base}/brands/${brandId}/logos/primary`, { headers: auth });
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await got.arrayBuffer()).equals(png)).toBe(true);
    expect((await call(`${base}/brands/${brandId}`, { headers: auth })).json.logos.primary).toMatch(
      /\/logos\/primary$/,
    );
    const notImage = await call(`${base}/brands/${brandId}/logos/secondary`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'image/png' },
      raw: Buffer.from('<svg onload=alert(1)>'),
    });
    expectApiError(notImage, 400, 'INVALID_REQUEST_BODY');
    expect((await sandboxFetch(`${base}/brands/${brandId}/logos/secondary`, { headers: auth })).status).toBe(404);
    const resources = await call(`${base}/brands/${brandId}/resources`, { headers: auth });
    expect(resources.status).toBe(200);
  });

  it("sends eg029's envelope with its brandId: the signer's message carries the brand's company and email text", async () => {
    const r = await call(`${base}/envelopes`, {
      method: 'POST',
      headers: auth,
      body: await eg029Envelope({ signerEmail: 'ada@example.com', signerName: 'Ada', brandId, status: 'sent' }),
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect((await call(`${base}/envelopes/${r.json.envelopeId}`, { headers: auth })).json.brandId).toBe(brandId);
    const [message] = await outboxTo('ada@example.com', r.json.envelopeId);
    expect(message!.body.split('\n\n').slice(0, 2)).toEqual(['World Wide Corp', 'World Wide Corp asks you to sign.']);
  });

  it("sends eg030's envelope (templateId, brandId, templateRoles, status sent), and refuses a brandId of no brand", async () => {
    const body = {
      templateId,
      brandId,
      templateRoles: [
        { email: 'sam@example.com', name: 'Sam', roleName: 'employee' },
        { email: 'cee@example.com', name: 'Cee', roleName: 'employer' },
      ],
      status: 'sent',
    };
    const r = await call(`${base}/envelopes`, { method: 'POST', headers: auth, body });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect((await outboxTo('sam@example.com', r.json.envelopeId))[0]!.body).toMatch(/^World Wide Corp\n\n/);
    const unknown = await call(`${base}/envelopes`, {
      method: 'POST',
      headers: auth,
      body: { ...body, brandId: crypto.randomUUID() },
    });
    expectApiError(unknown, 400, 'INVALID_BRAND_ID');
  });

  it("brands an envelope that names none with the account's sending default; one default at a time", async () => {
    const other = await call(`${base}/brands`, {
      method: 'POST',
      headers: auth,
      body: { brandName: 'Default brand', brandCompany: 'Default Co', isSendingDefault: 'true' },
    });
    const defaultId = other.json.brands[0].brandId;
    await call(`${base}/brands/${brandId}`, { method: 'PUT', headers: auth, body: { isSendingDefault: true } });
    const list = await call(`${base}/brands`, { headers: auth });
    expect(list.json.senderBrandIdDefault).toBe(brandId);
    expect(list.json.brands.filter((b: { isSendingDefault: boolean }) => b.isSendingDefault)).toHaveLength(1);
    await call(`${base}/brands/${defaultId}`, { method: 'PUT', headers: auth, body: { isSendingDefault: true } });
    const r = await call(`${base}/envelopes`, {
      method: 'POST',
      headers: auth,
      body: {
        templateId,
        templateRoles: [
          { email: 'dee@example.com', name: 'Dee', roleName: 'employee' },
          { email: 'eve@example.com', name: 'Eve', roleName: 'employer' },
        ],
        status: 'sent',
      },
    });
    expect((await outboxTo('dee@example.com', r.json.envelopeId))[0]!.body).toMatch(/^Default Co\n\n/);
  });

  it('deletes brands (several, then one); a deleted brand is unknown', async () => {
    const made = await call(`${base}/brands`, { method: 'POST', headers: auth, body: { brandName: 'Short-lived' } });
    const id = made.json.brands[0].brandId;
    const many = await call(`${base}/brands`, { method: 'DELETE', headers: auth, body: { brands: [{ brandId: id }] } });
    expect(many.status).toBe(200);
    expect(many.json.brands.map((b: { brandId: string }) => b.brandId)).not.toContain(id);
    const made2 = await call(`${base}/brands`, { method: 'POST', headers: auth, body: { brandName: 'Short-lived 2' } });
    const id2 = made2.json.brands[0].brandId;
    expect((await call(`${base}/brands/${id2}`, { method: 'DELETE', headers: auth })).status).toBe(200);
    expectApiError(await call(`${base}/brands/${id2}`, { headers: auth }), 400, 'INVALID_BRAND_ID');
  });
});
