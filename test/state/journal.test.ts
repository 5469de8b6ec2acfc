import { constants } from 'node:fs';
import { appendFile, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  journalFileName,
  journalProgress,
  openJournal,
  readJournal,
  type JournalFile,
  type NewJournalRecord,
} from '../../src/state/index.js';
import { SignrunError } from '../../src/errors/signrun-error.js';
import { spawnStateScript, waitForLine } from './child.js';
import { Changes } from '../helpers/barrier.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signrun-journal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const intent = (id: string): NewJournalRecord => ({
  kind: 'envelope',
  id,
  step: 'create-intent',
  digest: 'sha256:aa',
  transactionId: 'sr-1',
});
const created = (id: string, envelopeId: string): NewJournalRecord => ({
  kind: 'envelope',
  id,
  step: 'created',
  envelopeId,
  digest: 'sha256:aa',
});

/**
 * The real journal file, wrapped: `onWrite` sees each write's text before it
 * is appended; `beforeSync` runs before each fdatasync (and may hold it),
 * `afterSync` after it.
 */
function wrappedFile(hooks: {
  onWrite: (text: string) => void;
  beforeSync?: () => Promise<void> | void;
  afterSync?: () => void;
}): (path: string) => Promise<JournalFile> {
  return async (path) => {
    const real = await (await import('node:fs/promises')).open(path, 'a');
    return {
      write: async (text) => {
        hooks.onWrite(text);
        await real.appendFile(text);
      },
      sync: async () => {
        await hooks.beforeSync?.();
        await real.datasync();
        hooks.afterSync?.();
      },
      close: () => real.close(),
    };
  };
}

