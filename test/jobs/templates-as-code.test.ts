import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import type { Diagnostic, LoadResult, ResolvedJob } from '../../src/jobs/model.js';
import { templateDefinitionOf } from '../../src/runner/templates/template-definition.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 21, the job side: `templates:` entries resolved by the envelopes'
// code (documents read, tabs checked on their pages), and an envelope's
// `template: <key>` checked offline against the template of its file — an
// unknown key, a role the template lacks, a tab label it lacks — each at
// its line, before any call.

const work = join(repoRoot, `test/.tmp/templates-as-code-${process.pid}`);
const pdf = readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function load(name: string, text: string): Promise<LoadResult> {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'nda.pdf'), pdf);
  writeFileSync(join(dir, 'job.yaml'), text);
  return loadJobs(['job.yaml'], { cwd: dir, env: {} });
}

function jobs(result: LoadResult): ResolvedJob[] {
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 1));
  return result.jobs;
}

function errors(result: LoadResult): Array<Pick<Diagnostic, 'code' | 'line' | 'field'>> {
  if (result.ok) throw new Error('expected errors');
  return result.errors.map(({ code, line, field }) => ({ code, line, field }));
}

const template = `templates:
  - key: nda
    name: Mutual NDA
    documents: [{ file: nda.pdf }]
    recipients:
      signers:
        - roleName: Counterparty
          tabs:
            textTabs: [{ tabLabel: company, pageNumber: 1, xPosition: 100, yPosition: 500 }]
      carbonCopies:
        - { roleName: Legal, name: Legal Team, email: legal@example.com, routingOrder: 2 }
`;

const envelope = (use: string, role: string, label: string) => `envelopes:
  - key: acme
    emailSubject: NDA
    ${use}
    templateRoles:
      - roleName: ${role}
        name: Ann Acme
        email: ann@example.com
        tabs: { textTabs: [{ tabLabel: ${label}, value: ACME }] }
`;

describe('templates in job files', () => {
  it('resolves a template: its documents read, its roles placeholders or fixed people, its identity and digest on the wire', async () => {
    const [job] = jobs(
      await load('ok', `version: 1\njob: j\n${template}${envelope('template: nda', 'Counterparty', 'company')}`),
    );
    const resolved = job!.templates![0]!;
    expect(resolved).toMatchObject({ key: 'nda', name: 'Mutual NDA', state: 'present' });
    expect(resolved.documents[0]).toMatchObject({ documentId: '1', name: 'nda.pdf', pageCount: 2 });
    expect(resolved.recipients.map((r) => [r.kind, r.roleName, r.name])).toEqual([
      ['signer', 'Counterparty', ''],
      ['carbonCopy', 'Legal', 'Legal Team'],
    ]);
    expect(resolved.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(job!.envelopes[0]).toMatchObject({ kind: 'template', templateKey: 'nda' });
    expect(job!.envelopes[0]!.templateId).toBeUndefined();

    const wire = await templateDefinitionOf(resolved);
    // A placeholder role has no name or email on the wire; the fixed carbon copy keeps them.
    expect(wire.recipients['signers']?.[0]).not.toHaveProperty('email');
    expect(wire.recipients['carbonCopies']?.[0]).toMatchObject({ roleName: 'Legal', email: 'legal@example.com' });
    expect(wire.customFields.textCustomFields).toEqual(
      expect.arrayContaining([
        { name: 'signrun', value: 'j/nda#template', show: 'false' },
        { name: 'signrunDigest', value: resolved.digest, show: 'false' },
      ]),
    );
  });

  it('changes the digest when the file changes, not when it moves', async () => {
    const digest = async (name: string, text: string) => jobs(await load(name, text))[0]!.templates![0]!.digest;
    const base = `version: 1\njob: j\n${template}`;
    const same = await digest('d2', `${base}`);
    expect(await digest('d1', base)).toBe(same);
    expect(await digest('d3', base.replace('Mutual NDA', 'Mutual NDA v2'))).not.toBe(same);
    expect(await digest('d4', base.replace('xPosition: 100', 'xPosition: 120'))).not.toBe(same);
  });

  it('refuses an unknown template key, a missing role and a missing tab label, at their lines', async () => {
    expect(
      errors(
        await load('key', `version: 1\njob: j\n${template}${envelope('template: ndx', 'Counterparty', 'company')}`),
      ),
    ).toEqual([{ code: 'SR_TEMPLATE_KEY_UNKNOWN', line: 17, field: 'envelopes[0].template' }]);
    expect(
      errors(
        await load('role', `version: 1\njob: j\n${template}${envelope('template: nda', 'Counterparti', 'company')}`),
      ),
    ).toEqual([{ code: 'SR_TEMPLATE_ROLE_MISSING', line: 19, field: 'envelopes[0].templateRoles[0].roleName' }]);
    expect(
      errors(
        await load('label', `version: 1\njob: j\n${template}${envelope('template: nda', 'Counterparty', 'compani')}`),
      ),
    ).toEqual([
      {
        code: 'SR_TEMPLATE_TAB_LABEL_MISSING',
        line: 22,
        field: 'envelopes[0].templateRoles[0].tabs.textTabs[0].tabLabel',
      },
    ]);
  });

  it('refuses both template and templateId, two roles of one name, a row reference in a template', async () => {
    const both = await load(
      'both',
      `version: 1\njob: j\n${template}${envelope('template: nda\n    templateId: 3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01', 'Counterparty', 'company')}`,
    );
    expect(errors(both).map((e) => e.code)).toContain('SR_DOCUMENTS_AND_TEMPLATE');
    const twice = await load(
      'twice',
      `version: 1\njob: j\n${template.replace('roleName: Legal', 'roleName: Counterparty')}`,
    );
    expect(errors(twice)).toEqual([
      { code: 'SR_TEMPLATE_ROLE_DUPLICATE', line: 13, field: 'templates[0].recipients.carbonCopies[0].roleName' },
    ]);
    const row = await load('row', `version: 1\njob: j\n${template.replace('Mutual NDA', 'NDA ${row.id}')}`);
    expect(errors(row)).toEqual([{ code: 'SR_ROW_OUTSIDE_FOREACH', line: 5, field: 'templates[0].name' }]);
  });

  it('deletes by key alone: a template declared absent needs no documents', async () => {
    const [job] = jobs(
      await load('absent', `version: 1\njob: j\ntemplates:\n  - { key: old-nda, name: Old NDA, state: absent }\n`),
    );
    expect(job!.templates).toEqual([expect.objectContaining({ key: 'old-nda', state: 'absent', documents: [] })]);
  });

  it('refuses an identity longer than DocuSign lets a custom field value be (signrun writes it in one), at the key', async () => {
    const long = 'k'.repeat(95);
    const result = await load(
      'identity',
      `version: 1\njob: j\n${template.replace('key: nda', `key: ${long}`)}envelopes:\n  - key: ${long}\n    emailSubject: NDA\n    documents: [{ file: nda.pdf }]\n    recipients: [{ name: Ann, email: ann@example.com }]\n`,
    );
    // j/<95 k> is 97 characters: the envelope's fits; the template's, with #template, does not.
    expect(errors(result)).toEqual([{ code: 'SR_IDENTITY_TOO_LONG', line: 4, field: 'templates[0].key' }]);
    if (result.ok) return;
    expect(result.errors[0]!.message).toContain('is 106 characters long');
  });
});
