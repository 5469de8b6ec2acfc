import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { authHeader, call, documentEnvelope, expectApiError, login, makePdf } from './helpers/api.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';

// The recycle bin (Folders in the v2.1 Swagger) as DocuSign's eg045
// (code-examples-node, lib/eSignature/examples/deleteRestoreEnvelope.js)
// drives it: a sent envelope moved to `recyclebin`, the folders listed, the
// one named by the person found by name (getFolderIdByName), the envelope
// moved back there with `fromFolderId: recyclebin`. Every JSON answer is
// checked against the Swagger by `call`.

let sandbox: RunningSandbox;
let base: string;
const auth = authHeader();
beforeAll(async () => {
  sandbox = await injectedSandbox();
  const { accountId } = await login(sandbox.rootUrl);
  base = `${sandbox.origin}/restapi/v2.1/accounts/${accountId}`;
});
afterAll(async () => sandbox.close());

/** The example's getFolderIdByName: a depth-first search of the folder tree by name, any case. */
function getFolderIdByName(
  folders: { name: string; folderId: string; folders?: unknown[] }[],
  folderName: string,
): string | null {
  for (const folder of folders) {
    if (folder.name.toLowerCase() === folderName.toLowerCase()) return folder.folderId;
    if (folder.folders?.length) {
      const id = getFolderIdByName(folder.folders as typeof folders, folderName);
      if (id) return id;
    }
  }
  return null;
}

async function sentEnvelope(): Promise<string> {
  const r = await call(`${base}/envelopes`, { method: 'POST', headers: auth, body: documentEnvelope(await makePdf()) });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json.envelopeId as string;
}

const idsIn = async (folderId: string) =>
  ((await call(`${base}/folders/${folderId}`, { headers: auth })).json.envelopes as { envelopeId: string }[]).map(
    (e) => e.envelopeId,
  );

describe('recycle bin', () => {
  it("deletes a sent envelope (voided, as DocuSign does), lists it in the bin, and restores it to the folder named 'Sent Items'", async () => {
    const envelopeId = await sentEnvelope();
    // deleteEnvelope: FoldersRequest { envelopeIds } to the deleteFolderId 'recyclebin'.
    const deleted = await call(`${base}/folders/recyclebin`, {
      method: 'PUT',
      headers: auth,
      body: { envelopeIds: [envelopeId] },
    });
    expect(deleted.status, JSON.stringify(deleted.json)).toBe(200);
    const envelope = await call(`${base}/envelopes/${envelopeId}`, { headers: auth });
    expect(envelope.json.status).toBe('voided');
    expect(await idsIn('recyclebin')).toContain(envelopeId);

    // getFolders, then the folder the person typed, found by name.
    const folders = await call(`${base}/folders`, { headers: auth });
    expect(folders.status).toBe(200);
    const folderId = getFolderIdByName(folders.json.folders, 'sent items');
    expect(folderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(folders.json.folders.find((f: { type: string }) => f.type === 'recyclebin').itemCount).not.toBe('0');

    // moveEnvelopeToFolder: FoldersRequest { envelopeIds, fromFolderId: 'recyclebin' }.
    const restored = await call(`${base}/folders/${folderId}`, {
      method: 'PUT',
      headers: auth,
      body: { envelopeIds: [envelopeId], fromFolderId: 'recyclebin' },
    });
    expect(restored.status, JSON.stringify(restored.json)).toBe(200);
    expect(await idsIn(folderId!)).toContain(envelopeId);
    expect(await idsIn('recyclebin')).not.toContain(envelopeId);
  });

  it('moves a completed or voided envelope to the bin without changing it; a draft is discarded', async () => {
    const envelopeId = await sentEnvelope();
    await call(`${base}/envelopes/${envelopeId}`, {
      method: 'PUT',
      headers: auth,
      body: { status: 'voided', voidedReason: 'test' },
    });
    await call(`${base}/folders/recyclebin`, { method: 'PUT', headers: auth, body: { envelopeIds: [envelopeId] } });
    const voided = await call(`${base}/envelopes/${envelopeId}`, { headers: auth });
    expect(voided.json.voidedReason).toBe('test');

    const draft = await call(`${base}/envelopes`, {
      method: 'POST',
      headers: auth,
      body: documentEnvelope(await makePdf(), { status: 'created' }),
    });
    expect(await idsIn('draft')).toContain(draft.json.envelopeId);
    await call(`${base}/folders/recyclebin`, {
      method: 'PUT',
      headers: auth,
      body: { envelopeIds: [draft.json.envelopeId] },
    });
    expect(await idsIn('recyclebin')).toContain(draft.json.envelopeId);
    expect(await idsIn('draft')).not.toContain(draft.json.envelopeId);
  });

  it('refuses an unknown folder, an unknown envelope (moving nothing), and a fromFolderId the envelope is not in', async () => {
    const envelopeId = await sentEnvelope();
    expectApiError(await call(`${base}/folders/nowhere`, { headers: auth }), 400, 'FOLDER_NOT_FOUND');
    expectApiError(
      await call(`${base}/folders/recyclebin`, {
        method: 'PUT',
        headers: auth,
        body: { envelopeIds: [envelopeId, crypto.randomUUID()] },
      }),
      400,
      'ENVELOPE_DOES_NOT_EXIST',
    );
    expect(await idsIn('recyclebin')).not.toContain(envelopeId);
    expectApiError(
      await call(`${base}/folders/sentitems`, {
        method: 'PUT',
        headers: auth,
        body: { envelopeIds: [envelopeId], fromFolderId: 'recyclebin' },
      }),
      400,
      'INVALID_REQUEST_PARAMETER',
    );
  });
});
