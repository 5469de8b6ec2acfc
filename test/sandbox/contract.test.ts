import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The text of a PDF, by poppler's pdftotext (installed by .ci/run). */
function pdfText(bytes: Buffer): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'signrun-cert-')), 'c.pdf');
  writeFileSync(file, bytes);
  return new Promise((resolve, reject) =>
    execFile('pdftotext', ['-layout', file, '-'], (error, stdout) =>
      error ? reject(new Error(`pdftotext failed: ${error.message}`)) : resolve(stdout),
    ),
  );
}
import type { RunningSandbox } from '../../src/sandbox/index.js';
import {
  authHeader,
  call,
  rawRequest,
  documentEnvelope,
  expectApiError,
  expectShape,
  login,
  makePdf,
  seedCredentials,
  templateId,
} from './helpers/api.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// Every endpoint over HTTP through inject(), each JSON answer validated against the
// Swagger definition its operation names, plus DocuSign's leniencies (issue item 2).
let sandbox: RunningSandbox;
let baseUrl: string;
let accountId: string;
let pdf: Buffer;
beforeAll(async () => {
  sandbox = await injectedSandbox({ hourlyLimit: 100_000 });
  ({ baseUrl, accountId } = await login(sandbox.rootUrl));
  pdf = await makePdf(3);
});
afterAll(async () => {
  await sandbox.close();
});

describe('login_information', () => {
  it('answers loginInformation with the account address, under v2 and v2.1', async () => {
    for (const version of ['v2', 'v2.1']) {
      const r = await call(`${sandbox.origin}/restapi/${version}/login_information`, { headers: authHeader() });
      expect(r.status).toBe(200);
      expectShape('loginInformation', r.json);
      expect(r.json.loginAccounts[0].baseUrl).toBe(`${sandbox.origin}/restapi/${version}/accounts/${accountId}`);
      expect(r.json.loginAccounts[0].name).toBe('Sandbox Corp');
    }
  });

  it('accepts the XML form of X-DocuSign-Authentication and a trailing slash', async () => {
    const xml = `<DocuSignCredentials><Username>${seedCredentials.username}</Username><Password>${seedCredentials.password}</Password><IntegratorKey>${seedCredentials.integratorKey}</IntegratorKey></DocuSignCredentials>`;
    const r = await call(`${sandbox.rootUrl}/login_information/`, { headers: { 'X-DocuSign-Authentication': xml } });
    expect(r.status).toBe(200);
    expectShape('loginInformation', r.json);
  });

  it('accepts an empty or {} JSON body on GET', async () => {
    const headers = { ...authHeader(), 'content-type': 'application/json' };
    for (const body of ['', '{}', '  ']) {
      const r = await rawRequest(`${sandbox.rootUrl}/login_information`, 'GET', headers, body);
      expect(r.status, r.body).toBe(200);
      expect(JSON.parse(r.body).loginAccounts[0].accountId).toBe(accountId);
    }
    const account = await rawRequest(baseUrl, 'GET', headers, '{}');
    expect(account.status).toBe(200);
  });
});

describe('bearer tokens', () => {
  it('issues a token for the password grant and accepts it as Authorization: Bearer', async () => {
    const form = new URLSearchParams({
      grant_type: 'password',
      client_id: seedCredentials.integratorKey,
      username: seedCredentials.username,
      password: seedCredentials.password,
      scope: 'api',
    });
    const r = await call(`${sandbox.rootUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: form.toString(),
    });
    expect(r.status).toBe(201);
    expectShape('oauthAccess', r.json);
    const info = await call(`${sandbox.rootUrl}/login_information`, {
      headers: { Authorization: `Bearer ${r.json.access_token}` },
    });
    expect(info.status).toBe(200);
    expect(info.json.loginAccounts[0].accountId).toBe(accountId);
    expectApiError(
      await call(`${sandbox.rootUrl}/login_information`, { headers: { Authorization: 'Bearer forged' } }),
      401,
      'USER_AUTHENTICATION_FAILED',
    );
    const bad = await call(`${sandbox.rootUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: new URLSearchParams({
        grant_type: 'password',
        client_id: seedCredentials.integratorKey,
        username: seedCredentials.username,
        password: 'x',
      }).toString(),
    });
    expectApiError(bad, 401, 'USER_AUTHENTICATION_FAILED');
  });
});

