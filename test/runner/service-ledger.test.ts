import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { EsignatureClient, type AccountClient } from '../../src/client/esignature-client.js';
import { sandboxSeedAuth } from '../../src/runner/target.js';
import { ServiceLedger } from '../../src/runner/envelopes/service-ledger.js';

/**
 * The service's listing as the plan and the confirm step read it, against the
 * real sandbox: which envelope of an identity counts, and the keyset paging
 * (a page size of 2 makes every listing several pages).
 */
let sandbox: RunningSandbox;
let client: EsignatureClient;
let account: AccountClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  client = EsignatureClient.create({ rootUrl: sandbox.rootUrl, auth: sandboxSeedAuth() });
  account = await client.login();
});
afterAll(async () => {
  client.close();
  await sandbox.close();
});

const pdf = readFileSync(new URL('../../examples/docs/offer-letter.pdf', import.meta.url)).toString('base64');

/** A draft carrying an identity of a job, with a document and a signer so that it can be sent. */
async function draft(job: string, identity: string, digest = 'sha256:x'): Promise<string> {
  const { envelopeId } = await account.createEnvelope({
    emailSubject: 'Draft',
    status: 'created',
    documents: [{ documentId: '1', name: 'offer-letter.pdf', fileExtension: 'pdf', documentBase64: pdf }],
    recipients: { signers: [{ recipientId: '1', name: 'Ada', email: 'ada@example.com' }] },
    customFields: {
      textCustomFields: [
        { name: 'signrun', value: identity, show: 'false' },
        { name: 'signrunJob', value: job, show: 'false' },
        { name: 'signrunDigest', value: digest, show: 'false' },
      ],
    },
  });
  return envelopeId;
}

