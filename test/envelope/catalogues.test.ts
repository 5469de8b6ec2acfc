import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  anchorFields,
  positionFields,
  recipientKinds,
  shorthandRecipientKind,
  shorthandTabKind,
  tabFields,
  tabKind,
  tabKinds,
  unmodelledRecipientCollections,
} from '../../src/envelope/index.js';
import { tabSchemaDefs } from '../../src/jobs/tab-schema.js';
import { repoRoot } from '../helpers/run-cli.js';

// The catalogues are DocuSign's tab and recipient kinds as data: each entry is
// checked here against DocuSign's own Swagger (v2.1, the version it keeps), so
// a collection, a definition or a field named in the catalogue is one DocuSign
// has, and against the job schema, so a job file cannot say what the
// catalogue does not know.

interface SwaggerProperty {
  $ref?: string;
  items?: { $ref?: string };
}
interface SwaggerDefinition {
  properties: Record<string, SwaggerProperty>;
}
const swagger = JSON.parse(
  readFileSync(join(repoRoot, 'test/fixtures/docusign/esignature.rest.swagger-v2.1.json'), 'utf8'),
) as { definitions: Record<string, SwaggerDefinition> };
const definitions = swagger.definitions;
const refName = (ref: string | undefined) => ref?.replace('#/definitions/', '');

/** The tab and recipient collections the design's contract lists (DESIGN.md, "what is in the envelope"). */
const contractTabCollections = [
  'signHereTabs',
  'initialHereTabs',
  'dateSignedTabs',
  'fullNameTabs',
  'emailAddressTabs',
  'companyTabs',
  'titleTabs',
  'textTabs',
  'numberTabs',
  'dateTabs',
  'checkboxTabs',
  'listTabs',
  'radioGroupTabs',
  'noteTabs',
  'formulaTabs',
  'approveTabs',
  'declineTabs',
  'emailTabs',
  'ssnTabs',
  'zipTabs',
  'currencyTabs',
  'phoneNumberTabs',
  'firstNameTabs',
  'lastNameTabs',
  'envelopeIdTabs',
  'viewTabs',
  'signerAttachmentTabs',
];
const contractRecipientCollections = [
  'signers',
  'carbonCopies',
  'certifiedDeliveries',
  'inPersonSigners',
  'witnesses',
  'editors',
  'agents',
  'intermediaries',
];

describe('the tab catalogue', () => {
  const tabs = definitions['EnvelopeRecipientTabs']!.properties;

  it('has every kind of the contract, once', () => {
    expect(tabKinds.map((k) => k.collection).sort()).toEqual([...contractTabCollections].sort());
    expect(new Set(tabKinds.map((k) => k.name)).size).toBe(tabKinds.length);
  });

  it.each(tabKinds.map((k) => [k.name, k] as const))(
    '%s: collection, definition and fields are DocuSign’s',
    (_, kind) => {
      expect(refName(tabs[kind.collection]?.items?.$ref)).toBe(kind.definition);
      const properties = definitions[kind.definition]!.properties;
      // A radio group names its document; each of its radios has the rest of the place.
      const placed = kind.valueType === 'radio' ? { ...definitions['radio']!.properties, documentId: {} } : properties;
      const missing = [
        ...Object.keys(kind.fields).filter((f) => !(f in properties)),
        ...Object.keys({ ...positionFields, ...anchorFields }).filter((f) => !(f in placed)),
      ];
      expect(missing).toEqual([]);
      // And the catalogue leaves out none of the common fields the kind has.
      expect(Object.keys(tabFields).filter((f) => f in properties && !(f in kind.fields))).toEqual([]);
      expect(kind.defaultSize.width).toBeGreaterThan(0);
      expect(kind.defaultSize.height).toBeGreaterThan(0);
    },
  );

  it('is what the job schema’s list form of tabs means, and the schema places tabs with the catalogue’s fields', () => {
    const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas/job.schema.json'), 'utf8')) as {
      $defs: Record<string, { properties: Record<string, { type: string }> }>;
    };
    expect(tabKind(shorthandTabKind).collection).toBe('signHereTabs');
    const listItem = schema.$defs['signHereTab']!.properties;
    for (const [field, property] of Object.entries(listItem)) {
      expect(field in positionFields, field).toBe(true);
      expect(positionFields[field as keyof typeof positionFields]).toBe(property.type);
    }
  });
});