describe('envelopes', () => {
  it('creates with numbers for ids, mixed-case status, and returns transactionId and custom fields', async () => {
    const created = await call(`${baseUrl}/envelopes/`, {
      headers: authHeader(),
      body: documentEnvelope(pdf, {
        status: 'Sent',
        transactionId: 'job-1/key-1',
        customFields: { textCustomFields: [{ name: 'signrun', value: 'job-1/key-1', show: 'false' }] },
        eventNotification: { url: 'http://127.0.0.1:9/hook' },
        documents: [{ documentId: 1, name: 'contract.pdf', documentBase64: pdf.toString('base64') }],
        recipients: {
          signers: [
            {
              name: 'A',
              email: 'a@example.com',
              recipientId: 1,
              routingOrder: 1,
              clientUserId: 'a',
              tabs: { signHereTabs: [{ documentId: 1, pageNumber: 3, xPosition: 10, yPosition: 20 }] },
            },
          ],
        },
      }),
    });
    expect(created.status).toBe(201);
    expectShape('envelopeSummary', created.json);
    expect(created.json.status).toBe('sent');
    const envelopeId = created.json.envelopeId as string;

    const read = await call(`${baseUrl}/envelopes/${envelopeId}`, { headers: authHeader() });
    expect(read.status).toBe(200);
    expectShape('envelope', read.json);
    expect(read.json).toMatchObject({
      envelopeId,
      status: 'sent',
      transactionId: 'job-1/key-1',
      emailSubject: 'Please sign',
      eventNotification: { url: 'http://127.0.0.1:9/hook' },
    });
    expect(read.json.customFields.textCustomFields).toEqual([
      expect.objectContaining({ name: 'signrun', value: 'job-1/key-1' }),
    ]);
    const fields = await call(`${baseUrl}/envelopes/${envelopeId}/custom_fields`, { headers: authHeader() });
    expect(fields.status).toBe(200);
    expect(fields.json.textCustomFields).toEqual([
      expect.objectContaining({ name: 'signrun', value: 'job-1/key-1', show: 'false' }),
    ]);

    const recipients = await call(`${baseUrl}/envelopes/${envelopeId}/recipients`, { headers: authHeader() });
    expectShape('EnvelopeRecipients', recipients.json);
    // Numbers become strings; DocuSign gives each tab its id and recipient.
    expect(recipients.json.signers[0].tabs.signHereTabs[0]).toEqual({
      documentId: '1',
      pageNumber: '3',
      xPosition: '10',
      yPosition: '20',
      recipientId: '1',
      tabId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    });
  });

  it('finds envelopes by custom field, transaction id, ids, status and date (the status-changes listing)', async () => {
    const marker = `job-2/${Date.now()}`;
    const ids: string[] = [];
    for (const status of ['sent', 'created']) {
      const r = await call(`${baseUrl}/envelopes`, {
        headers: authHeader(),
        body: documentEnvelope(pdf, {
          status,
          transactionId: `${marker}-${status}`,
          customFields: { textCustomFields: [{ name: 'signrun', value: marker }] },
        }),
      });
      ids.push(r.json.envelopeId);
    }
    const list = async (query: string) => {
      const r = await call(`${baseUrl}/envelopes?${query}`, { headers: authHeader() });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      expectShape('envelopesInformation', r.json);
      return (r.json.envelopes as Array<{ envelopeId: string }>).map((e) => e.envelopeId);
    };
    const from = encodeURIComponent(new Date(Date.now() - 60_000).toISOString());
    expect(await list(`from_date=${from}&custom_field=${encodeURIComponent(`signrun=${marker}`)}`)).toEqual(ids);
    expect(await list(`transaction_ids=${encodeURIComponent(`${marker}-created`)}`)).toEqual([ids[1]]);
    expect(await list(`envelope_ids=${ids.join(',')}`)).toEqual(ids);
    expect(await list(`from_date=${from}&status=SENT&custom_field=${encodeURIComponent(`signrun=${marker}`)}`)).toEqual(
      [ids[0]],
    );
    expect(
      await list(
        `from_date=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&custom_field=${encodeURIComponent(`signrun=${marker}`)}`,
      ),
    ).toEqual([]);
    const withStatuses = await call(`${baseUrl}/envelopes?transaction_ids=${encodeURIComponent(`${marker}-sent`)}`, {
      headers: authHeader(),
    });
    expect(withStatuses.json.envelopeTransactionStatuses).toEqual([
      { envelopeId: ids[0], transactionId: `${marker}-sent`, status: 'sent' },
    ]);
  });

  it('sends a draft and voids an envelope (PUT), with DocuSign’s checks', async () => {
    const r = await call(`${baseUrl}/envelopes`, {
      headers: authHeader(),
      body: documentEnvelope(pdf, { status: 'created' }),
    });
    const envelopeId = r.json.envelopeId as string;
    expect(r.json.status).toBe('created');
    const send = await call(`${baseUrl}/envelopes/${envelopeId}`, {
      method: 'PUT',
      headers: authHeader(),
      body: { status: 'sent' },
    });
    expect(send.status).toBe(200);
    expectShape('envelopeUpdateSummary', send.json);
    expect((await call(`${baseUrl}/envelopes/${envelopeId}`, { headers: authHeader() })).json.status).toBe('sent');
    expectApiError(
      await call(`${baseUrl}/envelopes/${envelopeId}`, {
        method: 'PUT',
        headers: authHeader(),
        body: { status: 'voided' },
      }),
      400,
      'INVALID_REQUEST_PARAMETER',
    );
    const voided = await call(`${baseUrl}/envelopes/${envelopeId}`, {
      method: 'PUT',
      headers: authHeader(),
      body: { status: 'voided', voidedReason: 'typo' },
    });
    expect(voided.status).toBe(200);
    const read = await call(`${baseUrl}/envelopes/${envelopeId}`, { headers: authHeader() });
    expect(read.json).toMatchObject({ status: 'voided', voidedReason: 'typo' });
    expectApiError(
      await call(`${baseUrl}/envelopes/${envelopeId}`, {
        method: 'PUT',
        headers: authHeader(),
        body: { status: 'voided', voidedReason: 'again' },
      }),
      400,
      'ENVELOPE_INVALID_STATUS',
    );
  });

  it('accepts multipart/form-data with DocuSign’s file parts (documentid parameter)', async () => {
    const definition = documentEnvelope(pdf, {
      documents: [
        { documentId: '1', name: 'big.pdf' },
        { documentId: '2', name: 'annex.pdf' },
      ],
    });
    const annex = await makePdf(1, 'annex');
    const boundary = 'BOUNDARY123';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Type: application/json\r\nContent-Disposition: form-data\r\n\r\n${JSON.stringify(definition)}\r\n`,
      ),
      Buffer.from(
        `--${boundary}\r\nContent-Type: application/pdf\r\nContent-Disposition: file; filename="big.pdf"; documentid=1\r\n\r\n`,
      ),
      pdf,
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Type: application/pdf\r\nContent-Disposition: file; filename="annex.pdf"; documentid=2\r\n\r\n`,
      ),
      annex,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const r = await call(`${baseUrl}/envelopes`, {
      method: 'POST',
      headers: { ...authHeader(), 'content-type': `multipart/form-data; boundary=${boundary}` },
      raw: body,
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const envelopeId = r.json.envelopeId as string;
    const d1 = await call(`${baseUrl}/envelopes/${envelopeId}/documents/1`, { headers: authHeader() });
    const d2 = await call(`${baseUrl}/envelopes/${envelopeId}/documents/2`, { headers: authHeader() });
    expect(d1.bytes.equals(pdf)).toBe(true);
    expect(d2.bytes.equals(annex)).toBe(true);
  });
});

describe('multipart from a standard form-data client', () => {
  it('takes the definition field first and file parts named document1, document2', async () => {
    const annex = await makePdf(1, 'annex');
    const form = new FormData();
    form.append(
      'envelope_definition',
      JSON.stringify(
        documentEnvelope(pdf, {
          documents: [
            { documentId: '1', name: 'a.pdf' },
            { documentId: '2', name: 'b.pdf' },
          ],
        }),
      ),
    );
    form.append('document2', new Blob([annex], { type: 'application/pdf' }), 'b.pdf');
    form.append('document1', new Blob([pdf], { type: 'application/pdf' }), 'a.pdf');
    const response = await sandboxFetch(`${baseUrl}/envelopes`, { method: 'POST', headers: authHeader(), body: form });
    expect(response.status).toBe(201);
    const { envelopeId } = (await response.json()) as { envelopeId: string };
    expect(
      (await call(`${baseUrl}/envelopes/${envelopeId}/documents/1`, { headers: authHeader() })).bytes.equals(pdf),
    ).toBe(true);
    expect(
      (await call(`${baseUrl}/envelopes/${envelopeId}/documents/2`, { headers: authHeader() })).bytes.equals(annex),
    ).toBe(true);
  });

  it('refuses a malformed multipart body with INVALID_REQUEST_BODY', async () => {
    const r = await call(`${baseUrl}/envelopes`, {
      method: 'POST',
      headers: { ...authHeader(), 'content-type': 'multipart/form-data; boundary=XYZ' },
      raw: 'no boundary in here',
    });
    expectApiError(r, 400, 'INVALID_REQUEST_BODY');
  });
});

describe('documents', () => {
  it('lists documents with the certificate entry and serves combined = documents + certificate', async () => {
    const annex = await makePdf(2, 'annex');
    const r = await call(`${baseUrl}/envelopes`, {
      headers: authHeader(),
      body: documentEnvelope(pdf, {
        documents: [
          { documentId: '1', name: 'contract.pdf', documentBase64: pdf.toString('base64') },
          { documentId: '2', name: 'annex', documentBase64: annex.toString('base64') },
        ],
      }),
    });
    const envelopeId = r.json.envelopeId as string;
    const list = await call(`${baseUrl}/envelopes/${envelopeId}/documents`, { headers: authHeader() });
    expectShape('envelopeDocumentsResult', list.json);
    expect(
      list.json.envelopeDocuments.map((d: { documentId: string; pages?: string }) => [d.documentId, d.pages]),
    ).toEqual([
      ['1', '3'],
      ['2', '2'],
      ['certificate', undefined],
    ]);
    const combined = await call(`${baseUrl}/envelopes/${envelopeId}/documents/combined`, { headers: authHeader() });
    expect(combined.headers.get('content-type')).toBe('application/pdf');
    const { PDFDocument } = await import('pdf-lib');
    const certificate = await call(`${baseUrl}/envelopes/${envelopeId}/documents/certificate`, {
      headers: authHeader(),
    });
    const certificatePages = (await PDFDocument.load(certificate.bytes)).getPageCount();
    expect((await PDFDocument.load(combined.bytes)).getPageCount()).toBe(3 + 2 + certificatePages);
    expectApiError(
      await call(`${baseUrl}/envelopes/${envelopeId}/documents/7`, { headers: authHeader() }),
      400,
      'DOCUMENT_DOES_NOT_EXIST',
    );
  });

  it('serves the current (stamped) version after signing and keeps the original', async () => {
    const r = await call(`${baseUrl}/envelopes`, {
      headers: authHeader(),
      body: documentEnvelope(pdf, {
        recipients: { signers: [{ name: 'A', email: 'a@example.com', recipientId: '1', clientUserId: 'a' }] },
      }),
    });
    const envelopeId = r.json.envelopeId as string;
    const stamped = await makePdf(3, 'stamped');
    sandbox.app.sandbox.lifecycle.markSigned(envelopeId, '1', {
      ip: '198.51.100.4',
      userAgent: 'ua',
      documents: new Map([['1', stamped]]),
    });
    const d = await call(`${baseUrl}/envelopes/${envelopeId}/documents/1`, { headers: authHeader() });
    expect(d.bytes.equals(stamped)).toBe(true);
    const row = sandbox.app.sandbox.envelopes.documents(envelopeId)[0]!;
    expect(sandbox.app.sandbox.blobs.get(row.originalSha256).equals(pdf)).toBe(true);
    const read = await call(`${baseUrl}/envelopes/${envelopeId}`, { headers: authHeader() });
    expect(read.json.status).toBe('completed');

    // The certificate states the envelope, each document with pages and the sha256 of what is served, and who did what from where.
    const certificate = await call(`${baseUrl}/envelopes/${envelopeId}/documents/certificate`, {
      headers: authHeader(),
    });
    const text = await pdfText(certificate.bytes);
    expect(text).toContain(envelopeId);
    expect(text).toContain(createHash('sha256').update(stamped).digest('hex'));
    expect(text).toContain('3 page(s)');
    expect(text).toMatch(/Signed\s+\(IP 198\.51\.100\.4/);
    expect(text).toContain('Envelope completed');
  });
});

describe('templates', () => {
  it('reads the seeded template (2.6): signers with roleName and routingOrder strings', async () => {
    const r = await call(`${baseUrl}/templates/${templateId.toUpperCase()}`, { headers: authHeader() });
    expect(r.status).toBe(200);
    expectShape('envelopeTemplate', r.json);
    expect(r.json.envelopeTemplateDefinition.name).toBe('Employment contract');
    expect(r.json.recipients.signers.every((s: { routingOrder: unknown }) => typeof s.routingOrder === 'string')).toBe(
      true,
    );
  });
});

describe('limits and sandbox endpoints', () => {
  it('sends x-ratelimit-* headers on API answers', async () => {
    const r = await call(`${sandbox.rootUrl}/login_information`, { headers: authHeader() });
    expect(Number(r.headers.get('x-ratelimit-limit'))).toBe(100_000);
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeLessThan(100_000);
    expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('answers health and the outbox as JSON and HTML', async () => {
    // Under the TypeScript runner there is no compiled worker: the document work runs on this thread.
    const idle = { mode: 'inline', threads: 0, running: 0, queued: 0, timedOut: 0, outOfMemory: 0 };
    expect((await call(`${sandbox.origin}/sandbox/health`)).json).toEqual({
      status: 'ok',
      pollingRule: 'none',
      documentWork: idle,
    });
    const json = await call(`${sandbox.origin}/sandbox/outbox`);
    expect(Array.isArray(json.json.messages)).toBe(true);
    const html = await sandboxFetch(`${sandbox.origin}/sandbox/outbox`, { headers: { accept: 'text/html' } });
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(await html.text()).toContain('<h1>Sandbox outbox</h1>');
  });
});
