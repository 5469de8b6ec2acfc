import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import { makePlan } from '../../src/runner/plan.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 37: a run of 100,000 rows holds the plan's item of every envelope until it starts. Those
// items must share one hidden class: an object spread, then added to, got one of its own in V8
// (a map and a descriptor array, some 290 bytes an item, 29 MB at 100,000 rows).

setFlagsFromString('--allow-natives-syntax');
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- V8's own check, only with the flag above
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

const work = join(repoRoot, `test/.tmp/plan-items-shape-${process.pid}`);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the run's plan items", () => {
  it('share one hidden class across a campaign of rows, with their envelopes kept', async () => {
    mkdirSync(join(work, 'docs'), { recursive: true });
    copyFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf'), join(work, 'docs/a.pdf'));
    const rows = Array.from({ length: 40 }, (_, i) => `${i + 1},Person ${i + 1}`);
    writeFileSync(join(work, 'people.csv'), ['id,name', ...rows, ''].join('\n'));
    writeFileSync(
      join(work, 'job.yaml'),
      [
        'version: 1',
        'job: shapes',
        'envelopes:',
        '  - key: e-${row.id}',
        '    forEach: { csv: people.csv }',
        '    emailSubject: "Sign, ${row.name}"',
        '    documents: [{ name: a.pdf, file: docs/a.pdf }]',
        '    recipients: [{ name: "${row.name}", email: "p${row.id}@example.com" }]',
        '',
      ].join('\n'),
    );
    const loaded = await loadJobs([work], { cwd: work, env: {}, streamRows: true });
    if (!loaded.ok) throw new Error('the job did not load');
    const plan = await makePlan({ jobs: loaded.jobs, arbitrate: false, documents: 'at-send', keepItems: true });
    const items = plan.items.filter((i) => i.kind === 'envelope');
    expect(items).toHaveLength(40);
    expect(items.every((i) => i.kind === 'envelope' && i.envelope !== undefined)).toBe(true);
    expect(items.filter((i) => !haveSameMap(i, items[0]!))).toEqual([]);
  });
});