describe('the job schema’s object form of tabs', () => {
  interface SchemaProperty {
    type?: unknown;
    $ref?: string;
    items?: { $ref?: string };
  }
  const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas/job.schema.json'), 'utf8')) as {
    $defs: Record<string, SchemaProperty & { properties: Record<string, SchemaProperty> }>;
  };

  it('is the one generated from the catalogue (run `npm run docs:jobs`)', () => {
    const generated = tabSchemaDefs();
    for (const [name, def] of Object.entries(generated)) expect(schema.$defs[name], name).toEqual(def);
  });

  it('has every collection of the catalogue, each a list of tabs with exactly the kind’s fields and a place', () => {
    const collections = schema.$defs['tabsObject']!.properties;
    expect(Object.keys(collections).sort()).toEqual(tabKinds.map((k) => k.collection).sort());
    for (const kind of tabKinds) {
      const ref = collections[kind.collection]!.items!.$ref!;
      const properties = schema.$defs[ref.replace('#/$defs/', '')]!.properties;
      const place = kind.valueType === 'radio' ? ['documentId'] : Object.keys({ ...positionFields, ...anchorFields });
      expect(Object.keys(properties).sort(), kind.name).toEqual([...place, ...Object.keys(kind.fields)].sort());
      for (const [field, type] of Object.entries(kind.fields)) {
        // A field is written once in $defs and referenced by each kind that has it.
        const at = properties[field]!;
        const written = (at.$ref ? schema.$defs[at.$ref.replace('#/$defs/', '')]! : at).type;
        const expected = {
          string: 'string',
          integer: ['integer', 'string'],
          number: ['number', 'string'],
          boolean: ['boolean', 'string'],
          'list-items': 'array',
          radios: 'array',
        }[type];
        expect(written, `${kind.name}.${field}`).toEqual(expected);
      }
    }
  });

  it('is what a recipient and a template role take', () => {
    expect(schema.$defs['signer']!.properties['tabs']!.$ref).toBe('#/$defs/recipientTabs');
    expect(schema.$defs['role']!.properties['tabs']!.$ref).toBe('#/$defs/tabsObject');
  });
});

describe('the recipient catalogue', () => {
  const recipients = definitions['EnvelopeRecipients']!.properties;

  it('has every kind of the contract, once, and names the collections it leaves out', () => {
    expect(recipientKinds.map((k) => k.collection).sort()).toEqual([...contractRecipientCollections].sort());
    const listed = Object.entries(recipients)
      .filter(([, p]) => p.items?.$ref !== undefined)
      .map(([name]) => name);
    expect([...recipientKinds.map((k) => k.collection), ...unmodelledRecipientCollections].sort()).toEqual(
      listed.sort(),
    );
  });

  it.each(recipientKinds.map((k) => [k.name, k] as const))(
    '%s: collection, definition and traits are DocuSign’s',
    (_, kind) => {
      expect(refName(recipients[kind.collection]?.items?.$ref)).toBe(kind.definition);
      const properties = definitions[kind.definition]!.properties;
      if (kind.hasTabs) expect(properties).toHaveProperty('tabs');
      if (kind.needsHost)
        expect(Object.keys(properties)).toEqual(expect.arrayContaining(['hostName', 'hostEmail', 'signerName']));
      if (kind.signsFor) expect(properties).toHaveProperty('witnessFor');
      if (kind.mayBeEmbedded) expect(properties).toHaveProperty('clientUserId');
      // Who signs is who completes by signing: the catalogue may not say one without the other.
      expect(kind.signs).toBe(kind.completesOn === 'signing');
    },
  );

  it('is what the job schema’s recipients and roles are, with fields the shorthand kind has in DocuSign', () => {
    const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas/job.schema.json'), 'utf8')) as {
      $defs: Record<string, { properties: Record<string, unknown> }>;
    };
    const kind = recipientKinds.find((k) => k.name === shorthandRecipientKind)!;
    const wire = definitions[kind.definition]!.properties;
    const message = definitions['recipientEmailNotification']!.properties;
    for (const def of ['signer', 'role']) {
      // A recipient's message fields are DocuSign's emailNotification's, written flat in a job file.
      const unknown = Object.keys(schema.$defs[def]!.properties).filter((f) => !(f in wire) && !(f in message));
      expect(unknown, def).toEqual([]);
    }
  });
});
