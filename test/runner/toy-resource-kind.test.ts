import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EsignatureClient } from '../../src/client/esignature-client.js';
import type { ResolvedAccount } from '../../src/jobs/model.js';
import type { RawAccount } from '../../src/jobs/raw-job.js';
import { makeSecret } from '../../src/secret.js';
import { openJournal, readJournal } from '../../src/state/journal.js';
import { journalProgress } from '../../src/state/journal-progress.js';
import { accountEntryOf } from '../../src/runner/import/import-account-entry.js';
import { convergeContents } from '../../src/runner/resources/account-contents-pipeline.js';
import {
  contentsCalls,
  decideContents,
  peopleReads,
  readPeople,
  unusedPeople,
  type FoundPeople,
} from '../../src/runner/resources/account-contents-plan.js';
import { digestOf, itemDecision, same, settledOutcome, writeCalls } from '../../src/runner/resources/item-decision.js';
import type { AccountResourceKind } from '../../src/runner/resources/resource-kind.js';
import { resourceKinds } from '../../src/runner/resources/resource-kinds.js';
import { itemWords, summaryWords } from '../../src/runner/resources/resource-words.js';

// Issue 33, "adding a resource kind touches its own module": a kind this test
// alone defines — stamps, kept in a service of its own (a Map) — joins the
// catalogue, and the walkers that plan, run, journal, word and import an
// account's contents take it without a line of theirs naming it.

interface Stamp {
  stampName: string;
  colour: string;
}
type AccountWithStamps = ResolvedAccount & { stamps?: Stamp[] };
type FoundStamps = FoundPeople & { stamps?: Array<Stamp & { stampId: string }> };

/** The toy service's stamps, by lower-case name. */
const service = new Map<string, Stamp & { stampId: string }>();
let writes = 0;

const stamps = {
  kind: 'stamp',
  words: { one: 'stamp', summary: 'stamps' },
  count: (account) => (account as AccountWithStamps).stamps?.length ?? 0,
  async read(account, found) {
    if (((account as AccountWithStamps).stamps?.length ?? 0) > 0) (found as FoundStamps).stamps = [...service.values()];
  },
  readCalls: (_account, found) => ((found as FoundStamps).stamps ? 1 : 0),
  decide: (account, found, journal) =>
    ((account as AccountWithStamps).stamps ?? []).map((stamp) => {
      const there = (found as FoundStamps).stamps?.find((s) => same(s.stampName, stamp.stampName));
      return itemDecision(
        account,
        {
          kind: 'stamp',
          name: stamp.stampName,
          digest: digestOf(stamp),
          id: there?.stampId,
          differences: there && there.colour !== stamp.colour ? [`colour: ${there.colour} → ${stamp.colour}`] : [],
        },
        journal,
      );
    }),
  calls: (plans) => writeCalls(plans),
  async converge(account, plans, ctx) {
    for (const plan of plans) {
      const stamp = (account as AccountWithStamps).stamps!.find((s) => same(s.stampName, plan.name))!;
      if (plan.action === 'create' || plan.action === 'update') {
        writes += 1;
        const stampId = plan.id ?? `st-${service.size + 1}`;
        service.set(stamp.stampName.toLowerCase(), { ...stamp, stampId });
        await ctx.done(plan, plan.action === 'create' ? 'created' : 'updated', stampId);
      } else await ctx.done(plan, settledOutcome(plan.action), plan.id);
    }
  },
  import: {
    // A real kind adds its field to the job file's account; the toy's lives in this test only.
    field: 'stamps' as keyof RawAccount,
    async read(found) {
      (found as FoundStamps).stamps = [...service.values()];
    },
    entries: (found) => ((found as FoundStamps).stamps ?? []).map(({ stampName, colour }) => ({ stampName, colour })),
  },
} satisfies AccountResourceKind;

/** The catalogue with the toy kind in its place, last. */
const kinds: readonly AccountResourceKind[] = [...resourceKinds, stamps];

const source = { file: 'job.yaml', line: 1, column: 1 };
const account: AccountWithStamps = {
  job: 'j',
  key: 'acme',
  source,
  state: 'present',
  accountName: 'Acme',
  stamps: [{ stampName: 'Approved', colour: 'green' }],
};

// The toy's kind makes no call of DocuSign's, and the real kinds have nothing to do for this entry:
// the client is never asked anything.
const client = EsignatureClient.create({
  rootUrl: 'http://127.0.0.1:9/restapi',
  auth: { kind: 'bearer', accessToken: makeSecret('never-sent') },
});
const people = unusedPeople(client, 'acc-1');
const folders: string[] = [];

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
  it('is planned, converged and journalled exactly once, seen changed outside, worded and imported', async () => {
    // plan: the walkers read it, decide it, count its calls and word it.
    const first = await planned();
    expect(first.items).toEqual([expect.objectContaining({ kind: 'stamp', name: 'Approved', action: 'create' })]);
    expect(first.items[0]!.identity).toBe('j/acme#stamp:approved');
    expect(first.reads).toBe(1);
    expect(contentsCalls(first.items, account, kinds)).toBe(2);
    expect(itemWords('stamp', kinds)).toBe('stamp');
    expect(summaryWords(first.items, kinds)).toBe('profiles, groups and users and stamps');

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
    expect(writes).toBe(1);

    // import: the entry holds it, written by its module.
    const found: FoundPeople = { profiles: [], groups: [], users: [] };
    await stamps.import.read(found);
    const imported = accountEntryOf(
      { accountId: 'acc-1', accountName: 'Acme', planId: 'p', userId: 'u', found },
      { key: 'acme', passwordVariable: 'P', passwordPurpose: 'p' },
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