describe('ServiceLedger', () => {
  it('the earliest draft counts; the later ones are losers; a deleted draft is gone', async () => {
    const ledger = new ServiceLedger(account, { pageSize: 2 });
    const first = await draft('ledger-a', 'ledger-a/k');
    const second = await draft('ledger-a', 'ledger-a/k');
    const third = await draft('ledger-a', 'ledger-a/k');
    await draft('ledger-a', 'ledger-a/other');
    await ledger.load('ledger-a');
    expect(ledger.calls).toBeGreaterThan(1); // paged
    const winner = ledger.winnerOf('ledger-a/k');
    expect(winner?.envelopeId).toBe(first);
    expect(
      ledger
        .losersOf('ledger-a/k', winner!)
        .map((e) => e.envelopeId)
        .sort(),
    ).toEqual([second, third].sort());

    await account.deleteDrafts([first]);
    await ledger.refresh('ledger-a');
    expect(ledger.winnerOf('ledger-a/k')?.envelopeId).toBe(second);
  });

  it('a sent envelope counts even when a draft of the same identity is older', async () => {
    const ledger = new ServiceLedger(account, { pageSize: 2 });
    const older = await draft('ledger-b', 'ledger-b/k');
    const sent = await draft('ledger-b', 'ledger-b/k');
    await account.sendDraft(sent);
    await ledger.load('ledger-b');
    expect(ledger.winnerOf('ledger-b/k')?.envelopeId).toBe(sent);
    expect(ledger.losersOf('ledger-b/k', ledger.winnerOf('ledger-b/k')!).map((e) => e.envelopeId)).toEqual([older]);
  });

  it('callers of the same moment share one listing, and each is answered by a listing started after it asked', async () => {
    const ledger = new ServiceLedger(account);
    await ledger.load('ledger-c');
    const before = ledger.calls;
    const made = await Promise.all([draft('ledger-c', 'ledger-c/1'), draft('ledger-c', 'ledger-c/2')]);
    await Promise.all([ledger.refresh('ledger-c'), ledger.refresh('ledger-c'), ledger.refresh('ledger-c')]);
    expect(ledger.calls - before).toBe(1);
    expect(ledger.winnerOf('ledger-c/1')?.envelopeId).toBe(made[0]);
    expect(ledger.winnerOf('ledger-c/2')?.envelopeId).toBe(made[1]);
  });

  it('gather: callers arriving one after another, while a listing runs, share the next one once enough have come', async () => {
    // A minute of patience: the test ends in milliseconds only if the third caller starts the listing.
    const ledger = new ServiceLedger(account, { gather: { callers: 3, ms: 60_000 } });
    await Promise.all([ledger.refresh('ledger-d'), ledger.refresh('ledger-d'), ledger.refresh('ledger-d')]);
    const before = ledger.calls;
    const first = ledger.refresh('ledger-d');
    const made = await draft('ledger-d', 'ledger-d/1');
    const second = ledger.refresh('ledger-d');
    const third = ledger.refresh('ledger-d');
    await Promise.all([first, second, third]);
    expect(ledger.calls - before).toBe(1);
    // The listing started after the last caller asked: it shows the draft made before then.
    expect(ledger.winnerOf('ledger-d/1')?.envelopeId).toBe(made);
  });

  it('gather: a caller alone waits no longer than the time given', async () => {
    const ledger = new ServiceLedger(account, { gather: { callers: 50, ms: 20 } });
    await ledger.load('ledger-e');
    const made = await draft('ledger-e', 'ledger-e/1');
    await ledger.refresh('ledger-e');
    expect(ledger.winnerOf('ledger-e/1')?.envelopeId).toBe(made);
  });
  it('gather: the first listing (load) is not gathered — a run or plan starts without waiting for callers', async () => {
    // A minute of patience: load returns in milliseconds only if it does not wait to gather callers.
    const ledger = new ServiceLedger(account, { gather: { callers: 50, ms: 60_000 } });
    const made = await draft('ledger-g', 'ledger-g/1');
    await ledger.load('ledger-g');
    expect(ledger.calls).toBe(1);
    expect(ledger.winnerOf('ledger-g/1')?.envelopeId).toBe(made);
  }, 20_000);

  it('gather: once every draft the run expects has asked, the listing starts without waiting out the time', async () => {
    // A minute of patience: the test ends in milliseconds only if the second and last draft starts the listing.
    const ledger = new ServiceLedger(account, { gather: { callers: 50, ms: 60_000 } });
    await ledger.load('ledger-h');
    ledger.expectDrafts('ledger-h', 2);
    const before = ledger.calls;
    const first = await draft('ledger-h', 'ledger-h/1');
    const asked = ledger.refresh('ledger-h');
    const second = await draft('ledger-h', 'ledger-h/2');
    await Promise.all([asked, ledger.refresh('ledger-h')]);
    expect(ledger.calls - before).toBe(1);
    expect(ledger.winnerOf('ledger-h/1')?.envelopeId).toBe(first);
    expect(ledger.winnerOf('ledger-h/2')?.envelopeId).toBe(second);
  }, 20_000);

  it('gather: a refresh asked not to gather starts at once, and still shows what was made before it', async () => {
    // A minute of patience: the test ends in milliseconds only if the refresh does not wait to gather callers.
    const ledger = new ServiceLedger(account, { gather: { callers: 50, ms: 60_000 } });
    await ledger.load('ledger-i');
    const before = ledger.calls;
    const made = await draft('ledger-i', 'ledger-i/1');
    await ledger.refresh('ledger-i', { gather: false });
    expect(ledger.calls - before).toBe(1);
    expect(ledger.winnerOf('ledger-i/1')?.envelopeId).toBe(made);
  }, 20_000);

  it('settle: an identity the run is done with is let go, and a later listing does not bring it back', async () => {
    const ledger = new ServiceLedger(account, { pageSize: 2 });
    const done = await draft('ledger-s', 'ledger-s/done');
    const other = await draft('ledger-s', 'ledger-s/other');
    await ledger.load('ledger-s');
    expect(ledger.winnerOf('ledger-s/done')?.envelopeId).toBe(done);
    ledger.settle('ledger-s/done');
    expect(ledger.entries('ledger-s/done')).toEqual([]);
    // Its send changes its status: the next listing shows it again, and the ledger leaves it out.
    await account.sendDraft(done);
    await account.sendDraft(other);
    await ledger.refresh('ledger-s');
    expect(ledger.entries('ledger-s/done')).toEqual([]);
    expect(ledger.winnerOf('ledger-s/other')).toMatchObject({ envelopeId: other, status: 'sent' });
  });
});
