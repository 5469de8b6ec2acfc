/**
 * Benchmark: the sandbox's status-changes listing (GET …/envelopes) with one
 * account filled by one job's N envelopes, for each listing shape `signrun
 * run` and `signrun sync` send (service-ledger.ts, status-listing.ts):
 *
 * - lookup: the runner's first listing of a job, from_date 2000 + the job's
 *   field (signrunJob=job), a page of 1,000 (it returns N matches: O(N) by nature);
 * - confirm: the runner's later listings, from_date = the last change − 2 s
 *   (its overlap) + the job's field: ~200 matches whatever N;
 * - sync: from_date = the same recent time, no field, a page of 1,000;
 * - sync-ids: 40 envelope ids (sync's batch), no date;
 * and what the index costs the writes, after the listings: insert (an
 * envelope with the runner's three fields) and status (one status change of
 * an old envelope), each in its own transaction as a request makes it.
 *
 * Each build is filled once through its own repository (its dist/, in
 * memory, as `serve` keeps it: the real statements and indexes), then the
 * builds are timed alternately, round after round, on the same load: CPU µs
 * a call (process.cpuUsage, the median of the rounds), and this build's over
 * the other's.
 *
 *   npm run build && node bench/sandbox/listing-at-scale.mjs [--envelopes 10000] [--rounds 5] [--against /tmp/base48/dist]
 *
 * Plain JavaScript on the built dist/ (the build compiles src/ only).
 */
import { loadavg, cpus } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const envelopes = Number(option('envelopes', 10_000));
const rounds = Number(option('rounds', 5));
const dists = [resolve(option('dist', fileURLToPath(new URL('../../dist', import.meta.url))))];
const against = option('against', undefined);
if (against) dists.push(resolve(against));

const t0 = Date.UTC(2026, 10, 1);
const spacingMs = 10; // ~100 envelopes a second, as a run makes them
const overlapMs = 2_000; // service-ledger.ts: the runner's overlap
const last = t0 + (envelopes - 1) * spacingMs;
const field = (fieldId, name, value) => ({
  kind: 'text',
  fieldId,
  name,
  value,
  show: 'false',
  required: 'false',
  listItems: null,
});
const record = (i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  accountId: 'acc',
  senderUserId: 'u',
  status: 'sent',
  emailSubject: 'Please sign',
  emailBlurb: '',
  templateId: null,
  transactionId: null,
  eventNotification: null,
  createdAt: t0 + i * spacingMs,
  sentAt: t0 + i * spacingMs,
  deliveredAt: null,
  completedAt: null,
  declinedAt: null,
  voidedAt: null,
  voidedReason: null,
  statusChangedAt: t0 + i * spacingMs,
});
const fields = (i) => [
  field('1', 'signrun', `bench/row-${i}`),
  field('2', 'signrunJob', 'bench'),
  field('3', 'signrunAccountId', 'acc'),
];

const shapes = {
  lookup: {
    fromDate: Date.parse('2000-01-01T00:00:00Z'),
    customField: { name: 'signrunJob', value: 'bench' },
    count: 1000,
  },
  confirm: { fromDate: last - overlapMs, customField: { name: 'signrunJob', value: 'bench' }, count: 1000 },
  sync: { fromDate: last - overlapMs, count: 1000 },
  'sync-ids': {
    envelopeIds: Array.from({ length: 40 }, (_, k) => record(k * Math.floor(envelopes / 40)).id),
    count: 1000,
  },
};

const cpuUs = (fn) => {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return c.user + c.system;
};

async function build(dist) {
  const { openDatabase } = await import(pathToFileURL(`${dist}/sandbox/platform/db/open-database.js`).href);
  const { envelopesRepository } = await import(
    pathToFileURL(`${dist}/sandbox/esignature/envelopes/repository.js`).href
  );
  const db = openDatabase(undefined, []);
  const repository = envelopesRepository(db);
  const batch = db.transaction((from, to) => {
    for (let i = from; i < to; i++) repository.insert(record(i), [], [], fields(i));
  });
  for (let i = 0; i < envelopes; i += 1000) batch(i, Math.min(envelopes, i + 1000));
  db.exec('ANALYZE');
  return { dist, db, repository, samples: {}, totals: {}, calls: {} };
}

const builds = [];
for (const dist of dists) builds.push(await build(dist));

for (let round = 0; round < rounds; round++) {
  for (const b of builds) {
    for (const [name, shape] of Object.entries(shapes)) {
      const query = { accountId: 'acc', startPosition: 0, ...shape };
      // As many calls as make ~50 ms of CPU (at least one, at most 200), from a first call that warms the statement.
      const calls = (b.calls[name] ??= Math.max(
        1,
        Math.min(
          200,
          Math.round(
            50_000 /
              Math.max(
                1,
                cpuUs(() => b.repository.list(query)),
              ),
          ),
        ),
      ));
      const us = cpuUs(() => {
        for (let k = 0; k < calls; k++) b.totals[name] = b.repository.list(query).total;
      });
      (b.samples[name] ??= []).push(us / calls);
    }
  }
}
// Then the writes, after the listings (a status change moves an envelope into the recent window):
// 200 new envelopes and 200 status changes of old ones a round, each its own transaction as a request makes it.
for (let round = 0; round < rounds; round++) {
  for (const b of builds) {
    const insertUs = cpuUs(() => {
      for (let k = 0; k < 200; k++) {
        const i = envelopes + round * 200 + k;
        b.db.transaction(() => b.repository.insert(record(i), [], [], fields(i)))();
      }
    });
    (b.samples.insert ??= []).push(insertUs / 200);
    const statusUs = cpuUs(() => {
      for (let k = 0; k < 200; k++) {
        const e = b.repository.get('acc', record(round * 200 + k).id);
        const at = last + 1_000_000 + round * 200 + k;
        b.db.transaction(() =>
          b.repository.updateEnvelope({ ...e, status: 'delivered', deliveredAt: at, statusChangedAt: at }),
        )();
      }
    });
    (b.samples.status ??= []).push(statusUs / 200);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `listing at scale: ${envelopes} envelopes of one job in one account, ${rounds} rounds; load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, ${cpus().length} cores, node ${process.version}`,
);
const names = [...Object.keys(shapes), 'insert', 'status'];
const header = ['', ...builds.map((b) => b.dist), ...(builds.length > 1 ? ['ratio'] : [])];
console.log(header.join('\t'));
for (const name of names) {
  const values = builds.map((b) => median(b.samples[name]));
  const matches = name === 'insert' || name === 'status' ? '' : ` (${builds[0].totals[name]} matches)`;
  console.log(
    [
      `${name}${matches} µs/call`,
      ...values.map((v) => v.toFixed(1)),
      ...(builds.length > 1 ? [(values[0] / values[1]).toFixed(3)] : []),
    ].join('\t'),
  );
}
