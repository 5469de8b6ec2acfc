import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import type { Diagnostic, LoadResult, ResolvedJob } from '../../src/jobs/model.js';
import {
  keptInConfiguredAccount,
  mayBeKeptInConfiguredAccount,
  type TemplateLister,
} from '../../src/jobs/template-homes.js';
import { templateHomeProblems, withTemplateHomes } from '../../src/runner/templates/template-homes.js';
import { prepare } from '../../src/runner/prepare.js';
import { identityOf } from '../../src/runner/identity.js';
import { shardOf } from '../../src/state/shard.js';
import { repoRoot } from '../helpers/run-cli.js';

// Where a job file's templates are kept (docs/job-files.md, "Templates of the
// job file in an account"): the pure rule, the offline check of envelopes
// that name a template the sending account cannot have, and the jobs as plan
// and run see them once the configured account is known.

const work = join(repoRoot, `test/.tmp/template-homes-${process.pid}`);
const pdf = readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MAIN = '5a3f0c4e-2b7d-4f1a-9e6c-8d2b1a0f3c11';
const SUB = '0b0b0b0b-1111-4222-8333-444444444444';

async function load(name: string, text: string): Promise<LoadResult> {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'offer.pdf'), pdf);
  writeFileSync(join(dir, 'job.yaml'), text);
  return loadJobs(['job.yaml'], { cwd: dir, env: { ADMIN_PASSWORD: 'secret-admin', SUB_ACCOUNT_ID: SUB } });
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

const entry = (key: string, fields: string, templates: string) => `  - key: ${key}
    accountName: ${key}
${fields}    initialUser: { email: admin@${key}.test, password: "\${env.ADMIN_PASSWORD}" }
    planInformation: { planId: plan }
    templates: ${templates}
`;

const file = (accounts: string, envelopeTemplate = 'template: offer') => `version: 1
job: acme
templates:
  - key: offer
    name: Offer letter
    documents: [{ file: offer.pdf }]
    recipients:
      signers: [{ roleName: Candidate }]
  - key: nda
    name: NDA
    documents: [{ file: offer.pdf }]
    recipients:
      signers: [{ roleName: Candidate }]
accounts:
${accounts}envelopes:
  - key: ann
    emailSubject: Offer
    ${envelopeTemplate}
    templateRoles: [{ roleName: Candidate, name: Ann, email: ann@example.test }]
`;

describe('where a template is kept', () => {
  const lister = (key: string, accountId: string | undefined, templates: string[], present = true): TemplateLister => ({
    key,
    present,
    accountId,
    templates,
  });
  it('in the configured account when no entry lists it, or when the configured account’s own entry does; else only in the listing accounts', () => {
    const listers = [
      lister('main', MAIN.toUpperCase(), ['nda']),
      lister('sub', SUB, ['offer', 'nda']),
      lister('gone', MAIN, ['old'], false),
    ];
    expect(keptInConfiguredAccount('unlisted', listers, MAIN)).toBe(true);
    expect(keptInConfiguredAccount('nda', listers, MAIN)).toBe(true); // its accountId, ignoring case
    expect(keptInConfiguredAccount('offer', listers, MAIN)).toBe(false);
    expect(keptInConfiguredAccount('offer', listers, SUB)).toBe(true); // logged in to the subsidiary: its entry is the configured one
    expect(keptInConfiguredAccount('old', listers, MAIN)).toBe(false); // an absent entry describes no account
    expect(keptInConfiguredAccount('nda', listers, undefined)).toBe(false); // no entry describes an unknown account
    expect(keptInConfiguredAccount('unlisted', listers, undefined)).toBe(true);
    // Offline: only entries with an accountId (present) may be the configured account.
    expect(mayBeKeptInConfiguredAccount('offer', listers)).toBe(true);
    expect(mayBeKeptInConfiguredAccount('old', listers)).toBe(false);
    expect(mayBeKeptInConfiguredAccount('new', [lister('acme-new', undefined, ['new'])])).toBe(false);
    expect(mayBeKeptInConfiguredAccount('unlisted', listers)).toBe(true);
  });
});

