import { readFileSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { docusignSpecUrl } from '../sandbox/helpers/docusign-spec.js';
import { accountEndpointUrl, esignatureEndpoints, type Endpoint } from '../../src/client/esignature/endpoints.js';

/**
 * The client's table of endpoints (src/client/esignature/endpoints.ts) is
 * DocuSign's Swagger, row by row: the copy in test/fixtures/docusign decides
 * each path, method, operationId and answer definition, v2.1's unless the
 * row names v2 (login_information exists there only).
 */
interface Swagger {
  paths: Record<
    string,
    Record<string, { operationId?: string; responses?: Record<string, { schema?: { $ref?: string } }> }>
  >;
  definitions: Record<string, unknown>;
}
const swaggers = {
  v2: JSON.parse(readFileSync(docusignSpecUrl('esignature.rest.swagger-v2.json'), 'utf8')) as Swagger,
  'v2.1': JSON.parse(readFileSync(docusignSpecUrl('esignature.rest.swagger-v2.1.json'), 'utf8')) as Swagger,
};

/** What the Swagger says of a row; undefined fields where it has none. */
function swaggerRow(row: Endpoint) {
  const version = row.version ?? 'v2.1';
  const operation = swaggers[version].paths[`/${version}${row.path}`]?.[row.method.toLowerCase()];
  const answers = Object.entries(operation?.responses ?? {})
    .filter(([status]) => status.startsWith('2'))
    .map(([, response]) => response.schema?.$ref);
  return { operationId: operation?.operationId, answers };
}

describe("the client's endpoints, as DocuSign's Swagger states them", () => {
  for (const [name, row] of Object.entries(esignatureEndpoints) as [string, Endpoint][]) {
    it(`${name}: ${row.method} ${row.path} is ${row.operationId}`, () => {
      const found = swaggerRow(row);
      expect(found.operationId).toBe(row.operationId);
      if (row.answer !== undefined) {
        expect(found.answers).toContain(`#/definitions/${row.answer}`);
        expect(swaggers[row.version ?? 'v2.1'].definitions[row.answer]).toBeDefined();
      }
    });
  }

  it('every operation the client names in its API groups has a row', () => {
    const folder = new URL('../../src/client/esignature/', import.meta.url);
    const named = new Set<string>();
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts'))) {
      for (const match of readFileSync(new URL(file, folder), 'utf8').matchAll(
        /(?:urlOf|rootUrlOf)\(\s*[^,]+,\s*'(\w+)'/g,
      )) {
        named.add(match[1]!);
      }
    }
    expect(named.size).toBeGreaterThan(15);
    for (const operation of named) expect(Object.keys(esignatureEndpoints)).toContain(operation);
  });

  it('fills an address under the account, encoding each parameter, in the version the endpoint lives in', () => {
    const base = 'https://demo.docusign.net/restapi/v2/accounts/a1';
    expect(accountEndpointUrl(base, 'downloadDocument', { envelopeId: 'e/1', documentId: 'certificate' })).toBe(
      `${base}/envelopes/e%2F1/documents/certificate`,
    );
    expect(accountEndpointUrl(base, 'getBulkSendBatch', { bulkSendBatchId: 'b1' })).toBe(
      'https://demo.docusign.net/restapi/v2.1/accounts/a1/bulk_send_batch/b1',
    );
    expect(accountEndpointUrl(base, 'listTemplates', {}, new URLSearchParams({ count: '2' }))).toBe(
      `${base}/templates?count=2`,
    );
  });
});