describe('journal', () => {
  it('reads back what was appended, in order, with version and time filled in', async () => {
    const { journal, previous } = await openJournal(dir, { now: () => Date.parse('2026-11-20T10:00:00Z') });
    expect(previous.records).toEqual([]);
    await journal.append(intent('job/a'));
    await journal.append(created('job/a', 'env-1'));
    await journal.append({
      kind: 'envelope',
      id: 'job/a',
      step: 'document',
      documentId: '1',
      sha256: 'ab'.repeat(32),
      path: 'job/a/1.pdf',
      size: 10,
    });
    await journal.append({ kind: 'account', id: 'job/acme', step: 'created', accountId: 'acc-1' });
    await journal.close();
    const read = await readJournal(dir);
    expect(read.skipped).toEqual([]);
    expect(read.records.map((r) => r.step)).toEqual(['create-intent', 'created', 'document', 'created']);
    expect(read.records[0]).toMatchObject({ v: 1, at: '2026-11-20T10:00:00.000Z', id: 'job/a' });
  });

  it('a missing journal reads as empty', async () => {
    expect(await readJournal(join(dir, 'nothing-here'))).toMatchObject({ records: [], skipped: [] });
  });

  it('tolerates a torn last line, reports it, and cuts it off before appending again', async () => {
    const first = await openJournal(dir);
    await first.journal.append(intent('job/a'));
    await first.journal.append(created('job/a', 'env-1'));
    await first.journal.close();
    // A crash in the middle of the third write:
    await appendFile(
      join(dir, journalFileName),
      '{"v":1,"at":"2026-11-20T10:00:00.000Z","kind":"envelope","id":"job/b","st',
    );

    const read = await readJournal(dir);
    expect(read.records).toHaveLength(2);
    expect(read.skipped.map((x) => [x.line, x.reason])).toEqual([[3, 'torn']]);
    expect(read.skipped[0]!.bytes).toBeGreaterThan(0);

    const second = await openJournal(dir);
    expect(second.repairedBytes).toBeGreaterThan(0);
    expect(second.previous.records).toHaveLength(2);
    await second.journal.append(intent('job/b'));
    await second.journal.close();
    const after = await readJournal(dir);
    expect(after.skipped).toEqual([]);
    expect(after.records.map((r) => r.id)).toEqual(['job/a', 'job/a', 'job/b']);
  });

  it('keeps a whole last record that only lost its newline, and appends after it on a new line', async () => {
    const line = JSON.stringify({
      v: 1,
      at: '2026-11-20T10:00:00.000Z',
      kind: 'envelope',
      id: 'job/a',
      step: 'created',
      envelopeId: 'env-1',
      digest: 'sha256:aa',
    });
    await writeFile(join(dir, journalFileName), line);
    const opened = await openJournal(dir);
    expect(opened.repairedBytes).toBe(0);
    expect(opened.previous.records).toHaveLength(1);
    await opened.journal.append(created('job/b', 'env-2'));
    await opened.journal.close();
    const read = await readJournal(dir);
    expect(read.skipped).toEqual([]);
    expect(read.records.map((r) => r.id)).toEqual(['job/a', 'job/b']);
  });

  it('skips and reports damaged lines in the middle instead of failing', async () => {
    const good = (id: string) => JSON.stringify({ v: 1, at: 'x', kind: 'envelope', id, step: 'done' });
    await writeFile(
      join(dir, journalFileName),
      [good('j/1'), 'garbage{', '{"v":1,"kind":"envelope","step":"nope"}', good('j/2'), ''].join('\n'),
    );
    const read = await readJournal(dir);
    expect(read.records.map((r) => r.id)).toEqual(['j/1', 'j/2']);
    expect(read.skipped.map((s) => [s.line, s.reason])).toEqual([
      [2, 'invalid-json'],
      [3, 'not-a-record'],
    ]);
  });

  it('resolves an append only after the record is written and then fsynced (the API contract)', async () => {
    const events: string[] = [];
    let releaseSync: () => void = () => {};
    const changes = new Changes();
    const { journal } = await openJournal(dir, {
      openFile: wrappedFile({
        onWrite: (text) => events.push(`write ${(JSON.parse(text) as { step: string }).step}`),
        beforeSync: async () => {
          events.push('sync:start');
          changes.changed();
          await new Promise<void>((resolve) => (releaseSync = resolve));
        },
        afterSync: () => events.push('sync:end'),
      }),
    });
    let resolved = false;
    const first = journal.append(intent('job/a')).then(() => {
      resolved = true;
      events.push('resolved create-intent');
    });
    await changes.until(() => events.includes('sync:start'));
    const second = journal.append(created('job/a', 'env-1')).then(() => events.push('resolved created'));
    await everythingRunnable();
    // Written but not yet synced: the caller must not have been told "done".
    expect(resolved).toBe(false);
    expect(events).toEqual(['write create-intent', 'sync:start']);
    releaseSync();
    await changes.until(() => events.filter((e) => e === 'sync:start').length === 2);
    releaseSync();
    await Promise.all([first, second]);
    // The next batch may be written before the first caller's continuation
    // runs; what matters is that each resolves only after its own fsync.
    expect(events).toEqual([
      'write create-intent',
      'sync:start',
      'sync:end',
      'write created',
      'resolved create-intent',
      'sync:start',
      'sync:end',
      'resolved created',
    ]);
    await journal.close();
  });

  it('commits appends that arrive during an fsync together: one write, one fsync, call order kept', async () => {
    const writes: string[] = [];
    const changes = new Changes();
    let syncs = 0;
    let releaseSync: () => void = () => {};
    const { journal } = await openJournal(dir, {
      openFile: wrappedFile({
        onWrite: (text) => writes.push(text),
        beforeSync: async () => {
          syncs += 1;
          changes.changed();
          await new Promise<void>((resolve) => (releaseSync = resolve));
        },
      }),
    });
    const resolved: string[] = [];
    const first = journal.append(intent('job/a')).then(() => resolved.push('job/a'));
    await changes.until(() => syncs === 1);
    // Three more while the first fsync is held.
    const rest = ['job/b', 'job/c', 'job/d'].map((id) => journal.append(intent(id)).then(() => resolved.push(id)));
    await everythingRunnable();
    expect(writes).toHaveLength(1);
    expect(resolved).toEqual([]);
    releaseSync();
    await first;
    await changes.until(() => syncs === 2);
    expect(writes).toHaveLength(2);
    expect(
      writes[1]!
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(['job/b', 'job/c', 'job/d']);
    // Written, not yet synced: none of the three is acknowledged.
    expect(resolved).toEqual(['job/a']);
    releaseSync();
    await Promise.all(rest);
    expect(resolved).toEqual(['job/a', 'job/b', 'job/c', 'job/d']);
    expect(syncs).toBe(2);
    await journal.close();
    expect((await readJournal(dir)).records.map((r) => r.id)).toEqual(['job/a', 'job/b', 'job/c', 'job/d']);
  });

  it('writes the records appended in one turn of the event loop together: one write, one sync', async () => {
    const writes: string[] = [];
    let syncs = 0;
    const { journal } = await openJournal(dir, {
      openFile: wrappedFile({ onWrite: (text) => writes.push(text), beforeSync: () => void (syncs += 1) }),
    });
    // As answers that came in at once append their steps: one after the other, in the same turn.
    await Promise.all(['job/a', 'job/b', 'job/c'].map((id) => journal.append(intent(id))));
    expect(writes).toHaveLength(1);
    expect(syncs).toBe(1);
    expect(
      writes[0]!
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id: string }).id),
    ).toEqual(['job/a', 'job/b', 'job/c']);
    await journal.close();
  });

  it('opens the real journal with O_DSYNC: each write is on the disk when it returns, no fdatasync after it', async () => {
    const { journal } = await openJournal(dir);
    await journal.append(intent('job/a'));
    const path = join(dir, journalFileName);
    // The journal's descriptor, found by the file it names; its flags as the kernel holds them (octal).
    const fds = await readdir('/proc/self/fd');
    const links = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
    const fd = fds[links.indexOf(path)];
    expect(fd).toBeDefined();
    const flags = Number.parseInt(/^flags:\s+(\d+)/m.exec(await readFile(`/proc/self/fdinfo/${fd}`, 'utf8'))![1]!, 8);
    expect(flags & constants.O_DSYNC).toBe(constants.O_DSYNC);
    expect(flags & constants.O_APPEND).toBe(constants.O_APPEND);
    await journal.close();
  });

  it('rejects with SR_OUTPUT_WRITE when the disk refuses, and keeps refusing', async () => {
    const { journal } = await openJournal(dir, {
      openFile: async () => ({
        write: async () => {
          throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
        },
        sync: async () => {},
        close: async () => {},
      }),
    });
    await expect(journal.append(intent('job/a'))).rejects.toMatchObject({ code: 'SR_OUTPUT_WRITE' });
    const again = await journal.append(intent('job/b')).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(SignrunError);
    expect((again as SignrunError).code).toBe('SR_OUTPUT_WRITE');
  });

  it('serialises concurrent appends into whole lines', async () => {
    const { journal } = await openJournal(dir);
    await Promise.all(Array.from({ length: 200 }, (_, i) => journal.append(created(`job/${i}`, `env-${i}`))));
    await journal.close();
    const read = await readJournal(dir);
    expect(read.skipped).toEqual([]);
    expect(new Set(read.records.map((r) => r.id)).size).toBe(200);
  });

  it('keeps every acknowledged record when the writing process is killed with SIGKILL', async () => {
    const lines: string[] = [];
    const child = spawnStateScript(
      `const { journal } = await STATE.openJournal(${JSON.stringify(dir)});
       for (let i = 0; ; i++) {
         await journal.append({ kind: 'envelope', id: 'job/' + i, step: 'created', envelopeId: 'env-' + i, digest: 'sha256:aa' });
         process.stdout.write('acked ' + i + '\\n');
       }`,
      (line) => lines.push(line),
    );
    await waitForLine(lines, (l) => l === 'acked 40', 30_000);
    child.kill('SIGKILL');
    const { signal } = await child.exited;
    expect(signal).toBe('SIGKILL');
    const acked = lines.filter((l) => l.startsWith('acked ')).map((l) => `job/${l.slice(6)}`);
    const read = await readJournal(dir);
    const recorded = new Set(read.records.map((r) => r.id));
    for (const id of acked) expect(recorded.has(id), id).toBe(true);
    // At most the one write in flight can be torn.
    expect(read.skipped.length).toBeLessThanOrEqual(1);
    // And a new run continues the same journal cleanly.
    const reopened = await openJournal(dir);
    await reopened.journal.append(intent('job/after'));
    await reopened.journal.close();
    expect((await readJournal(dir)).skipped).toEqual([]);
    expect((await readFile(join(dir, journalFileName), 'utf8')).endsWith('\n')).toBe(true);
  });
});

