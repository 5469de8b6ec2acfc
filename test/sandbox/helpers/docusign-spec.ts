/**
 * DocuSign's published descriptions of the API (Swagger v2 and v2.1, the
 * sample Connect message, and service-api.md), copied with their MIT licences
 * into test/fixtures/docusign so that a clone of the repository alone passes
 * its tests. The originals are the spec folder the project shares beside it.
 */
export type DocusignSpecFile =
  'esignature.rest.swagger-v2.json' | 'esignature.rest.swagger-v2.1.json' | 'connect.schema-v2.json' | 'service-api.md';

export function docusignSpecUrl(file: DocusignSpecFile): URL {
  return new URL(`../../fixtures/docusign/${file}`, import.meta.url);
}
