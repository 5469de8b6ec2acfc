import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { startLinksServer, type RunningLinksServer } from '../../src/links/links-server.js';
import { recordOpening } from '../../src/links/openings-log.js';
import { OutputFolder } from '../../src/output/output-folder.js';
import type { SigningRecord } from '../../src/output/records.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { sandboxEnv, tempDir } from '../cli/run-helpers.js';

// Issue 25, "a visitor with one link": opening a stable link costs the account
// two API calls; a link opened in a loop must not spend the hourly budget, its
// openings log must not grow without bound, and where the signer goes after
// signing comes from the job, not from an output anyone with the folder can edit.

let sandbox: RunningSandbox;
let outDir: string;
const jobReturnUrl = 'https://hr.example.com/signing-done';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  const jobs = await tempDir('signrun-visitor-jobs-');
  outDir = await tempDir('signrun-visitor-out-');
  await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(jobs, 'offer.pdf'));
  await writeFile(
    path.join(jobs, 'links.yaml'),
    `version: 1
job: visitor
defaults: { emailSubject: Please sign, returnUrl: "${jobReturnUrl}" }
envelopes:
  - key: ada
    documents: [{ file: offer.pdf }]
    recipients: [{ name: Ada Martin, email: ada@example.com, clientUserId: ada }]
  - key: bob
    documents: [{ file: offer.pdf }]
    recipients: [{ name: Bob Stone, email: bob@example.com, clientUserId: bob }]
`,
  );
  const ran = await runCli(['run', jobs, '--out', outDir], { env: sandboxEnv(sandbox) });
  if (ran.code !== 0) throw new Error(`run failed: ${ran.stdout}${ran.stderr}`);
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
});

async function server(options: Partial<Parameters<typeof startLinksServer>[0]>): Promise<RunningLinksServer> {
  const loaded = await loadConfig({ cwd: outDir, env: sandboxEnv(sandbox) });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return startLinksServer({ outDir, config: loaded.config, port: 0, ...options });
}

async function linkOf(key: string): Promise<string> {
  const signing = JSON.parse(
    await readFile(path.join(outDir, 'visitor', key, 'signing.json'), 'utf8'),
  ) as SigningRecord;
  return signing.recipients[0]!.link!;
}

/** View tokens the sandbox issued for the envelopes so far: each is one address made, two calls spent. */
function viewsIssued(): number {
  return (sandbox.app.sandbox.db.prepare('SELECT COUNT(*) AS n FROM view_tokens').get() as { n: number }).n;
}

describe('links serve against a visitor with one link', () => {
  it('200 openings of one link make at most the per-link number of addresses; the rest are told to wait', async () => {
    const running = await server({ viewLimits: { perLink: 3, global: 100 } });
    try {
      const link = await linkOf('ada');
      const before = viewsIssued();
      const answers = await Promise.all(Array.from({ length: 200 }, () => fetch(link, { redirect: 'manual' })));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 303)).toHaveLength(3);
      expect(statuses.filter((s) => s === 429)).toHaveLength(197);
      const waited = answers.find((a) => a.status === 429)!;
      expect(Number(waited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await waited.text()).toContain('Please try again in a few minutes');
      expect(viewsIssued() - before).toBe(3);
      const log = (await readFile(path.join(outDir, 'visitor/ada/link-openings.jsonl'), 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { outcome: string; code?: string });
      expect(log.filter((o) => o.outcome === 'throttled')).toHaveLength(197);
      expect(log.find((o) => o.outcome === 'throttled')?.code).toBe('SR_LINKS_RATE_LINK');
    } finally {
      await running.close();
    }
  });

  it('the whole server makes at most its global number of addresses, whichever links are opened', async () => {
    const running = await server({ viewLimits: { perLink: 100, global: 2 } });
    try {
      const [ada, bob] = [await linkOf('ada'), await linkOf('bob')];
      const statuses: number[] = [];
      for (const link of [ada, bob, ada, bob]) statuses.push((await fetch(link, { redirect: 'manual' })).status);
      expect(statuses).toEqual([303, 303, 429, 429]);
    } finally {
      await running.close();
    }
  });

  it('with the job files, the returnUrl is the job’s, whatever signing.json was edited to say', async () => {
    const file = path.join(outDir, 'visitor/bob/signing.json');
    const signing = JSON.parse(await readFile(file, 'utf8')) as SigningRecord;
    await writeFile(file, JSON.stringify({ ...signing, returnUrl: 'https://phishing.example/collect' }));
    const asJob = await server({ returnUrls: new Map([['visitor/bob', jobReturnUrl]]) });
    try {
      expect((await fetch(await linkOf('bob'), { redirect: 'manual' })).status).toBe(303);
      const last = sandbox.app.sandbox.db
        .prepare('SELECT return_url AS returnUrl FROM view_tokens ORDER BY created_at DESC, rowid DESC LIMIT 1')
        .get() as { returnUrl: string };
      expect(last.returnUrl).toBe(jobReturnUrl);
    } finally {
      await asJob.close();
    }
    // Without the job files, an address that is not http(s) is not used at all.
    await writeFile(file, JSON.stringify({ ...signing, returnUrl: 'javascript:alert(1)' }));
    const fromOutput = await server({});
    try {
      const answer = await fetch(await linkOf('bob'), { redirect: 'manual' });
      expect(answer.status).toBe(503);
    } finally {
      await fromOutput.close();
      await writeFile(file, JSON.stringify(signing));
    }
  });

  it('the openings log is bounded: past its size it is rotated, one older file kept', async () => {
    const out = new OutputFolder(outDir);
    const opening = {
      at: new Date(0).toISOString(),
      recipientId: '1',
      clientUserId: 'ada',
      outcome: 'throttled' as const,
    };
    for (let i = 0; i < 300; i++) await recordOpening(out, 'visitor/ada', opening, 4096);
    const log = path.join(outDir, 'visitor/ada/link-openings.jsonl');
    expect((await stat(log)).size).toBeLessThan(4096 + 200);
    expect((await stat(`${log}.1`)).size).toBeLessThan(4096 + 200);
  });
});
