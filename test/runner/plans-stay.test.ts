import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import type { LoadResult, ResolvedAccount } from '../../src/jobs/model.js';
import {
  contentsCalls,
  decideContents,
  type FoundPeople,
} from '../../src/runner/resources/account/account-contents-plan.js';
import type { AccountItemProgress } from '../../src/state/journal-progress.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';

// Issue 33 restructures how signrun plans and converges what an account holds
// (one resource interface, one catalogue of kinds) with behaviour unchanged:
// the same job files must give the same digests (envelopes, templates, an
// account's items: a moved digest re-sends or re-writes), the same plan (its
// decisions, calls and lines) and the same differences. Everything here was
// recorded from the code before that restructuring (at 2816ac6) and is
// compared whole: a digest, a plan line or a difference that moves fails.
// Recording again (SIGNRUN_RECORD_PLANS=1) is for a change that means to
// move them, and says why in its commit.

const fixture = join(repoRoot, 'test/fixtures/plans/recorded.json');
const record = process.env['SIGNRUN_RECORD_PLANS'] === '1';
const work = join(repoRoot, `test/.tmp/plans-stay-${process.pid}`);

/** A 1×1 PNG and a 1×1 GIF: a brand's logo as the file gives it. */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every kind an account entry keeps, and a template at the top, so that every kind's plan line is recorded. */
const contentsJob = `version: 1
job: every-resource
templates:
  - key: offer
    name: Offer letter
    emailSubject: Your offer
    documents:
      - { name: offer.pdf, file: offer.pdf }
    recipients:
      signers:
        - roleName: Candidate
          tabs:
            signHereTabs: [{ pageNumber: 1, xPosition: 100, yPosition: 600 }]
  - key: old-offer
    name: Old offer
    state: absent
accounts:
  - key: acme-at
    accountName: Acme Austria
    userId: 9a3c1d0e-0000-4000-8000-000000000001
    initialUser: { email: admin@acme-at.test, firstName: Ada, lastName: Admin, password: "\${env.ACME_AT_PASSWORD}" }
    planInformation: { planId: sandbox-plan }
    permissionProfiles:
      - permissionProfileName: Legal
        settings: { allowEnvelopeSending: true, allowBulkSending: false }
      - permissionProfileName: Read only
        settings: { allowEnvelopeSending: false }
    groups:
      - { groupName: Legal team, permissionProfileName: Legal }
      - { groupName: Auditors, permissionProfileName: Read only }
    users:
      - { userName: Lea Legal, email: lea@acme-at.test, permissionProfileName: Legal, groups: [Legal team] }
      - { userName: Otto Audit, email: otto@acme-at.test, permissionProfileName: Read only, groups: [Auditors] }
      - { email: gone@acme-at.test, state: absent }
    brands:
      - brandName: Acme AT
        brandCompany: Acme Austria GmbH
        colors:
          - { name: headerBackground, value: "#003366" }
        logos: { primary: logo.png }
        emailContent:
          - { emailContentType: envelopeActivation, content: Bitte unterschreiben Sie. }
        isSendingDefault: true
      - { brandName: Old brand, state: absent }
    connect:
      - name: Acme AT events
        urlToPublishTo: https://hooks.acme-at.test/docusign
        allowEnvelopePublish: true
        allUsers: true
        eventData: { version: restv2.1, format: json, includeData: [recipients, tabs] }
        events: [envelope-sent, envelope-completed]
        userName: hooks
        password: "\${env.ACME_AT_HOOK_PASSWORD}"
    templates: [offer]
  - key: acme-gone
    state: absent
    accountId: 7f1c2d3e-0000-4000-8000-000000000009
    accountName: Acme Gone
`;

const env = { ACME_AT_PASSWORD: 'golden-admin-password', ACME_AT_HOOK_PASSWORD: 'golden-hook-password' };

/** What the account lists when a plan reads it: each kind differs from the file in some way, or is missing. */
function listing(): FoundPeople {
  return {
    profiles: [
      { permissionProfileId: '1', permissionProfileName: 'Account Administrator', settings: {} },
      { permissionProfileId: '11', permissionProfileName: 'legal', settings: { allowEnvelopeSending: 'false' } },
    ],
    groups: [
      { groupId: '21', groupName: 'Legal Team', permissionProfileId: '1' },
      { groupId: '22', groupName: 'Auditors' },
    ],
    users: [
      {
        userId: 'u1',
        email: 'LEA@acme-at.test',
        userName: 'Lea L.',
        permissionProfileName: 'DocuSign Sender',
        groupList: [{ groupName: 'Everyone' }, { groupName: 'Auditors' }],
        createdDateTime: '2026-01-01T00:00:00Z',
      },
      { userId: 'u9', email: 'gone@acme-at.test', createdDateTime: '2026-01-02T00:00:00Z' },
    ],
    brands: [
      {
        brandId: 'b-2',
        brandName: 'Acme AT',
        brandCompany: 'Acme AG',
        colors: [{ name: 'headerBackground', value: '#000000' }],
        isSendingDefault: 'false',
        logos: { primary: 'x' },
        logoDigests: { primary: sha(gif) },
      },
      { brandId: 'b-1', brandName: 'acme at', logoDigests: {} },
    ],
    connect: [
      {
        connectId: '31',
        name: 'Acme AT events',
        urlToPublishTo: 'https://hooks.acme-at.test/old',
        allowEnvelopePublish: 'true',
        allUsers: 'true',
        events: ['envelope-completed', 'envelope-sent'],
      },
    ],
  };
}

