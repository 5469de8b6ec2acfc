import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import { loadJobs } from '../../src/jobs/index.js';
import type { AccountEntryKind } from '../../src/jobs/account-entries/account-entry-kind.js';
import type { ResolvedAccount } from '../../src/jobs/model.js';
import { makeSecret } from '../../src/secret.js';
import { openJournal, readJournal } from '../../src/state/journal.js';
import { journalProgress } from '../../src/state/journal-progress.js';
import { accountEntryOf } from '../../src/runner/import/import-account-entry.js';
import { convergeContents } from '../../src/runner/resources/account/account-contents-pipeline.js';
import {
  contentsCalls,
  decideContents,
  peopleReads,
  readPeople,
  unusedPeople,
  type FoundPeople,
} from '../../src/runner/resources/account/account-contents-plan.js';
import {
  accountEntryKindsSource,
  kindModulesFolder,
  locateEntries,
  locateKinds,
  orderKinds,
  resourceKindsSource,
  type KindExport,
} from '../../src/runner/resources/kind-files.js';
import type { AccountResourceKind } from '../../src/runner/resources/resource-kind.js';
import { resourceKinds } from '../../src/runner/resources/resource-kinds.js';
import { itemWords, summaryWords } from '../../src/runner/resources/resource-words.js';
import { service, stamps, writes } from './toy-kind/resources/stamps.js';

// Issue 33, "adding a resource kind touches its own module, its own sandbox
// API group and generated files": a kind this test alone defines — stamps,
// kept in a service of its own (a Map; a sandbox group is its folder alone,
// test/sandbox/api-group-files.test.ts) — is two hand-written files, its
// module (toy-kind/resources/stamps.ts) and its job file's side
// (toy-kind/account-entries/stamps.ts). The generator `npm run docs:kinds`
// runs finds them beside the real kinds, places the kind by its `after` and
// lists its job side; the loader, the walkers that plan, run, journal and
// word an account's contents, and the import take it without a line of
// theirs naming it.

/** The test's own folders of kind modules and job sides, beside src/runner/resources/ and src/jobs/account-entries/. */
const toyKinds = new URL('./toy-kind/resources/', import.meta.url);
const toyEntries = new URL('./toy-kind/account-entries/', import.meta.url);

/** The catalogue as the generator finds and orders it with the toy's folder added. */
let located: KindExport[];
let kinds: readonly AccountResourceKind[];
/** The job file's side of the catalogue with the toy's, as the generated list gives them to the loader. */
let entries: AccountEntryKind[];
const folders: string[] = [];

const head = `version: 1
job: j
accounts:
  - key: acme
    accountName: Acme
    initialUser: { email: admin@acme.test, password: "\${env.PW}" }
    planInformation: { planId: p }
`;
let account: ResolvedAccount;

/** Loads a job file with `body` under the account entry, the toy's kind among the entry kinds. */
async function load(body: string) {
  const dir = await mkdtemp(path.join(tmpdir(), 'signrun-toy-job-'));
  folders.push(dir);
  await writeFile(path.join(dir, 'job.yaml'), head + body);
  return loadJobs(['job.yaml'], { cwd: dir, env: { PW: 'x', INK: 'Approved' }, accountEntries: entries });
}

beforeAll(async () => {
  located = orderKinds(await locateKinds([kindModulesFolder, toyKinds]));
  kinds = located.map((k) => k.kind);
  entries = (await locateEntries(kinds, [toyEntries])).map((e) => e.entry);
  const loaded = await load(`    stamps:
      - { stampName: "\${env.INK}", colour: green }
`);
  expect(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors)).toBe(true);
  if (loaded.ok) account = loaded.jobs[0]!.accounts[0]!;
});

// The toy's kind makes no call of DocuSign's, and the real kinds have nothing to do for this entry:
// the client is never asked anything.
const client = EsignatureClient.create({
  rootUrl: 'http://127.0.0.1:9/restapi',
  auth: { kind: 'bearer', accessToken: makeSecret('never-sent') },
});
const people = unusedPeople(client, 'acc-1');

