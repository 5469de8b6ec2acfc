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

describe('OutputFolder and a killed run', () => {
  it("removes the temp files a dead process left where it writes next (one held signing addresses), never a live one's", async () => {
    const { root, out } = await setup();
    let dead = 4_000_000;
    while (isAlive(dead)) dead += 1;
    await mkdir(path.join(root, 'job', 'key'), { recursive: true });
    const leftovers = [
      path.join(root, 'job', 'key', `.signing.json.${dead}.3.tmp`),
      path.join(root, `.report.json.${dead}.9.tmp`),
    ];
    const live = path.join(root, 'job', 'key', `.envelope.json.${process.ppid}.1.tmp`);
    for (const file of [...leftovers, live]) await writeFile(file, '{"url":"https://signing.example/secret"}');
    await out.writeFile('job/key/envelope.json', '{}');
    const left = [...(await readdir(root)), ...(await readdir(path.join(root, 'job', 'key')))];
    for (const file of leftovers) expect(left).not.toContain(path.basename(file));
    expect(left).toContain(path.basename(live));
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
