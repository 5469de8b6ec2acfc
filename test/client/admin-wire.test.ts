import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminWireDefinitions } from '../../src/client/admin/admin-wire.js';
import { adminBaseOf } from '../../src/client/admin/admin-base.js';
import { repoRoot } from '../helpers/run-cli.js';

// The Admin API's wire types are a checked table: each property signrun
// sends or reads is one of its Swagger definition's (issue 34).

const swagger = JSON.parse(
  readFileSync(join(repoRoot, 'test/fixtures/docusign/admin.rest.swagger-v2.1.json'), 'utf8'),
) as { definitions: Record<string, { properties?: Record<string, unknown> }>; paths: Record<string, unknown> };

describe("the Admin API's wire", () => {
  it.each(Object.entries(adminWireDefinitions))('%s has the properties signrun uses', (definition, properties) => {
    const known = Object.keys(swagger.definitions[definition]?.properties ?? {});
    expect(known.length).toBeGreaterThan(0);
    for (const property of properties) expect(known).toContain(property);
  });

  it('the paths the client calls are the Swagger’s', () => {
    // The client's calls, by API group (admin-client.ts's methods are one line each).
    const source = ['asset-groups', 'organization-users', 'bulk-import', 'account-settings']
      .map((group) => readFileSync(join(repoRoot, `src/client/admin/${group}.ts`), 'utf8'))
      .join('\n');
    const called = [...source.matchAll(/\$\{scope\.org\}(\/[^`?'"]*)/g)].map(
      (m) =>
        `/v2/organizations/{organizationId}${m[1]!.replace(/\$\{enc\((\w+)\)\}/g, (_s, name: string) => `{${name === 'workId' ? 'assetGroupWorkId' : name}}`)}`,
    );
    expect(called.length).toBeGreaterThan(10);
    // `${scope.org}/` alone is the prefix an export's address must have, not a call.
    for (const path of called.filter((p) => !p.endsWith('/'))) expect(Object.keys(swagger.paths)).toContain(path);
  });

  it('the base: DocuSign’s for its account servers, the origin’s /management otherwise, DOCUSIGN_ADMIN_BASE first', () => {
    const rootUrl = 'https://demo.docusign.net/restapi/v2.1';
    expect(adminBaseOf({ oauthBase: 'account-d.docusign.com', rootUrl })).toBe('https://api-d.docusign.net/management');
    expect(adminBaseOf({ oauthBase: 'https://account.docusign.com', rootUrl })).toBe(
      'https://api.docusign.net/management',
    );
    expect(adminBaseOf({ oauthBase: 'http://127.0.0.1:8080', rootUrl })).toBe('http://127.0.0.1:8080/management');
    expect(adminBaseOf({ rootUrl: 'http://127.0.0.1:9000/restapi/v2.1' })).toBe('http://127.0.0.1:9000/management');
    expect(
      adminBaseOf({ adminBase: 'https://x.example/management/', oauthBase: 'account-d.docusign.com', rootUrl }),
    ).toBe('https://x.example/management');
  });
});
