import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, login } from './helpers/api.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// DocuSign's eg038 (code-examples-node, lib/eSignature/examples/responsiveSigning.js):
// a "signable HTML document" — no documentBase64, the HTML itself in
// htmlDefinition.source, with <ds-signature> and <input data-ds-type> field
// elements, and formula tabs anchored on texts of the HTML. The body below
// is what docusign-esign sends for the example's makeEnvelope (its order
// form after the example's own substitutions, shortened to one page). The
// sandbox answered INVALID_REQUEST_BODY ("documents[0] has no content").

const orderForm = `<!DOCTYPE html>
<html>
    <head>
      <meta charset="UTF-8">
    </head>
    <body style="font-family:sans-serif;margin:2em;line-height:1.5;">
    <h1 style="font-family: 'Trebuchet MS', Helvetica, sans-serif;color: darkblue;margin-bottom: 0;">World Wide Corp</h1>
    <h4>Ordered by Sam Signer</h4>
    <p style="margin-top:0em; margin-bottom:0em;">Email: signer@example.com</p>
    <p style="margin-top:0em; margin-bottom:0em;">Copy to: Cee Cee, cc@example.com</p>
    <table style="font-family:sans-serif;text-align:left;" summary="Employee Pay Sheet">
        <tbody>
            <tr>
                <td>Harmonica</td>
                <td><span style="color:black;"><input data-ds-type="number" name="l1q"/></span></td>
                <td>$5</td>
                <td>$<span style="color:white;">/l1e/</span></td>
            </tr>
            <tr>
                <td>Xylophone</td>
                <td><span style="color:black;"><input data-ds-type="number" name="l2q"/></span></td>
                <td>$150</td>
                <td>$<span style="color:white;">/l2e/</span></td>
            </tr>
            <tr>
                <td colspan="3">Total:</td>
                <td>$<span style="color:white;">/l3t/</span></td>
            </tr>
        </tbody>
    </table>
    <!-- Note the anchor tag for the signature field is in white. -->
    <h3 style="margin-top:3em;">Agreed: <span style="color:white;"><ds-signature data-ds-role="Signer"/></span></h3>
    </body>
</html>
`;

const formula = (anchor: string, label: string, expression: string, extra: Record<string, string> = {}) => ({
  anchorString: anchor,
  anchorUnits: 'pixels',
  anchorXOffset: '105',
  anchorYOffset: '-8',
  disableAutoSize: 'false',
  font: 'helvetica',
  fontColor: 'black',
  fontSize: 'size11',
  formula: expression,
  locked: 'true',
  required: 'true',
  roundDecimalPlaces: '0',
  tabLabel: label,
  ...extra,
});

/** eg038's envelope definition as docusign-esign serialises it. */
const eg038Envelope = {
  documents: [{ documentId: '1', htmlDefinition: { source: orderForm }, name: 'doc1.html' }],
  emailSubject: 'Example Signing Document',
  recipients: {
    carbonCopies: [{ email: 'cc@example.com', name: 'Cee Cee', recipientId: '2', routingOrder: '2' }],
    signers: [
      {
        clientUserId: '1000',
        email: 'signer@example.com',
        name: 'Sam Signer',
        recipientId: '1',
        roleName: 'Signer',
        routingOrder: '1',
        tabs: {
          formulaTabs: [
            formula('/l1e/', 'l1e', '[l1q] * 5'),
            formula('/l2e/', 'l2e', '[l2q] * 150'),
            formula('/l3t/', 'l3t', '[l1e] + [l2e]', { bold: 'true' }),
          ],
        },
      },
    ],
  },
  status: 'sent',
};

let sandbox: RunningSandbox;
let baseUrl: string;
beforeAll(async () => {
  sandbox = await injectedSandbox({ quiet: true });
  baseUrl = (await login(`${sandbox.origin}/restapi/v2.1`)).baseUrl;
});
afterAll(async () => sandbox.close());

describe("eg038's signable HTML document (htmlDefinition.source)", () => {
  it("makes the envelope: the HTML as its document, its field elements as the signer's tabs, then the signing view", async () => {
    const created = await call(`${baseUrl}/envelopes`, { headers: authHeader(), body: eg038Envelope });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const envelopeId = created.json.envelopeId as string;

    const tabs = await call(`${baseUrl}/envelopes/${envelopeId}/recipients/1/tabs`, { headers: authHeader() });
    expect(tabs.status).toBe(200);
    expect(tabs.json.signHereTabs).toHaveLength(1);
    expect((tabs.json.numberTabs as { tabLabel: string }[]).map((t) => t.tabLabel)).toEqual(['l1q', 'l2q']);
    expect((tabs.json.formulaTabs as { tabLabel: string }[]).map((t) => t.tabLabel)).toEqual(['l1e', 'l2e', 'l3t']);
    // Placed where the elements were: on the document's first page.
    for (const tab of [...tabs.json.signHereTabs, ...tabs.json.numberTabs] as {
      documentId: string;
      pageNumber: string;
    }[])
      expect([tab.documentId, tab.pageNumber]).toEqual(['1', '1']);

    const document = await call(`${baseUrl}/envelopes/${envelopeId}/documents/1`, { headers: authHeader() });
    expect(document.status).toBe(200);
    expect(document.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // The example's second call: the signer's view (its recipientViewRequest).
    const view = await call(`${baseUrl}/envelopes/${envelopeId}/views/recipient`, {
      headers: authHeader(),
      body: {
        authenticationMethod: 'none',
        clientUserId: '1000',
        email: 'signer@example.com',
        pingFrequency: 600,
        returnUrl: 'http://localhost:3000/ds-return?state=123',
        userName: 'Sam Signer',
      },
    });
    expect(view.status, JSON.stringify(view.json)).toBe(201);
    expect(view.json.url).toMatch(new RegExp(`^${sandbox.origin}/signing/`));
  });

  it('refuses a field element whose role the envelope does not have, saying which', async () => {
    const body = structuredClone(eg038Envelope);
    body.documents[0]!.htmlDefinition.source = orderForm.replace('data-ds-role="Signer"', 'data-ds-role="Approver"');
    const created = await call(`${baseUrl}/envelopes`, { headers: authHeader(), body });
    expect(created.status).toBe(400);
    expect(created.json.errorCode).toBe('INVALID_REQUEST_BODY');
    expect(created.json.message).toContain('data-ds-role="Approver"');
  });
});
