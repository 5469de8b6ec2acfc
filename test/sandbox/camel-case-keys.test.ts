import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { camelCaseKeys, requestNames } from '../../src/sandbox/esignature/envelopes/wire/camel-case-keys.js';
import { docusignSpecUrl } from './helpers/docusign-spec.js';

describe('camelCaseKeys', () => {
  it('writes the names it knows as DocuSign spells them, at any depth and in any case; others stay as they are', () => {
    const bytes = Buffer.from('%PDF-1.7');
    expect(
      camelCaseKeys({
        EmailSubject: 'x',
        STATUS: 'sent',
        Documents: [{ DocumentId: '1', Name: 'a.txt', FileExtension: 'txt', DocumentBase64: bytes }],
        Recipients: {
          Signers: [{ RecipientId: 1, Tabs: { SignHereTabs: [{ AnchorString: '/s/', anchorxoffset: '5' }] } }],
          CarbonCopies: [],
        },
        SomethingElse: { Inner: 1 },
      }),
    ).toEqual({
      emailSubject: 'x',
      status: 'sent',
      documents: [{ documentId: '1', name: 'a.txt', fileExtension: 'txt', documentBase64: bytes }],
      recipients: {
        signers: [{ recipientId: 1, tabs: { signHereTabs: [{ anchorString: '/s/', anchorXOffset: '5' }] } }],
        carbonCopies: [],
      },
      SomethingElse: { Inner: 1 },
    });
  });

  it('returns a request already in camelCase as it is, without copying it', () => {
    const request = { emailSubject: 'x', documents: [{ documentId: '1' }], recipients: { signers: [{ name: 'A' }] } };
    expect(camelCaseKeys(request)).toBe(request);
    const mixed = { emailSubject: 'x', documents: [{ documentId: '1' }, { DocumentId: '2' }] };
    const fixed = camelCaseKeys(mixed) as typeof mixed;
    expect(fixed).not.toBe(mixed);
    expect(fixed.documents[0]).toBe(mixed.documents[0]);
    expect(fixed.documents[1]).toEqual({ documentId: '2' });
    expect(mixed.documents[1]).toEqual({ DocumentId: '2' });
  });

  it('passes a decoded document through untouched, prefers the camelCase key, and never sets a prototype', () => {
    const bytes = Buffer.alloc(4096, 1);
    const out = camelCaseKeys({ documentBase64: bytes, Name: 'pascal', name: 'camel' }) as Record<string, unknown>;
    expect(out['documentBase64']).toBe(bytes);
    expect(out['name']).toBe('camel');
    expect(Object.keys(out)).toEqual(['documentBase64', 'name']);
    const hostile = camelCaseKeys(JSON.parse('{"__proto__": {"polluted": true}, "Status": "sent"}')) as object;
    expect(Object.getPrototypeOf(hostile)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.keys(hostile)).toEqual(['__proto__', 'status']);
  });

  it("knows only names of DocuSign's request definitions (v2.1 Swagger)", () => {
    const swagger = JSON.parse(readFileSync(docusignSpecUrl('esignature.rest.swagger-v2.1.json'), 'utf8')) as {
      definitions: Record<string, { properties?: Record<string, unknown> }>;
    };
    const definitions = [
      'envelopeDefinition',
      'document',
      'signer',
      'inPersonSigner',
      'witness',
      'templateRole',
      'recipientEmailNotification',
      'customFields',
      'textCustomField',
      'listCustomField',
      'eventNotification',
      'notification',
      'reminders',
      'expirations',
      'listItem',
      'radio',
      'radioGroup',
    ];
    const spelled = new Set(definitions.flatMap((d) => Object.keys(swagger.definitions[d]?.properties ?? {})));
    expect(requestNames.filter((name) => !spelled.has(name))).toEqual([]);
  });
});
