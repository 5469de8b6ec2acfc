import { mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EnvelopeRecipients } from '../../src/envelope/index.js';
import {
  connectFormDataFolderName,
  connectFormDataIds,
  connectFormDataOf,
  readConnectFormData,
  removeConnectFormData,
  writeConnectFormData,
} from '../../src/sync/connect-form-data.js';
import { formDataOf } from '../../src/sync/form-data.js';

// What `signrun listen` keeps of a Connect message (issue 24 item 2): the
// form data of a completed envelope whose recipients carry their tabs, as
// formDataOf makes it of the single-envelope read; nothing of any other.

const envelopeId = '3f2a1c9e-0b7d-4e11-9a55-6c2d8e4f7a10';
const recipients: EnvelopeRecipients = {
  signers: [
    {
      recipientId: '1',
      name: 'Alice Martin',
      email: 'alice@example.com',
      roleName: 'employee',
      tabs: {
        signHereTabs: [{ tabLabel: 'Sign', documentId: '1', pageNumber: '1' }],
        textTabs: [{ tabLabel: 'Preferred name', value: 'Amy' }],
        listTabs: [
          {
            tabLabel: 'Office',
            value: 'Lisbon',
            listItems: [
              { text: 'Lisbon', value: 'LIS', selected: 'true' },
              { text: 'Boston', value: 'BOS', selected: 'false' },
            ],
          },
        ],
      },
    },
  ],
  carbonCopies: [{ recipientId: '2', name: 'Acme HR', email: 'hr@example.com' }],
};
const message = (status: string, r: unknown = recipients, id = envelopeId) => ({
  event: 'envelope-completed',
  data: { envelopeId: id, envelopeSummary: { status, recipients: r } },
});
const at = new Date('2026-11-26T10:00:00.000Z');

describe('connectFormDataOf', () => {
  it('a completed envelope with tabs: what formDataOf makes of the same recipients', () => {
    const kept = connectFormDataOf(message('completed'), at);
    expect(kept).toEqual(formDataOf(envelopeId, 'completed', at.toISOString(), recipients));
    expect(kept!.recipients[0]!.tabs).toContainEqual({ label: 'Preferred name', kind: 'text', value: 'Amy' });
    expect(kept!.recipients[0]!.tabs).toContainEqual({ label: 'Office', kind: 'list', value: 'LIS', text: 'Lisbon' });
  });

  it('nothing of an envelope not completed, of recipients without tabs, of an id that is not one', () => {
    expect(connectFormDataOf(message('sent'), at)).toBeUndefined();
    expect(connectFormDataOf(message('delivered'), at)).toBeUndefined();
    const withoutTabs = {
      signers: [{ recipientId: '1', name: 'Alice Martin' }],
      carbonCopies: recipients.carbonCopies,
    };
    expect(connectFormDataOf(message('completed', withoutTabs), at)).toBeUndefined();
    expect(connectFormDataOf(message('completed', null), at)).toBeUndefined();
    expect(connectFormDataOf({ data: { envelopeId, envelopeSummary: { status: 'completed' } } }, at)).toBeUndefined();
    expect(connectFormDataOf(message('completed', recipients, '../../evil'), at)).toBeUndefined();
    expect(connectFormDataOf({ event: 'envelope-completed' }, at)).toBeUndefined();
    expect(connectFormDataOf('completed', at)).toBeUndefined();
  });
});

describe('the kept file', () => {
  it('written whole, 0600 in a 0700 folder; read back only when it is what listen writes; removed', async () => {
    const state = await mkdtemp(path.join(tmpdir(), 'signrun-connect-kept-'));
    const kept = connectFormDataOf(message('completed', recipients, envelopeId.toUpperCase()), at)!;
    await writeConnectFormData(state, kept);
    const file = path.join(state, connectFormDataFolderName, `${envelopeId}.json`);
    expect(((await stat(file)).mode & 0o777).toString(8)).toBe('600');
    expect(((await stat(path.dirname(file))).mode & 0o777).toString(8)).toBe('700');
    // No temp file left beside it.
    expect(await readdir(path.dirname(file))).toEqual([`${envelopeId}.json`]);
    expect([...(await connectFormDataIds(state))]).toEqual([envelopeId]);
    expect(await readConnectFormData(state, envelopeId.toUpperCase())).toEqual(kept);

    // Another envelope's data under this name, or a torn file: not used (sync reads the service instead).
    await writeFile(file, JSON.stringify({ ...kept, envelopeId: 'another' }));
    expect(await readConnectFormData(state, envelopeId)).toBeUndefined();
    await writeFile(file, '{"envelopeId":');
    expect(await readConnectFormData(state, envelopeId)).toBeUndefined();
    expect(await readConnectFormData(state, '../x')).toBeUndefined();

    await removeConnectFormData(state, envelopeId);
    expect(await connectFormDataIds(state)).toEqual(new Set());
    expect(await connectFormDataIds(path.join(state, 'nowhere'))).toEqual(new Set());
  });
});
