import { describe, expect, it } from 'vitest';
import { definitionFor, swaggerDefinitionFor, swaggerErrors } from './helpers/swagger.js';

// The contract check itself must be able to fail: operations map to the
// right definitions, and a wrong shape is reported.
describe('Swagger check used by every API call of the tests', () => {
  it('maps operations and statuses to definitions (v2 and v2.1)', () => {
    const base = 'http://127.0.0.1:1/restapi';
    expect(definitionFor('GET', `${base}/v2/login_information`, 200)).toBe('loginInformation');
    expect(definitionFor('POST', `${base}/v2.1/accounts/a/envelopes`, 201)).toBe('envelopeSummary');
    expect(definitionFor('GET', `${base}/v2/accounts/a/envelopes/e/recipients/`, 200)).toBe('EnvelopeRecipients');
    expect(definitionFor('POST', `${base}/v2/accounts/a/envelopes/e/views/recipient`, 201)).toBe('EnvelopeViews');
    expect(definitionFor('GET', `${base}/v2/accounts/a/envelopes/e/documents`, 200)).toBe('envelopeDocumentsResult');
    expect(definitionFor('GET', `${base}/v2/accounts/a/templates/t`, 200)).toBe('envelopeTemplate');
    expect(definitionFor('GET', `${base}/v2/accounts/a`, 404)).toBe('errorDetails');
    expect(definitionFor('GET', 'http://127.0.0.1:1/sandbox/outbox', 200)).toBeUndefined();
  });

  it('reports numbers where the Swagger says strings, and accepts the right shape', () => {
    expect(swaggerErrors('envelopeSummary', { envelopeId: 12, status: 'sent' })).not.toEqual([]);
    expect(swaggerErrors('EnvelopeRecipients', { signers: [{ recipientId: 1 }] })).not.toEqual([]);
    expect(swaggerErrors('envelopeSummary', { envelopeId: 'x', status: 'sent' })).toEqual([]);
  });

  it("checks /restapi/v2.1 answers against v2.1's Swagger: a v2 documents list (pages as a string) fails there", () => {
    const base = 'http://127.0.0.1:1/restapi';
    expect(swaggerDefinitionFor('GET', `${base}/v2.1/accounts/a/envelopes/e/documents`, 200)).toEqual({
      name: 'envelopeDocumentsResult',
      version: 'v2.1',
    });
    expect(swaggerDefinitionFor('GET', `${base}/v2/accounts/a/envelopes/e/documents`, 200)?.version).toBe('v2');
    // Kept on v2.1 for old clients, checked against v2 (v2.1's Swagger dropped it).
    expect(swaggerDefinitionFor('GET', `${base}/v2.1/login_information`, 200)).toEqual({
      name: 'loginInformation',
      version: 'v2',
    });
    const v2List = { envelopeId: 'e', envelopeDocuments: [{ documentId: '1', pages: '2' }] };
    const v21List = { envelopeId: 'e', envelopeDocuments: [{ documentId: '1', pages: [{ sequence: '1' }] }] };
    expect(swaggerErrors('envelopeDocumentsResult', v2List, 'v2')).toEqual([]);
    expect(swaggerErrors('envelopeDocumentsResult', v2List, 'v2.1')).not.toEqual([]);
    expect(swaggerErrors('envelopeDocumentsResult', v21List, 'v2.1')).toEqual([]);
    expect(swaggerErrors('envelopeDocumentsResult', v21List, 'v2')).not.toEqual([]);
  });
});
