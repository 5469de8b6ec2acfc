import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import { docusignFields } from '../../src/envelope/docusign-fields.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 26: a DocuSign field signrun does not take yet (`recipientType`, a
// tab's `conditionalParentLabel`) was reported as a typo ("did you mean
// recipientId?"), though job files speak DocuSign's names. It is now named as
// DocuSign's, with what signrun takes there; a real typo still gets its
// suggestion.

type Definitions = Record<string, { properties: Record<string, unknown> }>;
const swagger = JSON.parse(
  readFileSync(join(repoRoot, 'test/fixtures/docusign/esignature.rest.swagger-v2.1.json'), 'utf8'),
) as { definitions: Definitions };
const names = (...definitions: string[]) =>
  [...new Set(definitions.flatMap((d) => Object.keys(swagger.definitions[d]!.properties)))].sort();

const work = join(repoRoot, `test/.tmp/docusign-fields-${process.pid}`);
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function errorsOf(recipient: string) {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'offer.pdf'), readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf')));
  writeFileSync(
    join(work, 'job.yaml'),
    `version: 1\njob: j\ndefaults: { emailSubject: Sign }\nenvelopes:\n  - key: a\n    documents: [{ file: offer.pdf }]\n    recipients:\n      - { name: Ann, email: ann@example.com, ${recipient} }\n`,
  );
  const result = await loadJobs([work], { cwd: work, env: {} });
  if (result.ok) throw new Error('expected errors');
  return result.errors;
}

describe("DocuSign's field names", () => {
  it('are those of the Swagger (the list cannot drift from it)', () => {
    const tabs = Object.values(swagger.definitions['EnvelopeRecipientTabs']!.properties).flatMap((p) => {
      const ref = (p as { items?: { $ref?: string } }).items?.$ref;
      return ref === undefined ? [] : [ref.split('/').pop()!];
    });
    expect(docusignFields.envelope).toEqual(names('envelopeDefinition'));
    expect(docusignFields.document).toEqual(names('document'));
    expect(docusignFields.recipient).toEqual(
      names(
        'signer',
        'carbonCopy',
        'certifiedDelivery',
        'inPersonSigner',
        'witness',
        'editor',
        'agent',
        'intermediary',
      ),
    );
    expect(docusignFields.templateRole).toEqual(names('templateRole'));
    expect(docusignFields.tab).toEqual(names(...tabs));
    expect(docusignFields.tabs).toEqual(names('EnvelopeRecipientTabs'));
  });

  it('a DocuSign field signrun does not take is named as such, with what it takes', async () => {
    const [error] = await errorsOf('recipientType: signer');
    expect(error).toMatchObject({ code: 'SR_SCHEMA_UNKNOWN_PROPERTY', line: 8 });
    expect(error!.message).toContain('"recipientType" in envelopes[0].recipients[0] is a DocuSign field');
    expect(error!.message).toContain('the fields it takes here: name, email');
    expect(error!.message).not.toContain('did you mean');
    expect(error!.hint).toContain('recipients: { signers: […], carbonCopies: […] }');
  });

  it('a typo still gets its suggestion', async () => {
    const [error] = await errorsOf('clientUserID: x');
    expect(error!.message).toContain('did you mean "clientUserId"?');
  });
});
