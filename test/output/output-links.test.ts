import { lstat, mkdir, mkdtemp, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { OutputFolder } from '../../src/output/output-folder.js';
import type { SignrunError } from '../../src/errors/signrun-error.js';

/**
 * Symbolic links planted inside the output folder (issue 14, item 2): the
 * writer follows none, replaces none, and says which link it refused.
 */
async function setup() {
  const base = await mkdtemp(path.join(os.tmpdir(), 'signrun-links-'));
  const root = path.join(base, 'out');
  const outside = path.join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  return { base, root, outside, out: new OutputFolder(root) };
}

async function refused(write: Promise<unknown>): Promise<SignrunError> {
  const error = (await write.then(
    () => undefined,
    (e: unknown) => e,
  )) as SignrunError | undefined;
  expect(error?.code).toBe('SR_OUTPUT_LINK');
  return error!;
}

describe('OutputFolder and symbolic links', () => {
  it('refuses a link at a documents folder, at a job folder, and at a file, whatever the writer', async () => {
    const { root, outside, out } = await setup();
    await mkdir(path.join(root, 'job', 'key'), { recursive: true });
    await symlink(outside, path.join(root, 'job', 'key', 'documents'));
    await symlink(outside, path.join(root, 'other-job'));
    await mkdir(path.join(root, 'job', 'k2'), { recursive: true });
    await writeFile(path.join(outside, 'victim.json'), 'keep me');
    await symlink(path.join(outside, 'victim.json'), path.join(root, 'job', 'k2', 'signing.json'));

    const error = await refused(out.writeFile('job/key/documents/a.pdf', 'pdf'));
    expect(error.message).toContain(path.join('job', 'key', 'documents'));
    await refused(out.writeFileBehind('other-job/k/envelope.json', '{}').committed);
    await refused(out.writeStream('job/key/documents/b.pdf', Readable.from([Buffer.from('x')])));
    await refused(out.writeStreamBehind('other-job/k/c.pdf', Readable.from([Buffer.from('x')])));
    await refused(out.writeJson('job/k2/signing.json', { url: 'https://secret' }, { mode: 0o600 }));

    expect((await readdir(outside)).sort()).toEqual(['victim.json']);
    expect(await readFile(path.join(outside, 'victim.json'), 'utf8')).toBe('keep me');
    expect((await lstat(path.join(root, 'job', 'k2', 'signing.json'))).isSymbolicLink()).toBe(true);
  });

  it('writes under an output folder that is itself a link (the user chose it), and finds links in a state folder', async () => {
    const { base, outside } = await setup();
    const linkedRoot = path.join(base, 'linked-out');
    await symlink(outside, linkedRoot);
    const out = new OutputFolder(linkedRoot);
    await out.writeFile('job/key/envelope.json', '{}');
    expect(await readFile(path.join(outside, 'job', 'key', 'envelope.json'), 'utf8')).toBe('{}');

    await out.refuseLinksIn(path.join(linkedRoot, '.signrun')); // absent: fine
    await mkdir(path.join(outside, '.signrun'));
    await out.refuseLinksIn(path.join(linkedRoot, '.signrun'));
    await symlink(path.join(base, 'elsewhere.jsonl'), path.join(outside, '.signrun', 'journal.jsonl'));
    await refused(out.refuseLinksIn(path.join(linkedRoot, '.signrun')));
  });
});
