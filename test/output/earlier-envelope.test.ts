import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutputFolder } from '../../src/output/output-folder.js';
import { retireEarlierEnvelope } from '../../src/output/earlier-envelope.js';

async function outputWith(keys: string[]): Promise<OutputFolder> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'signrun-earlier-'));
  for (const key of keys) await writeRecord(root, key, `env-${key}`);
  return new OutputFolder(root);
}

async function writeRecord(root: string, key: string, envelopeId: string): Promise<void> {
  await mkdir(path.join(root, 'job', key), { recursive: true });
  await writeFile(path.join(root, 'job', key, 'envelope.json'), JSON.stringify({ envelopeId, files: [] }));
}

describe('retireEarlierEnvelope', () => {
  it('sets aside the outputs of an envelope a key’s folder held when the run began', async () => {
    const out = await outputWith(['a']);
    expect(await retireEarlierEnvelope(out, 'job/a')).toEqual({ envelopeId: 'env-a', fate: 'set-aside' });
    expect(await readdir(path.join(out.root, 'job/a/replaced'))).toEqual(['env-a.json']);
  });

  it('leaves alone a key whose folder was made after the job’s folder was first listed (this run’s, or a racing runner’s)', async () => {
    const out = await outputWith(['a']);
    // The first retirement lists the job's folder: `b` is not in it.
    await retireEarlierEnvelope(out, 'job/a');
    await writeRecord(out.root, 'b', 'env-b');
    expect(await retireEarlierEnvelope(out, 'job/b')).toBeUndefined();
    expect(await readdir(path.join(out.root, 'job/b'))).toEqual(['envelope.json']);
  });

  it('finds nothing to retire in a job folder that does not exist', async () => {
    const out = await outputWith([]);
    expect(await retireEarlierEnvelope(out, 'job/a')).toBeUndefined();
    expect(await out.firstListing('job')).toEqual(new Set());
  });
});
