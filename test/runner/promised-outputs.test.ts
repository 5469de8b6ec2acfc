import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { runCollected } from '../helpers/collected-run.js';
import { sandboxSeedAuth, sandboxSeedCredentials } from '../../src/runner/target.js';
import { makeSecret } from '../../src/secret.js';
import { readJournal } from '../../src/state/journal.js';
import type { RunEvent } from '../../src/runner/run-events.js';
import type { SigningJson } from '../../src/output/records.js';
import { accountFixture, envelopeFixture } from './fixtures.js';

/**
 * Issue 25, "signing access lost after a crash": nothing is recorded as done
 * before its output is on disk, and a re-run makes again every output the
 * journal promises that the output folder lacks. The SIGKILL version of the
 * same (10 kill points over 200 envelopes, checked file by file against the
 * journal and the service) is bench/chaos/chaos.mjs --check-promises
 * (BENCHMARKS.md); test/chaos/chaos.test.ts runs it smaller.
 */
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox.close();
});

const job = (keys: string[]) => ({
  file: '/jobs/runner-test.yaml',
  job: 'runner-test',
  envelopes: keys.map((k) => envelopeFixture(k)),
  accounts: [],
});
const target = () => ({ rootUrl: sandbox.rootUrl, sandbox: false, auth: sandboxSeedAuth() });

async function signingOf(outDir: string, key: string): Promise<SigningJson | undefined> {
  try {
    return JSON.parse(await readFile(path.join(outDir, 'runner-test', key, 'signing.json'), 'utf8')) as SigningJson;
  } catch {
    return undefined;
  }
}

describe('outputs the journal promises', () => {
  it('a view is journalled only once signing.json is on disk; the re-run makes the addresses it lacks', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-promises-'));
    const stateDir = path.join(outDir, '.signrun');
    // signing.json cannot be put in place (a folder holds its name): the addresses are made, the file is not.
    await mkdir(path.join(outDir, 'runner-test', 'blocked', 'signing.json'), { recursive: true });
    const first = await runCollected({ jobs: [job(['blocked', 'fine'])], target: target(), outDir, stateDir });
    expect(first.envelopes.map((e) => e.outcome)).toEqual(['failed', 'succeeded']);
    const steps = (await readJournal(stateDir)).records
      .filter((r) => r.id === 'runner-test/blocked')
      .map((r) => r.step);
    expect(steps).toContain('sent');
    expect(steps).not.toContain('view');

    await rm(path.join(outDir, 'runner-test', 'blocked', 'signing.json'), { recursive: true });
    const second = await runCollected({ jobs: [job(['blocked', 'fine'])], target: target(), outDir, stateDir });
    expect(second.envelopes.map((e) => e.outcome)).toEqual(['succeeded', 'succeeded']);
    expect(second.api.byOperation['createEnvelope']).toBeUndefined();
    const signing = await signingOf(outDir, 'blocked');
    expect(signing?.envelopeId).toBe(first.envelopes[0]?.envelopeId);
    expect(signing?.recipients.filter((r) => r.state === 'ready' && r.url)).toHaveLength(2);
  });

  it('signing.json, a document and the certificate removed after the run: the re-run makes them again, nothing is sent twice', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-promises-'));
    const stateDir = path.join(outDir, '.signrun');
    const jobs = () => [job(['p1', 'p2'])];
    const first = await runCollected({ jobs: jobs(), target: target(), outDir, stateDir, documents: 'at-send' });
    expect(first.envelopes.map((e) => e.outcome)).toEqual(['succeeded', 'succeeded']);
    const folder = path.join(outDir, 'runner-test', 'p1');
    const document = first.envelopes[0]!.files.find((f) => f.path.includes('/documents/'))!;
    await rm(path.join(folder, 'signing.json'));
    await rm(path.join(outDir, document.path));
    await rm(path.join(folder, 'certificate.pdf'));
    // A document cut short (another size than the journal's) is made again too.
    const other = first.envelopes[1]!.files.find((f) => f.path.includes('/documents/'))!;
    await import('node:fs/promises').then((fs) => fs.truncate(path.join(outDir, other.path), 10));

    const events: RunEvent[] = [];
    const second = await runCollected({
      jobs: jobs(),
      target: target(),
      outDir,
      stateDir,
      documents: 'at-send',
      onEvent: (e) => events.push(e),
    });
    expect(second.envelopes.map((e) => e.outcome)).toEqual(['succeeded', 'succeeded']);
    expect(second.api.byOperation['createEnvelope']).toBeUndefined();
    expect(second.api.byOperation['sendDraft']).toBeUndefined();
    expect(events.filter((e) => e.type === 'warning').map((e) => (e as { kind: string }).kind)).toContain(
      'outputs-missing',
    );
    // One document of each envelope, one certificate, two addresses: nothing else asked again.
    expect(second.api.byOperation['downloadDocument']).toBe(2);
    expect(second.api.byOperation['downloadCertificate']).toBe(1);
    expect(second.api.byOperation['createRecipientView']).toBe(2);
    expect((await signingOf(outDir, 'p1'))?.recipients.filter((r) => r.url)).toHaveLength(2);
    expect((await stat(path.join(outDir, document.path))).size).toBe(document.size);
    expect((await stat(path.join(outDir, other.path))).size).toBe(other.size);
    expect((await stat(path.join(folder, 'certificate.pdf'))).size).toBeGreaterThan(0);

    // Every promise kept now: the third run asks for nothing but the login and the plan's listing.
    const third = await runCollected({ jobs: jobs(), target: target(), outDir, stateDir, documents: 'at-send' });
    expect(Object.keys(third.api.byOperation).sort()).toEqual(['listEnvelopes', 'loginInformation']);
  });

  it('account.json removed after the account was created: the re-run writes it again from the journal', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'signrun-promises-'));
    const stateDir = path.join(outDir, '.signrun');
    const s = sandboxSeedCredentials;
    const options = {
      jobs: [{ ...job([]), accounts: [accountFixture('kept')] }],
      target: target(),
      outDir,
      stateDir,
      distributor: { code: s.distributorCode, password: makeSecret(s.distributorPassword) },
      integratorKey: s.integratorKey,
    };
    const first = await runCollected(options);
    expect(first.accounts[0]?.outcome).toBe('created');
    const file = path.join(outDir, 'runner-test', 'kept', 'account.json');
    const written = JSON.parse(await readFile(file, 'utf8')) as { accountId: string };
    await rm(file);
    const second = await runCollected(options);
    expect(second.accounts[0]?.outcome).toBe('up-to-date');
    expect(second.api.byOperation['createAccount']).toBeUndefined();
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ accountId: written.accountId, state: 'present' });
  });
});
