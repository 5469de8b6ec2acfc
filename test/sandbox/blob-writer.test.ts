import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createBlobStore, sha256Hex, type BlobStore } from '../../src/sandbox/platform/db/blob-store.js';
import { buildSandboxApp, defaultSeedIds } from '../../src/sandbox/index.js';
import { authHeader, documentEnvelope, makePdf } from './helpers/api.js';

// A data folder's putAsync hashes and appends on the blob writer's thread
// (platform/db/blob-writer.ts), in a pack of its own. The thread is the built
// one (dist/: `npm run build` first), as `serve` runs it.
const builtScript = new URL('../../dist/sandbox/platform/db/blob-writer-worker.js', import.meta.url);
const folders: string[] = [];
const stores: BlobStore[] = [];
const apps: FastifyInstance[] = [];
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'signrun-blob-writer-'));
  folders.push(dir);
  return dir;
}
function store(dataDir: string, withThread = true): BlobStore {
  const s = createBlobStore(dataDir, withThread ? { writerScript: builtScript } : {});
  stores.push(s);
  return s;
}
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
  for (const s of stores.splice(0)) s.close();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const packsIn = (dataDir: string) => readdirSync(join(dataDir, 'blobs')).filter((n) => n.endsWith('.blobs'));
const packBytes = (dataDir: string) =>
  packsIn(dataDir).reduce((sum, name) => sum + statSync(join(dataDir, 'blobs', name)).size, 0);

describe('blob writer thread (putAsync in a data folder)', () => {
  it('writes on a pack of its own, answers the sha256, and the bytes read back here and after a reopen', async () => {
    const dir = folder();
    const first = store(dir);
    // One pack from this thread first, so that the writer's is a second one.
    const here = randomBytes(1000);
    first.put(here);
    const docs = [randomBytes(100 * 1024), randomBytes(10), randomBytes(2 * 1024 * 1024)];
    const hashes = await Promise.all(docs.map((d) => first.putAsync(d)));
    expect(hashes).toEqual(docs.map((d) => sha256Hex(d)));
    // The caller's bytes are its own still (the thread got a copy).
    expect(sha256Hex(docs[0]!)).toBe(hashes[0]);
    expect(packsIn(dir)).toHaveLength(2);
    for (const [i, d] of docs.entries()) expect(first.get(hashes[i]!).equals(d)).toBe(true);
    first.close();
    stores.splice(stores.indexOf(first), 1);
    const again = store(dir, false);
    for (const [i, d] of docs.entries()) expect(again.get(hashes[i]!).equals(d)).toBe(true);
  });

  it('writes each content once: sent again, put here before, or already in the folder when it opened', async () => {
    const dir = folder();
    const first = store(dir);
    const sent = randomBytes(50_000);
    const putHere = randomBytes(50_000);
    await first.putAsync(sent);
    first.put(putHere);
    const size = packBytes(dir);
    expect(await first.putAsync(sent)).toBe(sha256Hex(sent));
    expect(await first.putAsync(putHere)).toBe(sha256Hex(putHere));
    expect(packBytes(dir)).toBe(size);
    first.close();
    stores.splice(stores.indexOf(first), 1);
    const again = store(dir);
    expect(await again.putAsync(sent)).toBe(sha256Hex(sent));
    expect(packBytes(dir)).toBe(size);
  });

  it('fails the put (ENOENT) when the folder was removed under it, rather than writing into an unlinked pack', async () => {
    const dir = folder();
    const s = store(dir);
    await s.putAsync(randomBytes(100));
    rmSync(join(dir, 'blobs'), { recursive: true, force: true });
    await expect(s.putAsync(randomBytes(100))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes the document of a created envelope: written by the thread, read back by the API', async () => {
    const dataDir = folder();
    const app = await buildSandboxApp({ dataDir }, { blobWriterScript: builtScript });
    apps.push(app);
    const packsBefore = packsIn(dataDir);
    const pdf = await makePdf(1, 'Written by the blob writer', 20_000);
    const created = await app.inject({
      method: 'POST',
      url: `/restapi/v2.1/accounts/${defaultSeedIds.accountId}/envelopes`,
      headers: { ...authHeader(), 'content-type': 'application/json' },
      payload: { ...documentEnvelope(pdf), emailSubject: 'Blob writer', status: 'sent' },
    });
    expect(created.statusCode).toBe(201);
    const { envelopeId } = created.json<{ envelopeId: string }>();
    // A pack the main thread did not have: the writer's, holding the document's record (header + bytes).
    const writers = packsIn(dataDir).filter((name) => !packsBefore.includes(name));
    expect(writers).toHaveLength(1);
    expect(statSync(join(dataDir, 'blobs', writers[0]!)).size).toBe(40 + pdf.length);
    const read = await app.inject({
      method: 'GET',
      url: `/restapi/v2.1/accounts/${defaultSeedIds.accountId}/envelopes/${envelopeId}/documents/1`,
      headers: authHeader(),
    });
    expect(read.statusCode).toBe(200);
    expect(read.rawPayload.equals(pdf)).toBe(true);
  });
});
