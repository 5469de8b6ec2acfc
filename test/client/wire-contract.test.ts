import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { swaggerErrors } from '../sandbox/helpers/swagger.js';
import { docusignSpecUrl } from '../sandbox/helpers/docusign-spec.js';
import { envelopeDefinitionOf } from '../../src/runner/envelope-definition.js';
import type { RecipientViewRequest } from '../../src/client/wire-types.js';
import { envelopeFixture, signerFixture } from '../runner/fixtures.js';

/**
 * What signrun sends must validate against DocuSign's Swagger (DESIGN.md,
 * sources of truth), and use only its wire names: the Swagger leaves
 * additionalProperties open, so unknown names are checked separately.
 */
const swagger = JSON.parse(readFileSync(docusignSpecUrl('esignature.rest.swagger-v2.json'), 'utf8')) as {
  definitions: Record<
    string,
    { properties?: Record<string, { $ref?: string; type?: string; items?: { $ref?: string } }> }
  >;
};

/** Field paths of `value` that `#/definitions/<name>` does not declare. */
function unknownFields(value: unknown, name: string, at = ''): string[] {
  const definition = swagger.definitions[name];
  if (!definition?.properties || value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    const property = definition.properties[key];
    if (!property) {
      out.push(`${at}/${key}`);
      continue;
    }
    const ref = property.$ref ?? property.items?.$ref;
    if (!ref) continue;
    const target = ref.slice('#/definitions/'.length);
    const items = Array.isArray(inner) ? inner : [inner];
    items.forEach((item, i) =>
      out.push(...unknownFields(item, target, `${at}/${key}${Array.isArray(inner) ? `/${i}` : ''}`)),
    );
  }
  return out;
}

describe('requests follow the Swagger', () => {
  it('envelopeDefinition from documents (recipients, tabs, custom fields, per-recipient messages)', async () => {
    const envelope = envelopeFixture('wire', {
      emailBlurb: 'Please sign',
      eventNotification: { url: 'https://example.com/hook' },
      customFields: [{ name: 'employeeId', value: 'E1' }],
      recipients: [
        signerFixture('1', {
          routingOrder: '1',
          supportedLanguage: 'fr',
          emailSubject: 'Objet',
          emailBody: 'Corps',
          signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '10', yPosition: '20' }],
        }),
        signerFixture('2', { routingOrder: '2' }),
      ],
    });
    const definition = await envelopeDefinitionOf(envelope);
    expect(swaggerErrors('envelopeDefinition', definition)).toEqual([]);
    expect(unknownFields(definition, 'envelopeDefinition')).toEqual([]);
    expect(definition.customFields?.textCustomFields?.map((f) => f.name)).toEqual([
      'employeeId',
      'signrun',
      'signrunJob',
      'signrunDigest',
    ]);
    expect(definition.transactionId).toMatch(/^sr-[0-9a-f]{40}$/);
  });

  it('envelopeDefinition from a template', async () => {
    const envelope = envelopeFixture('wire-template', {
      kind: 'template',
      documents: [],
      recipients: [],
      templateId: '3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01',
      templateRoles: [
        { roleName: 'employee', name: 'A', email: 'a@example.com', clientUserId: 'a', routingOrder: '1' },
      ],
    });
    const definition = await envelopeDefinitionOf(envelope);
    expect(swaggerErrors('envelopeDefinition', definition)).toEqual([]);
    expect(unknownFields(definition, 'envelopeDefinition')).toEqual([]);
    expect(definition.documents).toBeUndefined();
  });

  it('recipientViewRequest', () => {
    const request: RecipientViewRequest = {
      returnUrl: 'https://example.com/done',
      authenticationMethod: 'none',
      clientUserId: 'c',
      email: 'a@example.com',
      userName: 'A',
      recipientId: '1',
      userId: 'u',
    };
    expect(swaggerErrors('recipientViewRequest', request)).toEqual([]);
    expect(unknownFields(request, 'recipientViewRequest')).toEqual([]);
  });

  it('the unknown-field check itself catches a wrong wire name', () => {
    expect(
      unknownFields({ emailSubject: 's', recipients: { signers: [{ fullname: 'x' }] } }, 'envelopeDefinition'),
    ).toEqual(['/recipients/signers/0/fullname']);
  });
});
