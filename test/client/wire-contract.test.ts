import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swaggerErrors, type ApiVersion } from '../sandbox/helpers/swagger.js';
import { docusignSpecUrl } from '../sandbox/helpers/docusign-spec.js';
import { envelopeDefinitionOf } from '../../src/runner/envelopes/envelope-definition.js';
import type { NewAccountDefinition, RecipientViewRequest } from '../../src/client/wire-types.js';
import { EsignatureClient, newAccountDefinitionV21, pageCountOf } from '../../src/client/esignature-client.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { envelopeFixture, signerFixture } from '../runner/fixtures.js';
import { tabKinds, type TabFieldType } from '../../src/envelope/index.js';
import type { ResolvedTab } from '../../src/jobs/model.js';

/**
 * What signrun sends must validate against DocuSign's Swagger of the version
 * in use (DESIGN.md, sources of truth) — v2.1 by default, v2 for old setups —
 * and use only its wire names: the Swagger leaves additionalProperties open,
 * so unknown names are checked separately. What it reads, it reads in both
 * versions' shapes.
 */
type Definitions = Record<
  string,
  { properties?: Record<string, { $ref?: string; type?: string; items?: { $ref?: string } }> }
>;
const definitions: Record<ApiVersion, Definitions> = {
  v2: (
    JSON.parse(readFileSync(docusignSpecUrl('esignature.rest.swagger-v2.json'), 'utf8')) as {
      definitions: Definitions;
    }
  ).definitions,
  'v2.1': (
    JSON.parse(readFileSync(docusignSpecUrl('esignature.rest.swagger-v2.1.json'), 'utf8')) as {
      definitions: Definitions;
    }
  ).definitions,
};

/** Field paths of `value` that `#/definitions/<name>` of `version` does not declare. */
function unknownFields(value: unknown, name: string, version: ApiVersion = 'v2.1', at = ''): string[] {
  const definition = definitions[version][name];
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
      out.push(...unknownFields(item, target, version, `${at}/${key}${Array.isArray(inner) ? `/${i}` : ''}`)),
    );
  }
  return out;
}

/** Both: errors against the Swagger and unknown wire names. */
function offSwagger(name: string, value: unknown, version: ApiVersion): string[] {
  return [...swaggerErrors(name, value, version), ...unknownFields(value, name, version)];
}

const versions: ApiVersion[] = ['v2.1', 'v2'];

describe.each(versions)('requests follow the %s Swagger', (version) => {
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
          tabs: [
            {
              kind: 'signHere',
              place: { documentId: '1', pageNumber: '1', xPosition: '10', yPosition: '20' },
              written: ['tabs', 0],
            },
          ],
        }),
        signerFixture('2', { routingOrder: '2' }),
      ],
    });
    const definition = await envelopeDefinitionOf(envelope);
    expect(offSwagger('envelopeDefinition', definition, version)).toEqual([]);
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
        {
          kind: 'signer',
          roleName: 'employee',
          name: 'A',
          email: 'a@example.com',
          clientUserId: 'a',
          routingOrder: '1',
          tabs: [],
          written: ['templateRoles', 0],
        },
      ],
    });
    const definition = await envelopeDefinitionOf(envelope);
    expect(offSwagger('envelopeDefinition', definition, version)).toEqual([]);
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
    expect(offSwagger('recipientViewRequest', request, version)).toEqual([]);
  });

  it('newAccountDefinition: the settings as each version has them (v2 name/value lists, v2.1 objects)', () => {
    const sent = version === 'v2' ? accountDefinition : newAccountDefinitionV21(accountDefinition);
    // v2 keeps service-api.md 4.3's payload, nulls for the unused objects, as
    // the Python client sent it and DocuSign took it; v2.1's leaves them out.
    const nulls = /^\/(creditCardInformation|referralInformation|socialAccountInformation) must be object$/;
    expect(
      swaggerErrors('newAccountDefinition', sent, version).filter((e) => version === 'v2.1' || !nulls.test(e)),
    ).toEqual([]);
    // The other version's shape is refused: the check can fail.
    const other = version === 'v2' ? newAccountDefinitionV21(accountDefinition) : accountDefinition;
    expect(swaggerErrors('newAccountDefinition', other, version)).not.toEqual([]);
  });
});