describe('an envelope naming a template the sending account will not have', () => {
  it('is SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT offline, at its line, when only entries without accountId (or absent) list it', async () => {
    const text = file(entry('acme-new', '', '[offer]'));
    expect(errors(await load('offline', text))).toEqual([
      {
        code: 'SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT',
        line: lineOf(text, 'template: offer'),
        field: 'envelopes[0].template',
      },
    ]);
    const absent = file(entry('acme-old', `    accountId: ${MAIN}\n    state: absent\n`, '[offer]'));
    expect(errors(await load('offline-absent', absent))).toEqual([
      {
        code: 'SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT',
        line: lineOf(absent, 'template: offer'),
        field: 'envelopes[0].template',
      },
    ]);
    // A template nobody lists, or one an entry with an accountId lists: not decidable offline, accepted.
    jobs(await load('offline-nda', file(entry('acme-new', '', '[offer]'), 'template: nda')));
    jobs(await load('offline-env', file(entry('acme-sub', '    accountId: ${env.SUB_ACCOUNT_ID}\n', '[offer]'))));
  });

  it('is found by plan and run once the configured account is known: once per template and place', async () => {
    const [job] = jobs(
      await load('online', file(entry('acme-sub', '    accountId: ${env.SUB_ACCOUNT_ID}\n', '[offer]'))),
    );
    const envelope = job!.envelopes[0]!;
    const problems = templateHomeProblems([envelope, envelope], [job!], MAIN);
    expect(problems.map((p) => [p.code, p.source.line])).toEqual([
      ['SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT', envelope.source.line],
    ]);
    expect(problems[0]!.message).toContain(`accountId: ${MAIN}, templates: [offer]`);
    // Logged in to the subsidiary itself, its entry is the sending account's: no problem.
    expect(templateHomeProblems([envelope], [job!], SUB)).toEqual([]);
  });
});

describe('the jobs as plan and run converge their templates', () => {
  it("keep among the top-level templates those of the configured account; its own entry's are converged there once, not again as its items", async () => {
    const text = file(
      entry('main', `    accountId: ${MAIN}\n`, '[nda]') + entry('acme-sub', `    accountId: ${SUB}\n`, '[offer, nda]'),
      'template: nda',
    ).replace(
      '  - key: nda\n',
      '  - key: form\n    name: Form\n    documents: [{ file: offer.pdf }]\n    recipients:\n      signers: [{ roleName: Candidate }]\n  - key: nda\n',
    );
    const [job] = jobs(await load('homes', text));
    const seen = withTemplateHomes(job!, MAIN);
    expect(seen.templates?.map((t) => t.key)).toEqual(['form', 'nda']);
    expect(seen.accounts.map((a) => [a.key, a.templates?.map((t) => t.key)])).toEqual([
      ['main', undefined],
      ['acme-sub', ['offer', 'nda']],
    ]);
    expect(seen.envelopes).toBe(job!.envelopes);
    // Without a service (no entry describes the configured account): only the unlisted one.
    expect(withTemplateHomes(job!, undefined).templates?.map((t) => t.key)).toEqual(['form']);
    expect(withTemplateHomes(job!, undefined).accounts).toEqual(job!.accounts);
  });
});

describe('a shard of the job files (run --shard)', () => {
  it("decides where a template is kept from every entry of the file, not only the shard's", async () => {
    const text = file(entry('acme-sub', `    accountId: ${SUB}\n`, '[offer]'));
    const loaded = await load('shard', text);
    const [whole] = jobs(loaded);
    // The shard that does not hold the subsidiary's entry.
    const index = shardOf(identityOf(whole!.accounts[0]!), 2) === 1 ? 2 : 1;
    const prepared = await prepare(['job.yaml'], {
      cwd: join(work, 'shard'),
      env: { ADMIN_PASSWORD: 'secret-admin' },
      shard: { index, count: 2 },
    });
    if (!prepared.ok) throw new Error(JSON.stringify(prepared.errors));
    const [job] = prepared.jobs;
    expect(job!.accounts).toEqual([]);
    // Still the subsidiary's only: not planned in the configured account, and an envelope naming it is refused.
    expect(withTemplateHomes(job!, MAIN).templates?.map((t) => t.key)).toEqual(['nda']);
    expect(templateHomeProblems(whole!.envelopes, [job!], MAIN).map((p) => p.code)).toEqual([
      'SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT',
    ]);
  });
});
