import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, documentEnvelope, expectShape, login, makePdf } from './helpers/api.js';

// Issue 37, item 1: the status listing (Envelopes_GetEnvelopes) and one
// envelope's GET give the recipients with their tabs when `include` names
// `tabs` too (the Swagger's own example of the listing's include is
// `tabs,recipients`), and without them when it does not, as DocuSign does;
// the tabs are those GET …/recipients gives. Every answer is checked
// against the version's Swagger (helpers/api.ts).

let sandbox: RunningSandbox;
let baseUrl: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, hourlyLimit: 100_000 });
  ({ baseUrl } = await login(sandbox.rootUrl));
});
afterAll(async () => {
  await sandbox.close();
});

type Listed = { envelopes: Array<{ recipients: { signers: Array<{ tabs?: unknown }> } }> };

describe('recipients with their tabs on the status listing', () => {
  it('include=recipients,tabs gives the tabs of GET …/recipients; include=recipients none', async () => {
    const created = await call(`${baseUrl}/envelopes`, {
      headers: authHeader(),
      body: documentEnvelope(await makePdf()),
    });
    expect(created.status).toBe(201);
    const envelopeId = (created.json as { envelopeId: string }).envelopeId;
    const recipients = await call(`${baseUrl}/envelopes/${envelopeId}/recipients?include_tabs=true`, {
      headers: authHeader(),
    });
    const tabsOfFirst = (recipients.json as { signers: Array<{ tabs?: unknown }> }).signers[0]!.tabs;
    expect(tabsOfFirst).toMatchObject({ signHereTabs: [{ documentId: '1', pageNumber: '1' }] });
    for (const version of ['v2', 'v2.1'] as const) {
      const versioned = baseUrl.replace('/restapi/v2/', `/restapi/${version}/`);
      const listing = (include: string) =>
        call(`${versioned}/envelopes?envelope_ids=${envelopeId}&include=${include}`, { headers: authHeader() });
      const withTabs = await listing('recipients,tabs');
      expect(withTabs.status).toBe(200);
      expectShape('envelopesInformation', withTabs.json, version);
      const signers = (withTabs.json as Listed).envelopes[0]!.recipients.signers;
      expect(signers[0]!.tabs).toEqual(tabsOfFirst);
      // The Swagger's own order of the example: the same answer.
      expect(((await listing('tabs,recipients')).json as Listed).envelopes).toEqual(
        (withTabs.json as Listed).envelopes,
      );
      const without = await listing('recipients');
      expect((without.json as Listed).envelopes[0]!.recipients.signers.map((s) => s.tabs)).toEqual([
        undefined,
        undefined,
      ]);
      const one = await call(`${versioned}/envelopes/${envelopeId}?include=recipients,tabs`, { headers: authHeader() });
      expect((one.json as Listed['envelopes'][number]).recipients.signers[0]!.tabs).toEqual(tabsOfFirst);
    }
  });
});
