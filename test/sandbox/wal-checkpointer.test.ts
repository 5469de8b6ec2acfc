import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildSandboxApp, defaultSeedIds } from '../../src/sandbox/index.js';
import type { WalCheckpointerOptions } from '../../src/sandbox/platform/db/wal-checkpointer.js';
import { authHeader, documentEnvelope, makePdf } from './helpers/api.js';
import { whenEmitted } from '../helpers/barrier.js';

// A data folder's WAL checkpoints run on a thread with its own connection
// (platform/db/wal-checkpointer.ts), so the event loop never stops for the
// copy and its fsyncs. The thread is the built one (dist/: `npm run build`
// first), as `serve` runs it.
const builtScript = new URL('../../dist/sandbox/platform/db/wal-checkpoint-worker.js', import.meta.url);
const apps: FastifyInstance[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function sandboxOnDisk(options: Omit<WalCheckpointerOptions, 'script'>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'signrun-wal-'));
  dirs.push(dataDir);
  const app = await buildSandboxApp({ dataDir }, { walCheckpointer: { script: builtScript, ...options } });
  apps.push(app);
  const checkpointer = app.sandbox.walCheckpointer;
  if (checkpointer === undefined) throw new Error(`no built checkpointer at ${builtScript.pathname}: npm run build`);
  expect(await checkpointer.ready).toBe(true);
  return { app, dataDir, checkpointer };
}

async function create(app: FastifyInstance, subject: string): Promise<string> {
  const answer = await app.inject({
    method: 'POST',
    url: `/restapi/v2.1/accounts/${defaultSeedIds.accountId}/envelopes`,
    headers: { ...authHeader(), 'content-type': 'application/json' },
    payload: { ...documentEnvelope(await makePdf(1)), emailSubject: subject, status: 'sent' },
  });
  expect(answer.statusCode).toBe(201);
  return answer.json<{ envelopeId: string }>().envelopeId;
}

describe('the WAL checkpointer thread', () => {
  it('takes the checkpoints off the main connection and copies committed pages into the database file', async () => {
    const { app, dataDir, checkpointer } = await sandboxOnDisk({ intervalMs: 5, framesPerCheckpoint: 1 });
    // The main connection no longer checkpoints itself (SQLite's default is every 1,000 pages).
    expect(app.sandbox.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const envelopeId = await create(app, 'Copied by the thread');
    // The database file alone, without its WAL, comes to hold the envelope: the thread copied the commit into it.
    const copyDir = mkdtempSync(join(tmpdir(), 'signrun-wal-copy-'));
    dirs.push(copyDir);
    // Undefined while the file does not hold it yet, or reads torn: copied while a checkpoint was writing it.
    const subjectInFileAlone = () => {
      copyFileSync(join(dataDir, 'sandbox.sqlite'), join(copyDir, 'sandbox.sqlite'));
      const copy = new Database(join(copyDir, 'sandbox.sqlite'), { readonly: true });
      try {
        return copy.prepare('SELECT email_subject AS s FROM envelopes WHERE id = ?').get(envelopeId);
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CORRUPT') return undefined;
        throw error;
      } finally {
        copy.close();
      }
    };
    // Looked at again after each checkpoint the thread counts (it wakes this wait), not polled: the creation
    // committed before its 201, so a checkpoint begun after it copies it (one under way may have begun before).
    // The count is taken before each look, so a checkpoint that ends after it wakes the wait.
    let seen = checkpointer.stats().checkpoints;
    let inFile = subjectInFileAlone();
    while (inFile === undefined) {
      await checkpointer.until('checkpoints', seen + 1);
      seen = checkpointer.stats().checkpoints;
      inFile = subjectInFileAlone();
    }
    expect(inFile).toEqual({ s: 'Copied by the thread' });
    expect(checkpointer.stats().checkpoints).toBeGreaterThan(0);
  });

  it('gives the checkpoints back to the main connection while the WAL is past its limit', async () => {
    const { app, checkpointer } = await sandboxOnDisk({ intervalMs: 5, framesPerCheckpoint: 1, walFramesLimit: 0 });
    const handedBack = whenEmitted(
      checkpointer.events,
      'autocheckpoint',
      () => app.sandbox.db.pragma('wal_autocheckpoint', { simple: true }) === 1000,
    );
    await create(app, 'Past the limit');
    await checkpointer.until('reliefs', 1);
    // The main connection checkpoints itself again (SQLite's 1,000 pages) once the thread's word has reached it.
    await handedBack;
    expect(checkpointer.stats().reliefs).toBeGreaterThanOrEqual(1);
  });

  it('checkpoints per 1,000 frames waiting, read from the WAL index, not on every look', async () => {
    const { app, checkpointer } = await sandboxOnDisk({ intervalMs: 5 });
    const looks = (more: number) => checkpointer.until('indexReads', checkpointer.stats().indexReads + more);
    await looks(3);
    const before = checkpointer.stats().checkpoints;
    await create(app, 'A few frames');
    await looks(5);
    // One creation writes a few tens of frames: no checkpoint yet (the thread read the index five times).
    expect(checkpointer.stats().checkpoints).toBe(before);
  });

  it('leaves no WAL behind once closed, and the folder opens again with its envelopes', async () => {
    const { app, dataDir, checkpointer } = await sandboxOnDisk({ intervalMs: 5, framesPerCheckpoint: 1 });
    const envelopeId = await create(app, 'Kept');
    apps.splice(apps.indexOf(app), 1);
    let threadEnded = false;
    void checkpointer.closed.then(() => (threadEnded = true));
    await app.close();
    // app.close() waits for the thread's connection to close (the thread's end reaches this one as an
    // event, after close() would have returned without the wait): the last connection to close removes the WAL.
    expect(threadEnded).toBe(true);
    expect(existsSync(join(dataDir, 'sandbox.sqlite-wal'))).toBe(false);
    const again = await buildSandboxApp({ dataDir });
    apps.push(again);
    const read = await again.inject({
      method: 'GET',
      url: `/restapi/v2.1/accounts/${defaultSeedIds.accountId}/envelopes/${envelopeId}`,
      headers: authHeader(),
    });
    expect(read.statusCode).toBe(200);
  });
});