// Every tab kind and field is v2.1's (the version DocuSign keeps, the catalogue's source): v2's Swagger
// lacks some kinds (currency, phone number) and fields (width, height and fonts of several kinds).
describe('requests follow the v2.1 Swagger for tabs', () => {
  it('envelopeDefinition with every tab kind, every field, placed by position and by anchor, and role tabs', async () => {
    const sample: Record<TabFieldType, unknown> = {
      string: 'x',
      integer: '12',
      number: '1.5',
      boolean: 'true',
      'list-items': [{ text: 'A', value: 'a', selected: 'true' }],
      radios: [],
    };
    const tabs: ResolvedTab[] = tabKinds.flatMap((kind, k) => {
      const radio = kind.valueType === 'radio';
      const fields: Record<string, string> = {};
      for (const [field, type] of Object.entries(kind.fields))
        if (field !== 'value' && type !== 'list-items' && type !== 'radios') fields[field] = sample[type] as string;
      const base = {
        kind: kind.name,
        fields,
        ...('value' in kind.fields ? { value: 'v' } : {}),
        ...('listItems' in kind.fields ? { listItems: sample['list-items'] as ResolvedTab['listItems'] } : {}),
        ...(radio
          ? {
              radios: [
                {
                  place: { documentId: '1', pageNumber: '1', xPosition: '1', yPosition: '2' },
                  value: 'a',
                  fields: {
                    selected: 'true',
                    locked: 'false',
                    required: 'false',
                    font: 'helvetica',
                    fontSize: 'size9',
                    bold: 'false',
                  },
                },
                { place: { anchorString: 'Holidays', anchorXOffset: '3', anchorUnits: 'pixels' }, value: 'b' },
              ],
            }
          : {}),
        written: ['tabs', kind.collection, 0],
      };
      return [
        { ...base, place: { documentId: '1', pageNumber: '1', xPosition: String(k), yPosition: '20' } },
        {
          ...base,
          place: {
            anchorString: 'Signature',
            anchorXOffset: '1',
            anchorYOffset: '-2',
            anchorUnits: 'inches',
            anchorIgnoreIfNotPresent: 'true',
            anchorCaseSensitive: 'false',
            anchorMatchWholeWord: 'true',
          },
        },
      ];
    });
    const envelope = envelopeFixture('wire-kinds', { recipients: [signerFixture('1', { tabs })] });
    const definition = await envelopeDefinitionOf(envelope);
    expect(offSwagger('envelopeDefinition', definition, 'v2.1')).toEqual([]);
    const sent = definition.recipients!.signers![0]!.tabs as Record<string, Array<Record<string, unknown>>>;
    for (const kind of tabKinds) {
      expect(sent[kind.collection], kind.collection).toHaveLength(2);
      for (const field of Object.keys(kind.fields))
        expect(sent[kind.collection]![0], `${kind.name}.${field}`).toHaveProperty(field);
    }

    const template = envelopeFixture('wire-role-tabs', {
      kind: 'template',
      documents: [],
      recipients: [],
      templateId: '3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01',
      templateRoles: [
        {
          kind: 'signer',
          roleName: 'employee',
          name: 'A',
          email: 'a@example.com',
          written: ['templateRoles', 0],
          tabs: [
            {
              kind: 'text',
              value: '62000',
              fields: { tabLabel: 'salary', locked: 'true' },
              written: ['tabs', 'textTabs', 0],
            },
            tabs[0]!,
          ],
        },
      ],
    });
    const fromTemplate = await envelopeDefinitionOf(template);
    expect(offSwagger('envelopeDefinition', fromTemplate, 'v2.1')).toEqual([]);
    expect(fromTemplate.templateRoles![0]!.tabs).toMatchObject({
      textTabs: [{ tabLabel: 'salary', value: '62000', locked: 'true' }],
    });
  });
});

const accountDefinition: NewAccountDefinition = {
  accountName: 'Acme France',
  accountSettings: [{ name: 'allowSigningGroups', value: 'true' }],
  addressInformation: { address1: '', city: 'Paris', country: 'FR' },
  creditCardInformation: null,
  distributorCode: 'D',
  distributorPassword: 'p',
  initialUser: {
    email: 'a@example.fr',
    firstName: 'A',
    lastName: 'M',
    middleName: '',
    password: 'p',
    suffixName: '',
    title: '',
    userName: 'a@example.fr',
    userSettings: [],
  },
  planInformation: { planId: 'plan' },
  referralInformation: null,
  socialAccountInformation: null,
};

describe('the unknown-field check', () => {
  it('catches a wrong wire name', () => {
    expect(
      unknownFields({ emailSubject: 's', recipients: { signers: [{ fullname: 'x' }] } }, 'envelopeDefinition'),
    ).toEqual(['/recipients/signers/0/fullname']);
  });
});

describe.each(versions)('the client on %s, against the sandbox', (version) => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true });
  });
  afterAll(async () => sandbox.close());

  it('logs in on that version, reads documents’ pages and the template in that version’s shape', async () => {
    const client = EsignatureClient.create({
      rootUrl: `${sandbox.origin}/restapi/${version}`,
      auth: sandboxSeedAuth(),
    });
    try {
      const account = await client.login();
      expect(client.apiVersion).toBe(version);
      expect(account.baseUrl).toContain(`/restapi/${version}/accounts/`);
      const definition = await envelopeDefinitionOf(envelopeFixture('pages', {}));
      const { envelopeId } = await account.createEnvelope(definition);
      const listed = await account.listDocuments(envelopeId);
      const documents = (listed.envelopeDocuments ?? []).filter((d) => d.documentId !== 'certificate');
      expect(documents.length).toBeGreaterThan(0);
      for (const d of documents) {
        expect(Array.isArray(d.pages)).toBe(version === 'v2.1');
        expect(pageCountOf(d)).toBeGreaterThan(0);
      }
      const template = await account.getTemplate('3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01');
      expect(template.templateId ?? template.envelopeTemplateDefinition?.templateId).toBe(
        '3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01',
      );
    } finally {
      client.close();
    }
  });
});
