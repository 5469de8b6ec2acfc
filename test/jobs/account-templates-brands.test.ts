import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import type { Diagnostic, LoadResult, ResolvedJob } from '../../src/jobs/model.js';
import { planAccountTemplates } from '../../src/runner/resources/kinds/account-templates.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 23, the job side: an account entry's `templates:` (keys of the file's
// templates, resolved to their very definitions) and an envelope's
// `brand: <brandName>` (a brand an account entry of the file keeps), each
// checked offline at its line.

const work = join(repoRoot, `test/.tmp/account-templates-brands-${process.pid}`);
const pdf = readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function load(name: string, text: string): Promise<LoadResult> {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'offer.pdf'), pdf);
  writeFileSync(join(dir, 'job.yaml'), text);
  return loadJobs(['job.yaml'], { cwd: dir, env: { ADMIN_PASSWORD: 'secret-admin' } });
}

function jobs(result: LoadResult): ResolvedJob[] {
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 1));
  return result.jobs;
}

function errors(result: LoadResult): Array<Pick<Diagnostic, 'code' | 'line' | 'field'>> {
  if (result.ok) throw new Error('expected errors');
  return result.errors.map(({ code, line, field }) => ({ code, line, field }));
}

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

const file = (accountTemplates: string, envelope = '') => `version: 1
job: acme
templates:
  - key: offer
    name: Offer letter
    documents: [{ file: offer.pdf }]
    recipients:
      signers: [{ roleName: Candidate }]
  - key: old-offer
    name: Old offer
    state: absent
accounts:
  - key: acme-de
    accountName: Acme DE
    initialUser: { email: admin@acme-de.test, password: "\${env.ADMIN_PASSWORD}" }
    planInformation: { planId: plan }
    brands:
      - { brandName: Acme DE }
    templates: ${accountTemplates}
${envelope}`;

const envelope = (brand: string) => `defaults:
  ${brand}
envelopes:
  - key: ann
    emailSubject: Offer
    templateId: 3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01
    templateRoles: [{ roleName: employee, name: Ann, email: ann@example.test }]
  - key: bob
    emailSubject: Offer
    brandId: 0f0f0f0f-0000-4000-8000-000000000001
    templateId: 3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01
    templateRoles: [{ roleName: employee, name: Bob, email: bob@example.test }]
`;

describe("an account's templates", () => {
  it("are the job file's own definitions, present or absent; offline, each present one is create, an absent one already absent", async () => {
    const [job] = jobs(await load('ok', file('[offer, old-offer]')));
    const account = job!.accounts[0]!;
    expect(account.templates?.map((t) => [t.key, t.state])).toEqual([
      ['offer', 'present'],
      ['old-offer', 'absent'],
    ]);
    expect(account.templates?.[0]).toBe(job!.templates?.[0]);
    const { items, reads } = await planAccountTemplates(account, undefined, undefined, 'acme/acme-de');
    expect(reads).toBe(0);
    expect(items.map((i) => [i.kind, i.name, i.action, i.identity])).toEqual([
      ['template', 'offer', 'create', 'acme/acme-de#template:offer'],
      ['template', 'old-offer', 'already-absent', 'acme/acme-de#template:old-offer'],
    ]);
  });

  it('name templates of the same file: an unknown key is SR_TEMPLATE_KEY_UNKNOWN at its line', async () => {
    const text = file('[offer, ofer]');
    expect(errors(await load('unknown', text))).toEqual([
      {
        code: 'SR_TEMPLATE_KEY_UNKNOWN',
        line: lineOf(text, 'templates: [offer, ofer]'),
        field: 'accounts[0].templates[1]',
      },
    ]);
  });
});

describe("an envelope's brand by name", () => {
  it('comes from defaults unless the envelope gives its own brand or brandId; it is content by name (case aside), not by id', async () => {
    const [job] = jobs(await load('brand', file('[offer]', envelope('brand: acme de'))));
    const [ann, bob] = job!.envelopes;
    expect(ann).toMatchObject({ brandName: 'acme de' });
    expect(ann!.brandId).toBeUndefined();
    expect(bob).toMatchObject({ brandId: '0f0f0f0f-0000-4000-8000-000000000001' });
    expect(bob!.brandName).toBeUndefined();
    const [other] = jobs(await load('brand-case', file('[offer]', envelope('brand: ACME DE'))));
    expect(other!.envelopes[0]!.digest).toBe(ann!.digest);
    const [none] = jobs(await load('no-brand', file('[offer]', envelope('emailBlurb: Hello'))));
    expect(none!.envelopes[0]!.digest).not.toBe(ann!.digest);
  });

  it('names a brand an account entry of the file keeps, and not beside a brandId', async () => {
    const unknown = file('[offer]', envelope('brand: Acme FR'));
    expect(errors(await load('brand-unknown', unknown))).toEqual([
      { code: 'SR_BRAND_NAME_UNKNOWN', line: lineOf(unknown, 'brand: Acme FR'), field: 'defaults.brand' },
    ]);
    const both = file('[offer]', envelope('brand: Acme DE')).replace(
      '    brandId: 0f0f0f0f-0000-4000-8000-000000000001\n',
      '    brandId: 0f0f0f0f-0000-4000-8000-000000000001\n    brand: Acme DE\n',
    );
    expect(errors(await load('brand-both', both))).toEqual([
      { code: 'SR_BRAND_AND_BRAND_ID', line: lineOf(both, '    brand: Acme DE'), field: 'envelopes[1].brand' },
    ]);
  });
});