describe('journalProgress', () => {
  it('folds the records into what is done per envelope and account', () => {
    const at = '2026-11-20T10:00:00.000Z';
    const progress = journalProgress([
      { v: 1, at, kind: 'envelope', id: 'j/a', step: 'create-intent', digest: 'd1', transactionId: 't' },
      { v: 1, at, kind: 'envelope', id: 'j/b', step: 'create-intent', digest: 'd2', transactionId: 't2' },
      { v: 1, at, kind: 'envelope', id: 'j/a', step: 'created', envelopeId: 'e1', digest: 'd1' },
      { v: 1, at, kind: 'envelope', id: 'j/a', step: 'view', recipientId: '1', expiresAt: '2026-11-20T10:05:00.000Z' },
      { v: 1, at, kind: 'envelope', id: 'j/a', step: 'document', documentId: '1', sha256: 'old', path: 'p', size: 1 },
      { v: 1, at, kind: 'envelope', id: 'j/a', step: 'document', documentId: '1', sha256: 'new', path: 'p', size: 2 },
      { v: 1, at, kind: 'envelope', id: 'j/a', step: 'done' },
      { v: 1, at, kind: 'account', id: 'j/acme', step: 'created', accountId: 'acc' },
      { v: 1, at, kind: 'account', id: 'j/old', step: 'deleted', accountId: 'acc2' },
    ]);
    const a = progress.envelopes.get('j/a')!;
    expect(a.created).toMatchObject({ envelopeId: 'e1', adopted: false });
    expect(a.documents.get('1')).toEqual({ sha256: 'new', path: 'p', size: 2 });
    expect(a.views.get('1')?.expiresAt).toBe('2026-11-20T10:05:00.000Z');
    expect(a.done).toBe(true);
    const b = progress.envelopes.get('j/b')!;
    expect(b.createIntent).toBeDefined();
    expect(b.created).toBeUndefined(); // intent without answer: look it up before creating
    expect(progress.accounts.get('j/acme')).toMatchObject({ present: true, accountId: 'acc' });
    expect(progress.accounts.get('j/old')).toMatchObject({ present: false, deleted: true });
  });
});

/**
 * Lets everything that can run now run (promise continuations, I/O already
 * done), without waiting for time to pass: what a held fsync keeps from
 * happening is then known not to have happened.
 */
function everythingRunnable(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
