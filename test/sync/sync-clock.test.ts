import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { movableClock } from '../../src/sandbox/esignature/envelopes/notifications/movable-clock.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import { realTiming, type Timing } from '../../src/client/timing.js';
import { readJournal } from '../../src/state/journal.js';
import { sync } from '../../src/sync/sync.js';
import { runCollected } from '../helpers/collected-run.js';
import { envelopeFixture } from '../runner/fixtures.js';

// sync takes the clock the way run does (command-run.ts): the polling rule,
// the journal and the summary read the clock given, so a test moves the
// sandbox's clock past DocuSign's 15 minutes instead of waiting for them.

const clock = movableClock();
/** The sandbox's clock, as signrun's time base. */
const timing: Timing = { ...realTiming, now: () => clock.now() };
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, pollingRule: 'docusign' }, { clock });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('sync given a clock', () => {
  it('the polling rule, the journal and the summary follow the clock, not the real time', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-sync-clock-'));
    const stateDir = path.join(outDir, '.signrun');
    const jobs = () => [
      { file: '/jobs/runner-test.yaml', job: 'runner-test', envelopes: [envelopeFixture('tick')], accounts: [] },
    ];
    const target = { rootUrl: sandbox.rootUrl, sandbox: false, auth: sandboxSeedAuth() };
    const sent = await runCollected({ jobs: jobs(), target, outDir, stateDir, timing });
    expect(sent.envelopes[0]?.outcome).toBe('succeeded');
    const synced = async () => {
      const summary = await sync({ jobs: jobs(), target, outDir, stateDir, timing });
      await summary.close();
      return summary;
    };

    expect((await synced()).sync.listed).toBe(true);
    // Within DocuSign's 15 minutes by the clock: no listing.
    const early = await synced();
    expect(early.sync.listed).toBe(false);
    expect(early.sync.nextListingAt).toBeDefined();

    // Past them by the clock only: a sync that read the real time would still wait.
    clock.advance(16 * 60_000);
    const later = await synced();
    expect(later.sync.listed).toBe(true);
    const ahead = (iso: string) => Date.parse(iso) - Date.now();
    expect(ahead(later.startedAt)).toBeGreaterThan(10 * 60_000);
    const listings = (await readJournal(stateDir)).records.filter((r) => r.kind === 'listing');
    expect(listings).toHaveLength(2);
    expect(ahead(listings[1]!.at)).toBeGreaterThan(10 * 60_000);
  });
});
