import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import { SignrunError } from '../../src/errors/signrun-error.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 36: `validate` of a big campaign stops on the first SIGTERM (main's
// abort signal), once the row or document in hand is checked: SR_INTERRUPTED,
// exit 130. The signal is fired from inside the load, at the tenth read of
// `${env.SUBJECT}` (one or more per row), so where it stops is exact.

const work = join(repoRoot, `test/.tmp/load-interrupted-${process.pid}`);
afterAll(() => rmSync(work, { recursive: true, force: true }));

function campaign(): string {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const header = 'version: 1\ndefaults: { returnUrl: https://example.com/done }\n';
  writeFileSync(
    join(work, 'a.yaml'),
    `${header}job: a\nenvelopes:\n  - key: letter-\${row.id}\n    emailSubject: "\${env.SUBJECT} \${row.id}"\n    forEach: { csv: rows.csv }\n    documents: [{ file: d.pdf }]\n    recipients: [{ name: A, email: a@example.com }]\n`,
  );
  writeFileSync(
    join(work, 'b.yaml'),
    `${header}job: b\nenvelopes:\n  - key: one\n    emailSubject: "\${env.SECOND}"\n    documents: [{ file: d.pdf }]\n    recipients: [{ name: B, email: b@example.com }]\n`,
  );
  writeFileSync(join(work, 'rows.csv'), `id\n${Array.from({ length: 500 }, (_, i) => i + 1).join('\n')}\n`);
  writeFileSync(join(work, 'd.pdf'), readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf')));
  return work;
}

/** An environment that counts the reads of each name, and calls `onRead` at each. */
function watchedEnv(onRead: (name: string) => void): { env: NodeJS.ProcessEnv; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const values: Record<string, string> = { SUBJECT: 'Please sign', SECOND: 'Second' };
  const env = new Proxy(values, {
    get(target, name) {
      if (typeof name !== 'string') return undefined;
      reads.set(name, (reads.get(name) ?? 0) + 1);
      onRead(name);
      return target[name];
    },
  }) as NodeJS.ProcessEnv;
  return { env, reads };
}

describe('loadJobs stops on its abort signal (validate and SIGTERM)', () => {
  it('without a signal the whole campaign is read: 500 rows, then the second file', async () => {
    const dir = campaign();
    const { env, reads } = watchedEnv(() => undefined);
    const loaded = await loadJobs(['.'], { cwd: dir, env });
    expect(loaded.ok, JSON.stringify(loaded.ok ? [] : loaded.errors)).toBe(true);
    expect(loaded.stats.envelopes).toBe(501);
    expect(reads.get('SUBJECT')).toBeGreaterThanOrEqual(500);
    expect(reads.get('SECOND')).toBeGreaterThanOrEqual(1);
  });

  it('a signal amid the rows stops at the next row: SR_INTERRUPTED (exit 130), the second file never read', async () => {
    const dir = campaign();
    const controller = new AbortController();
    const { env, reads } = watchedEnv((name) => {
      if (name === 'SUBJECT' && reads.get('SUBJECT') === 10) controller.abort();
    });
    const stopped = await loadJobs(['.'], { cwd: dir, env, signal: controller.signal }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(stopped).toBeInstanceOf(SignrunError);
    expect((stopped as SignrunError).code).toBe('SR_INTERRUPTED');
    expect((stopped as SignrunError).exitCode).toBe(130);
    const row = Number(/a\.yaml at envelopes\[0\], before row (\d+)/.exec((stopped as SignrunError).message)?.[1]);
    expect(row).toBeGreaterThan(1);
    expect(row).toBeLessThan(12);
    expect(reads.get('SUBJECT')).toBe(10);
    expect(reads.has('SECOND')).toBe(false);
  });

  it('a signal before the load: not one job file is read', async () => {
    const dir = campaign();
    const controller = new AbortController();
    controller.abort();
    const { env, reads } = watchedEnv(() => undefined);
    await expect(loadJobs(['.'], { cwd: dir, env, signal: controller.signal })).rejects.toMatchObject({
      code: 'SR_INTERRUPTED',
    });
    expect(reads.size).toBe(0);
  });
});
