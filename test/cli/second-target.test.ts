import { access, copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { EnvelopeRecord } from '../../src/output/records.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { sandboxEnv, tempDir } from './run-helpers.js';

// Issue 26: a second run against a new target left the first envelope's
// documents and certificate beside a new envelope.json that listed none.
// A key's folder now describes its envelope alone: the earlier envelope's
// outputs are set aside under replaced/ (or removed, when the in-process
// sandbox that made it is gone).

let first: RunningSandbox;
let second: RunningSandbox;
beforeAll(async () => {
  [first, second] = await Promise.all([startSandbox({ port: 0 }), startSandbox({ port: 0 })]);
});
afterAll(async () => Promise.all([first?.close(), second?.close()]));

const jobText = (job: string) =>
  [
    'version: 1',
    `job: ${job}`,
    'envelopes:',
    '  - key: offer',
    '    emailSubject: Please sign',
    '    documents:',
    '      - { name: offer-letter.pdf, file: docs/offer-letter.pdf }',
    '    recipients:',
    '      - { name: Ann Lee, email: ann@example.com }',
    '',
  ].join('\n');

async function jobFolder(job: string): Promise<string> {
  const dir = await tempDir('signrun-target-');
  await mkdir(path.join(dir, 'docs'));
  await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
  await writeFile(path.join(dir, 'targets.yaml'), jobText(job));
  return dir;
}

/** Every file under a folder, relative to it, sorted. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(folder, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

const record = async (folder: string) =>
  JSON.parse(await readFile(path.join(folder, 'envelope.json'), 'utf8')) as EnvelopeRecord;

describe('a second run against another target', () => {
  it('sets the first envelope’s outputs aside: the folder lists what its envelope.json lists', async () => {
    const dir = await jobFolder('targets');
    const folder = path.join(dir, 'out', 'targets', 'offer');
    const a = await runCli(['run', '.', '--out', 'out', '--documents', 'at-send'], {
      cwd: dir,
      env: sandboxEnv(first),
    });
    expect(a.code, a.stdout + a.stderr).toBe(0);
    const earlier = await record(folder);
    expect(earlier.files.map((f) => f.path)).toContain('targets/offer/certificate.pdf');

    // The state folder belongs to the first service: the second gets its own (SR_STATE_OTHER_TARGET says so).
    const b = await runCli(['run', '.', '--out', 'out', '--state', 'state-second'], {
      cwd: dir,
      env: sandboxEnv(second),
    });
    expect(b.code, b.stdout + b.stderr).toBe(0);
    expect(b.stderr).toContain(`targets/offer/replaced/${earlier.envelopeId}/`);
    const now = await record(folder);
    expect(now.envelopeId).not.toBe(earlier.envelopeId);
    // Outside replaced/, the folder holds envelope.json and what it lists (none yet: documents on completion).
    const listed = new Set(now.files.map((f) => path.relative('targets/offer', f.path)));
    const current = (await filesUnder(folder)).filter((f) => !f.startsWith('replaced/'));
    expect(current.filter((f) => f !== 'envelope.json' && !listed.has(f))).toEqual([]);
    // The first envelope's files are kept, whole, with its record.
    const kept = (await filesUnder(path.join(folder, 'replaced'))).sort();
    expect(kept).toEqual(
      [
        `${earlier.envelopeId}.json`,
        ...earlier.files.map((f) => `${earlier.envelopeId}/${path.relative('targets/offer', f.path)}`),
      ].sort(),
    );
    expect(
      (
        JSON.parse(
          await readFile(path.join(folder, 'replaced', `${earlier.envelopeId}.json`), 'utf8'),
        ) as EnvelopeRecord
      ).envelopeId,
    ).toBe(earlier.envelopeId);
  });

  it('removes the outputs of an envelope the in-process sandbox made: it ended with that run', async () => {
    const dir = await jobFolder('sandboxed');
    const folder = path.join(dir, 'out', 'sandboxed', 'offer');
    const a = await runCli(['run', '.', '--out', 'out'], { cwd: dir });
    expect(a.code, a.stdout + a.stderr).toBe(0);
    const earlier = await record(folder);
    expect(earlier.inProcessSandbox).toBe(true);
    await access(path.join(folder, 'certificate.pdf'));

    const b = await runCli(['run', '.', '--out', 'out'], { cwd: dir, env: sandboxEnv(second) });
    expect(b.code, b.stdout + b.stderr).toBe(0);
    const now = await record(folder);
    expect(now.inProcessSandbox).toBeUndefined();
    expect(await filesUnder(folder)).toEqual(['envelope.json']);
  });
});