interface Recorded {
  digests: Record<string, string>;
  plans: Record<string, { text: string; json: unknown }>;
  decided: unknown;
}

function digestsOf(result: LoadResult): Record<string, string> {
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 1));
  const out: Record<string, string> = {};
  for (const job of result.jobs) {
    for (const e of job.envelopes) out[`envelope ${e.job}/${e.key}`] = e.digest;
    for (const t of job.templates ?? []) out[`template ${t.job}/${t.key}`] = t.digest;
  }
  return out;
}

/** `signrun plan` as a person and a program read it, offline (the in-process sandbox starts empty). */
async function planOf(dir: string, cwd: string): Promise<{ text: string; json: unknown }> {
  const runEnv = { ...env, DOCUSIGN_ROOT_URL: undefined };
  const text = await runCli(['plan', dir], { cwd, env: runEnv });
  expect(text.stderr).toBe('');
  expect(text.code).toBe(0);
  const json = await runCli(['plan', dir, '--format', 'json'], { cwd, env: runEnv });
  expect(json.code).toBe(0);
  const parsed = JSON.parse(json.stdout) as { outDir: string };
  // The output folder is absolute and differs from machine to machine.
  return { text: text.stdout, json: { ...parsed, outDir: '<outDir>' } };
}

let now: Recorded;

beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'job'), { recursive: true });
  writeFileSync(join(work, 'job/every-resource.yaml'), contentsJob);
  writeFileSync(join(work, 'job/offer.pdf'), readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf')));
  writeFileSync(join(work, 'job/logo.png'), png);

  const examples = await loadJobs(['examples'], { cwd: repoRoot, env: {} });
  const contents = await loadJobs(['job'], { cwd: work, env });
  if (!contents.ok) throw new Error(JSON.stringify(contents.errors, null, 1));
  const account = contents.jobs[0]!.accounts[0]! satisfies ResolvedAccount;
  // The journal: what signrun last wrote of some items (changed outside signrun when the file still says so).
  const journal = new Map<string, AccountItemProgress>();
  for (const item of decideContents(account, { profiles: [], groups: [], users: [] }))
    if (item.kind !== 'user') journal.set(item.identity, { present: true, digest: item.digest, itemId: 'old' });
  const decided = decideContents(account, listing(), journal);

  now = {
    digests: { ...digestsOf(examples), ...digestsOf(contents) },
    plans: {
      examples: await planOf('examples', repoRoot),
      'every-resource': await planOf('job', work),
    },
    decided: { items: decided, calls: contentsCalls(decided, account) },
  };
  if (record) {
    mkdirSync(join(repoRoot, 'test/fixtures/plans'), { recursive: true });
    writeFileSync(fixture, `${JSON.stringify(now, null, 2)}\n`);
  }
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('plans stay as they were (recorded before the resource interface, issue 33)', () => {
  const recorded = () => {
    expect(existsSync(fixture), 'record it first: SIGNRUN_RECORD_PLANS=1').toBe(true);
    return JSON.parse(readFileSync(fixture, 'utf8')) as Recorded;
  };

  it('gives the same digests of every envelope and template of the examples and of a job of every resource kind', () => {
    expect(Object.keys(now.digests).length).toBeGreaterThan(40);
    expect(now.digests).toEqual(recorded().digests);
  });

  it('prints the same plan of the examples, as text and as JSON', () => {
    expect(now.plans['examples']).toEqual(recorded().plans['examples']);
  });

  it('prints the same plan of every resource kind an account entry keeps, item by item', () => {
    const plan = now.plans['every-resource']!;
    for (const word of ['permission profile', 'group', 'user', 'brand', 'Connect configuration', 'template'])
      expect(plan.text).toContain(` ${word} `);
    expect(plan).toEqual(recorded().plans['every-resource']);
  });

  it('decides each kind from the same listing the same way: actions, ids, digests, differences, outside changes, calls', () => {
    expect(now.decided).toEqual(recorded().decided);
  });
});