afterAll(async () => {
  client.close();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** Reads and decides the account's contents from the catalogue given, as `plan` does. */
async function planned(journal?: Parameters<typeof decideContents>[2]) {
  const found = await readPeople(people, 'j/acme', account, undefined, kinds);
  return { found, items: decideContents(account, found, journal, kinds), reads: peopleReads(found, account, kinds) };
}

describe('a resource kind of a test’s own, through the catalogue', () => {
  it('is found by the generator in its own folder and placed by its `after`, its job side listed', async () => {
    // After the users, as it asks; then, of the kinds free, by name: after settings, brands, Connect and the
    // organisation's users, before templates.
    expect(kinds.map((k) => k.kind)).toEqual([
      'permissionProfile',
      'group',
      'user',
      'setting',
      'brand',
      'connect',
      'organizationUser',
      'stamp',
      'template',
    ]);
    expect(kinds).toContain(stamps);
    // The catalogue and the loader's list the generator would write hold it.
    const catalogue = resourceKindsSource(located);
    expect(catalogue).toContain("import { stamps } from '../../../test/runner/toy-kind/resources/stamps.js';");
    expect(catalogue).toContain(['  organizationUsers,', '  stamps,', '  accountTemplates,'].join('\n'));
    const listed = await locateEntries(kinds, [toyEntries]);
    expect(accountEntryKindsSource(listed)).toContain(
      "import { stampsEntry } from '../../../test/runner/toy-kind/account-entries/stamps.js';",
    );
    expect(entries).toContain(stamps.entry);
  });

  it('is read from the job file by its own job side: resolved, and a bad entry refused at its line', async () => {
    expect(account.stamps).toEqual([
      {
        stampName: 'Approved',
        colour: 'green',
        source: { file: expect.stringMatching(/job\.yaml$/), line: 9, column: 9 },
      },
    ]);
    const bad = await load(`    stamps:
      - { stampName: Approved, colour: green }
      - { stampName: Urgent, colour: purple }
      - { stampName: approved, colour: red }
`);
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    // The schema fragment refuses the colour; the kind's own checks wait for a schema-valid file.
    expect(bad.errors.map((e) => [e.code, e.field, e.line])).toEqual([
      ['SR_SCHEMA_ENUM', 'accounts[0].stamps[1].colour', 10],
    ]);
    const twice = await load(`    stamps:
      - { stampName: Approved, colour: green }
      - { stampName: approved, colour: red }
`);
    expect(twice.ok).toBe(false);
    if (twice.ok) return;
    expect(twice.errors.map((e) => [e.code, e.field, e.line, e.message])).toEqual([
      [
        'SR_ACCOUNT_NAME_DUPLICATE',
        'accounts[0].stamps[1].stampName',
        10,
        'stamp "approved" is given twice in this account (also stamps[0]): the toy keeps one per name',
      ],
    ]);
    // Without the toy's job side the loader knows no `stamps:` (the catalogue's own list).
    const without = await loadJobs(['job.yaml'], { cwd: folders.at(-1)!, env: { PW: 'x' } });
    expect(!without.ok && without.errors.map((e) => e.code)).toEqual(['SR_SCHEMA_UNKNOWN_PROPERTY']);
  });

  it('is planned, converged and journalled exactly once, seen changed outside, worded and imported', async () => {
    // plan: the walkers read it, decide it, count its calls and word it.
    const first = await planned();
    expect(first.items).toEqual([expect.objectContaining({ kind: 'stamp', name: 'Approved', action: 'create' })]);
    expect(first.items[0]!.identity).toBe('j/acme#stamp:approved');
    expect(first.reads).toBe(1);
    expect(contentsCalls(first.items, account, kinds)).toBe(2);
    expect(itemWords('stamp', kinds)).toBe('stamp');
    expect(summaryWords(first.items, kinds)).toBe('profiles, groups, users and stamps');

    // run: the pipeline converges it and journals its write, as every kind's.
    const stateDir = await mkdtemp(path.join(tmpdir(), 'signrun-toy-kind-'));
    folders.push(stateDir);
    const { journal } = await openJournal(stateDir);
    const results = await convergeContents(
      account,
      first.items,
      first.found,
      { people, journal, tag: 'j/acme' },
      kinds,
    );
    await journal.close();
    expect(results).toEqual([{ kind: 'stamp', name: 'Approved', outcome: 'created', id: 'st-1' }]);
    const records = (await readJournal(stateDir)).records;
    expect(records).toEqual([
      expect.objectContaining({
        kind: 'account-item',
        id: 'j/acme#stamp:approved',
        step: 'written',
        itemId: 'st-1',
        digest: first.items[0]!.digest,
      }),
    ]);

    // The next plan: nothing to do; the service changed behind signrun's back: changed outside, put back.
    const progress = journalProgress(records).accountItems;
    expect((await planned(progress)).items.map((i) => i.action)).toEqual(['up-to-date']);
    service.set('approved', { stampName: 'Approved', colour: 'red', stampId: 'st-1' });
    const drifted = (await planned(progress)).items[0]!;
    expect(drifted).toMatchObject({ action: 'update', outside: true, differences: ['colour: red → green'] });
    expect(writes.count).toBe(1);

    // import: the entry holds it, written by its module.
    const found: FoundPeople = { profiles: [], groups: [], users: [] };
    await stamps.import.read(found);
    const imported = accountEntryOf(
      { accountId: 'acc-1', accountName: 'Acme', planId: 'p', userId: 'u', found },
      { key: 'acme', job: 'acme', passwordVariable: 'P', passwordPurpose: 'p' },
      kinds,
    );
    expect((imported.entry as unknown as Record<string, unknown>)['stamps']).toEqual([
      { stampName: 'Approved', colour: 'red' },
    ]);
  });

  it('is not in the one catalogue, which the walkers walk by default', async () => {
    expect(resourceKinds.map((k) => k.kind)).not.toContain('stamp');
    const found = await readPeople(people, 'j/acme', account);
    expect(decideContents(account, found)).toEqual([]);
  });
});
