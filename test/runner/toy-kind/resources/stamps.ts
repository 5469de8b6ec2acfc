import type { FoundPeople } from '../../../../src/runner/plan-types.js';
import {
  digestOf,
  itemDecision,
  same,
  settledOutcome,
  writeCalls,
} from '../../../../src/runner/resources/item-decision.js';
import type { AccountResourceKind } from '../../../../src/runner/resources/resource-kind.js';
import { stampsEntry, type Stamp } from '../account-entries/stamps.js';

// The toy kind's module (test/runner/toy-resource-kind.test.ts), as a real
// kind's in src/runner/resources/: its identity, reading, decision,
// convergence, import and words, and its place (`after`). Its service is a
// Map (a real kind's is its sandbox API group, test/sandbox/api-group-files.test.ts).

export type FoundStamps = FoundPeople & { stamps?: Array<Stamp & { stampId: string }> };

/** The toy service's stamps, by lower-case name, and the writes made to it. */
export const service = new Map<string, Stamp & { stampId: string }>();
export const writes = { count: 0 };

export const stamps = {
  kind: 'stamp',
  // After the people, as brands: the catalogue's sort places it among the kinds free then, by name.
  after: ['user'],
  entry: stampsEntry,
  words: { one: 'stamp', summary: 'stamps' },
  count: (account) => account.stamps?.length ?? 0,
  async read(account, found) {
    if ((account.stamps?.length ?? 0) > 0) (found as FoundStamps).stamps = [...service.values()];
  },
  readCalls: (_account, found) => ((found as FoundStamps).stamps ? 1 : 0),
  decide: (account, found, journal) =>
    (account.stamps ?? []).map((stamp) => {
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
      const { source: _source, ...stamp } = account.stamps!.find((s) => same(s.stampName, plan.name))!;
      if (plan.action === 'create' || plan.action === 'update') {
        writes.count += 1;
        const stampId = plan.id ?? `st-${service.size + 1}`;
        service.set(stamp.stampName.toLowerCase(), { ...stamp, stampId });
        await ctx.done(plan, plan.action === 'create' ? 'created' : 'updated', stampId);
      } else await ctx.done(plan, settledOutcome(plan.action), plan.id);
    }
  },
  import: {
    field: 'stamps',
    async read(found) {
      (found as FoundStamps).stamps = [...service.values()];
    },
    entries: (found) => ((found as FoundStamps).stamps ?? []).map(({ stampName, colour }) => ({ stampName, colour })),
  },
} satisfies AccountResourceKind;
