import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, cp, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { EnvelopeRecord, FormDataJson, SigningRecord } from '../../src/output/records.js';
import { binPath, repoRoot, runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, tempDir } from '../cli/run-helpers.js';
import { openSigningLink, postForm } from '../signing/sign-over-http.js';
import { sandboxApi } from '../signing/sandbox-api.js';

// Issue 24 item 2, form data through Connect: the real sandbox on
// 127.0.0.1 delivers envelope-completed, with the recipients' tabs (the
// account's Connect configuration asks for `includeData: [recipients,
// tabs]`), to the real `signrun listen`, which keeps the envelope's form
// data in the state; `sync` then writes form-data.json from it without
// reading the recipients — the same file, value for value, as a sync of a
// copy of the same output folder that polls (and takes them from the status
// listing's recipients with their tabs, issue 37).

let sandbox: RunningSandbox;
let listener: ChildProcess;
let listenUrl: string;
let listenOutput = '';
let dir: string;
const requests: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, log: (line) => requests.push(line) });
  dir = await tempDir('signrun-connect-form-data-');
  listener = spawn(process.execPath, [binPath, 'listen', '--port', '0', '--out', path.join(dir, 'out')], {
    env: { ...process.env, DOCUSIGN_CONNECT_HMAC_KEYS: 'sandbox-connect-hmac-key' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  listener.stderr!.setEncoding('utf8').on('data', (d: string) => (listenOutput += d));
  listenUrl = await new Promise<string>((resolve, reject) => {
    listener.once('exit', (code) => reject(new Error(`listen exited (${code}): ${listenOutput}`)));
    listener.stdout!.setEncoding('utf8').on('data', (d: string) => {
      listenOutput += d;
      const m = /listening on (\S+)/.exec(listenOutput);
      if (m) resolve(m[1]!);
    });
  });
});
afterAll(async () => {
  if (listener && listener.exitCode === null) {
    const exited = once(listener, 'exit');
    listener.kill('SIGINT');
    await exited;
  }
  await sandbox?.close();
});

const tab = (y: number) => `documentId: 1, pageNumber: 1, xPosition: 100, yPosition: ${y}`;

async function jobFolder(): Promise<string> {
  await mkdir(path.join(dir, 'docs'));
  await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
  const envelope = (key: string, name: string) => [
    `  - key: ${key}`,
    '    documents: [{ name: offer-letter.pdf, file: docs/offer-letter.pdf }]',
    '    recipients:',
    `      - name: ${name}`,
    `        email: ${key}@example.com`,
    `        clientUserId: c-${key}`,
    '        tabs:',
    `          signHereTabs: [{ ${tab(100)} }]`,
    '          textTabs:',
    `            - { tabLabel: Preferred name, required: false, ${tab(200)} }`,
    `            - { tabLabel: Employee ID, value: E-${key}, locked: true, ${tab(250)} }`,
  ];
  await writeFile(
    path.join(dir, 'offers.yaml'),
    [
      'version: 1',
      'job: offers',
      'defaults: { emailSubject: Please sign, status: sent, returnUrl: "https://example.com/done" }',
      'envelopes:',
      ...envelope('amy', 'Amy Connect'),
      ...envelope('ben', 'Ben Waiting'),
      '',
    ].join('\n'),
  );
  return dir;
}

/** Signs a key's envelope over HTTP, typing `preferred` into its text tab, as the signing page's form does. */
async function signTyping(out: string, key: string, preferred: string): Promise<string> {
  const signing = JSON.parse(await readFile(path.join(out, 'offers', key, 'signing.json'), 'utf8')) as SigningRecord;
  const { envelopeId } = JSON.parse(
    await readFile(path.join(out, 'offers', key, 'envelope.json'), 'utf8'),
  ) as EnvelopeRecord;
  const tabs = await sandboxApi(sandbox.rootUrl).call<{ textTabs: { tabId: string; tabLabel: string }[] }>(
    'GET',
    `/envelopes/${envelopeId}/recipients/1/tabs`,
  );
  const tabId = tabs.json.textTabs.find((t) => t.tabLabel === 'Preferred name')!.tabId;
  const link = await openSigningLink(signing.recipients[0]!.url!);
  const res = await postForm(`${link.sessionUrl}/sign`, link.cookie, {
    signatureName: 'Signed',
    csrfToken: link.csrf,
    fieldsShown: '1',
    [`tab.${tabId}`]: preferred,
  });
  expect(res.status, await res.text()).toBe(303);
  expect(new URL(res.headers.get('location')!).searchParams.get('event')).toBe('signing_complete');
  return envelopeId;
}

const readFormData = async (out: string, key: string) =>
  JSON.parse(await readFile(path.join(out, 'offers', key, 'form-data.json'), 'utf8')) as FormDataJson;
const recipientReads = () => requests.filter((l) => /\/recipients\S* 200/.test(l));

describe('form data through Connect', () => {
  it('listen keeps it, sync writes the same form-data.json as a read gives, without the read', async () => {
    await jobFolder();
    const out = path.join(dir, 'out');
    const env = sandboxEnv(sandbox);
    // The account's Connect configuration, as one makes it in DocuSign's settings: completed envelopes,
    // signed (HMAC), with the recipients and their tabs.
    const configured = await sandboxApi(sandbox.rootUrl).call('POST', '/connect', {
      name: 'signrun listen',
      urlToPublishTo: `${listenUrl}/connect`,
      allUsers: 'true',
      includeHMAC: 'true',
      events: ['envelope-completed'],
      eventData: { version: 'restv2.1', format: 'json', includeData: ['recipients', 'tabs'] },
    });
    expect(configured.status, JSON.stringify(configured.json)).toBe(201);
    const sent = await runCli(['run', dir, '--out', out], { env });
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    // The same envelopes, for a sync that polls: a copy of the output folder and its state before any event.
    const polled = path.join(dir, 'out-poll');
    await cp(out, polled, { recursive: true });

    // The barrier: the sandbox says it delivered envelope-completed (listen answered 200, so its file is on disk).
    const delivered = new Promise<void>((resolve) => {
      const onAttempt = (attempt: { event: string; ok: boolean }) => {
        if (attempt.event !== 'envelope-completed' || !attempt.ok) return;
        sandbox.app.sandbox.events.off('connect-attempt', onAttempt);
        resolve();
      };
      sandbox.app.sandbox.events.on('connect-attempt', onAttempt);
    });
    const envelopeId = await signTyping(out, 'amy', 'Amy');
    await delivered;
    const kept = path.join(out, '.signrun', 'connect-form-data', `${envelopeId}.json`);
    expect(((await stat(kept)).mode & 0o777).toString(8)).toBe('600');
    expect(((await stat(path.dirname(kept))).mode & 0o777).toString(8)).toBe('700');
    expect(JSON.parse(await readFile(kept, 'utf8'))).toMatchObject({ envelopeId, status: 'completed' });
    // Tab values are personal data: listen prints none.
    expect(listenOutput).not.toContain('Amy');

    requests.length = 0;
    const viaConnect = await runCli(['sync', dir, '--out', out], { env });
    expect(viaConnect.code, viaConnect.stdout + viaConnect.stderr).toBe(0);
    expect(recipientReads()).toEqual([]);
    expect((await readReport(out)).api.byOperation['listRecipients']).toBeUndefined();
    expect(viaConnect.stdout).toContain(
      'Form data of 1 completed envelope(s) from Connect (signrun listen): 1 call(s) saved.',
    );
    // Collected: the state keeps no second copy of the values.
    await expect(stat(kept)).rejects.toThrow(/ENOENT/);

    requests.length = 0;
    const viaPolling = await runCli(['sync', dir, '--out', polled], { env });
    expect(viaPolling.code, viaPolling.stdout + viaPolling.stderr).toBe(0);
    expect(recipientReads()).toEqual([]);
    expect((await readReport(polled)).formData).toMatchObject({ fromListing: 1, fromConnect: 0, readPerEnvelope: 0 });

    const connectFile = await readFormData(out, 'amy');
    const pollingFile = await readFormData(polled, 'amy');
    const typed = connectFile.recipients[0]!.tabs;
    expect(typed).toContainEqual({ label: 'Preferred name', kind: 'text', value: 'Amy' });
    expect(typed).toContainEqual({ label: 'Employee ID', kind: 'text', value: 'E-amy' });
    // The same file but for when it was read (each sync's own time).
    const { readAt: connectReadAt, ...connectRest } = connectFile;
    const { readAt: pollingReadAt, ...pollingRest } = pollingFile;
    expect(connectRest).toEqual(pollingRest);
    expect(Object.keys(connectFile)).toEqual(Object.keys(pollingFile));
    expect(Date.parse(connectReadAt)).toBeLessThanOrEqual(Date.parse(pollingReadAt));
    expect(await readFile(path.join(out, 'offers', 'form-data.csv'), 'utf8')).toBe(
      await readFile(path.join(polled, 'offers', 'form-data.csv'), 'utf8'),
    );
    // The envelope still out has no form data on either path.
    for (const folder of [out, polled])
      await expect(stat(path.join(folder, 'offers', 'ben', 'form-data.json'))).rejects.toThrow(/ENOENT/);
  });

  it("an envelope's own eventNotification in the job file asks for the tabs: the same, with no account configuration", async () => {
    // Only the envelope's own webhook delivers here: the account's configurations of the test above are gone.
    const api = sandboxApi(sandbox.rootUrl);
    const configurations = await api.call<{ configurations?: { connectId: string }[] }>('GET', '/connect');
    for (const { connectId } of configurations.json.configurations ?? [])
      expect((await api.call('DELETE', `/connect/${connectId}`)).status).toBe(200);
    const folder = await tempDir('signrun-envelope-event-data-');
    await mkdir(path.join(folder, 'docs'));
    await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(folder, 'docs/offer-letter.pdf'));
    await writeFile(
      path.join(folder, 'offers.yaml'),
      [
        'version: 1',
        'job: hooked',
        'defaults:',
        '  emailSubject: Please sign',
        '  returnUrl: "https://example.com/done"',
        '  eventNotification:',
        `    url: ${listenUrl}/hooks`,
        '    envelopeEvents: [{ envelopeEventStatusCode: completed }]',
        '    eventData: { version: restv2.1, format: json, includeData: [recipients, tabs] }',
        '    includeHMAC: true',
        'envelopes:',
        '  - key: cleo',
        '    documents: [{ name: offer-letter.pdf, file: docs/offer-letter.pdf }]',
        '    recipients:',
        '      - name: Cleo Hook',
        '        email: cleo@example.com',
        '        clientUserId: c-cleo',
        '        tabs:',
        `          signHereTabs: [{ ${tab(100)} }]`,
        `          textTabs: [{ tabLabel: Preferred name, required: false, ${tab(200)} }]`,
        '',
      ].join('\n'),
    );
    // The out folder of listen (its state keeps what Connect brings), another job.
    const out = path.join(dir, 'out');
    const env = sandboxEnv(sandbox);
    const sent = await runCli(['run', folder, '--out', out], { env });
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    const delivered = new Promise<void>((resolve) => {
      const onAttempt = (attempt: { event: string; ok: boolean }) => {
        if (attempt.event !== 'envelope-completed' || !attempt.ok) return;
        sandbox.app.sandbox.events.off('connect-attempt', onAttempt);
        resolve();
      };
      sandbox.app.sandbox.events.on('connect-attempt', onAttempt);
    });
    const signing = JSON.parse(
      await readFile(path.join(out, 'hooked', 'cleo', 'signing.json'), 'utf8'),
    ) as SigningRecord;
    const { envelopeId } = JSON.parse(
      await readFile(path.join(out, 'hooked', 'cleo', 'envelope.json'), 'utf8'),
    ) as EnvelopeRecord;
    const tabs = await api.call<{ textTabs: { tabId: string; tabLabel: string }[] }>(
      'GET',
      `/envelopes/${envelopeId}/recipients/1/tabs`,
    );
    const link = await openSigningLink(signing.recipients[0]!.url!);
    const signed = await postForm(`${link.sessionUrl}/sign`, link.cookie, {
      signatureName: 'Signed',
      csrfToken: link.csrf,
      fieldsShown: '1',
      [`tab.${tabs.json.textTabs[0]!.tabId}`]: 'Cleo',
    });
    expect(signed.status).toBe(303);
    await delivered;
    requests.length = 0;
    const synced = await runCli(['sync', folder, '--out', out], { env });
    expect(synced.code, synced.stdout + synced.stderr).toBe(0);
    expect(recipientReads()).toEqual([]);
    expect(synced.stdout).toContain(
      'Form data of 1 completed envelope(s) from Connect (signrun listen): 1 call(s) saved.',
    );
    const formData = JSON.parse(
      await readFile(path.join(out, 'hooked', 'cleo', 'form-data.json'), 'utf8'),
    ) as FormDataJson;
    expect(formData.recipients[0]!.tabs).toContainEqual({ label: 'Preferred name', kind: 'text', value: 'Cleo' });
  });
});
