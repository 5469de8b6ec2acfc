import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { RunningSandbox } from '../../src/sandbox/index.js';
import {
  authHeader,
  call,
  documentEnvelope,
  expectShape,
  login,
  makePdf,
  seedCredentials,
  templateId,
} from './helpers/api.js';
import { injectedSandbox, sandboxFetch } from './helpers/injected-sandbox.js';

// The three typical sequences of the API description (4.12), end to end over HTTP through inject().
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await injectedSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

// Both API versions: every answer is checked against its own version's
// Swagger (helpers/api.ts), v2.1's shapes included (issue 11).
describe.each(['v2', 'v2.1'] as const)('4.12 sequences on /restapi/%s', (version) => {
  const rootUrl = () => `${sandbox.origin}/restapi/${version}`;
  it('1. embedded signing from documents: login, create, recipients, views, documents, certificate', async () => {
    const { baseUrl } = await login(rootUrl());
    const pdf = await makePdf(2);
    const created = await call(`${baseUrl}/envelopes`, { headers: authHeader(), body: documentEnvelope(pdf) });
    expect(created.status).toBe(201);
    expectShape('envelopeSummary', created.json, version);
    const envelopeId = created.json.envelopeId as string;

    const recipients = await call(`${baseUrl}/envelopes/${envelopeId}/recipients`, { headers: authHeader() });
    expect(recipients.status).toBe(200);
    expectShape('EnvelopeRecipients', recipients.json, version);
    const signers = recipients.json.signers as Array<Record<string, string>>;
    expect(signers.map((s) => s.email)).toEqual(['jean@example.com', 'marie@example.com']);
    expect(signers.every((s) => typeof s.userId === 'string' && s.userId.length > 0)).toBe(true);

    // The first routing order gets a view; the second must wait for it (RECIPIENT_NOT_IN_SEQUENCE).
    const first = signers[0]!;
    const view = await call(`${baseUrl}/envelopes/${envelopeId}/views/recipient`, {
      headers: authHeader(),
      body: {
        userName: first.name,
        email: first.email,
        clientUserId: first.clientUserId,
        userId: first.userId,
        returnUrl: 'https://app.example/done',
        authenticationMethod: 'none',
      },
    });
    expect(view.status).toBe(201);
    expectShape('EnvelopeViews', view.json, version);
    expect(view.json.url).toMatch(new RegExp(`^${sandbox.origin}/signing/[A-Za-z0-9_-]{43}$`));
    const second = signers[1]!;
    const early = await call(`${baseUrl}/envelopes/${envelopeId}/views/recipient`, {
      headers: authHeader(),
      body: { userId: second.userId, returnUrl: 'https://app.example/done' },
    });
    expect(early.json?.errorCode).toBe('RECIPIENT_NOT_IN_SEQUENCE');

    // The first signs (through the lifecycle the signing page calls); now the second gets a view.
    sandbox.app.sandbox.lifecycle.markSigned(envelopeId, first.recipientId!, {
      ip: '192.0.2.7',
      userAgent: 'test-browser',
    });
    const later = await call(`${baseUrl}/envelopes/${envelopeId}/views/recipient`, {
      headers: authHeader(),
      body: {
        userName: second.name,
        email: second.email,
        clientUserId: second.clientUserId,
        returnUrl: 'https://app.example/done',
      },
    });
    expect(later.status).toBe(201);

    const documents = await call(`${baseUrl}/envelopes/${envelopeId}/documents`, { headers: authHeader() });
    expect(documents.status).toBe(200);
    expectShape('envelopeDocumentsResult', documents.json, version);
    const listed = documents.json.envelopeDocuments as Array<Record<string, string>>;
    expect(listed.map((d) => d.documentId)).toEqual(['1', 'certificate']);
    // v2: a count as a string; v2.1: a list of page objects.
    if (version === 'v2') expect(listed[0]!.pages).toBe('2');
    else
      expect((listed[0]!.pages as unknown as Array<{ sequence: string }>).map((p) => p.sequence)).toEqual(['1', '2']);
    const download = await call(`${baseUrl}/envelopes/${envelopeId}/documents/1`, { headers: authHeader() });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.bytes.equals(pdf)).toBe(true);

    const certificate = await call(`${baseUrl}/envelopes/${envelopeId}/documents/certificate`, {
      headers: authHeader(),
    });
    expect(certificate.status).toBe(200);
    expect(certificate.headers.get('content-type')).toBe('application/pdf');
    expect(certificate.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('2. from a template: login, read template, create from templateRoles, then as above', async () => {
    const { baseUrl } = await login(rootUrl());
    const template = await call(`${baseUrl}/templates/${templateId}`, { headers: authHeader() });
    expect(template.status).toBe(200);
    expectShape('envelopeTemplate', template.json, version);
    const roles = template.json.recipients.signers as Array<{ roleName: string; routingOrder: string }>;
    expect(roles.map((r) => [r.roleName, r.routingOrder])).toEqual([
      ['employee', '1'],
      ['employer', '1'],
    ]);

    // Roles given in the other order than the template's: the envelope keeps the client's order (2.5).
    const created = await call(`${baseUrl}/envelopes`, {
      headers: authHeader(),
      body: {
        templateId,
        emailSubject: 'Your contract',
        status: 'sent',
        templateRoles: [
          { roleName: 'employer', name: 'Boss', email: 'boss@example.com', clientUserId: 'mgr-9' },
          { roleName: 'employee', name: 'Worker', email: 'worker@example.com', clientUserId: 'emp-9' },
        ],
      },
    });
    expect(created.status).toBe(201);
    const envelopeId = created.json.envelopeId as string;
    const recipients = await call(`${baseUrl}/envelopes/${envelopeId}/recipients`, { headers: authHeader() });
    expectShape('EnvelopeRecipients', recipients.json, version);
    const signers = recipients.json.signers as Array<Record<string, string>>;
    expect(signers.map((s) => s.roleName)).toEqual(['employer', 'employee']);
    expect(signers.map((s) => s.status)).toEqual(['sent', 'sent']); // same routing order: in parallel

    for (const s of signers) {
      const view = await call(`${baseUrl}/envelopes/${envelopeId}/views/recipient`, {
        headers: authHeader(),
        body: { userName: s.name, email: s.email, clientUserId: s.clientUserId, returnUrl: 'https://app.example/done' },
      });
      expect(view.status).toBe(201);
    }
    const documents = await call(`${baseUrl}/envelopes/${envelopeId}/documents`, { headers: authHeader() });
    expect((documents.json.envelopeDocuments as Array<{ documentId: string }>).map((d) => d.documentId)).toEqual([
      '1',
      'certificate',
    ]);
    const doc = await call(`${baseUrl}/envelopes/${envelopeId}/documents/1`, { headers: authHeader() });
    expect(doc.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('3. subsidiary accounts: read, create, activate, read, log in as the new user, delete', async () => {
    const { baseUrl, accountId } = await login(rootUrl());
    const own = await call(baseUrl, { headers: authHeader() });
    expect(own.status).toBe(200);
    expectShape('accountInformation', own.json, version);
    expect(own.json.accountName).toBe('Sandbox Corp');

    const created = await call(`${rootUrl()}/accounts`, {
      headers: authHeader(),
      body: {
        accountName: 'Acme France',
        accountSettings: [],
        addressInformation: {
          address1: '',
          address2: '',
          city: 'Paris',
          country: 'FR',
          fax: '',
          phone: '',
          postalCode: '',
          state: '',
        },
        creditCardInformation: null,
        distributorCode: seedCredentials.distributorCode,
        distributorPassword: seedCredentials.distributorPassword,
        initialUser: {
          // One address per version: each run activates its own account from the outbox.
          email: `ada-${version}@acme.fr`,
          firstName: 'Ada',
          lastName: 'Martin',
          middleName: '',
          password: 'acme-secret-1',
          suffixName: '',
          title: '',
          userName: `ada-${version}@acme.fr`,
          userSettings: [],
        },
        planInformation: { planId: 'sandbox-plan' },
        referralInformation: null,
        socialAccountInformation: null,
      },
    });
    expect(created.status).toBe(201);
    expectShape('newAccountSummary', created.json, version);
    const { accountId: newAccountId, userId } = created.json as { accountId: string; userId: string };
    expect(newAccountId).not.toBe(accountId);
    const newUser = { username: userId, password: 'acme-secret-1', integratorKey: seedCredentials.integratorKey };

    // Unusable until activated.
    const early = await call(`${rootUrl()}/login_information`, { headers: authHeader(newUser) });
    expect(early.status).toBe(401);

    const outbox = await call(`${sandbox.origin}/sandbox/outbox?format=json`);
    const message = (outbox.json.messages as Array<{ kind: string; to: string; links: string[] }>).find(
      (m) => m.kind === 'account-activation' && m.to === `ada-${version}@acme.fr`,
    );
    expect(message?.links).toHaveLength(1);
    const activation = await sandboxFetch(message!.links[0]!);
    expect(activation.status).toBe(200);

    // The distributor reads its subsidiary; the new user logs in with its userId and reads it too.
    const byDistributor = await call(`${rootUrl()}/accounts/${newAccountId}`, { headers: authHeader() });
    expect(byDistributor.status).toBe(200);
    expect(byDistributor.json.accountName).toBe('Acme France');
    const session = await login(rootUrl(), newUser);
    expect(session.accountId).toBe(newAccountId);
    const read = await call(session.baseUrl, { headers: authHeader(newUser) });
    expect(read.status).toBe(200);
    expectShape('accountInformation', read.json, version);

    const deleted = await call(session.baseUrl, { method: 'DELETE', headers: authHeader(newUser) });
    expect(deleted.status).toBe(200);
    const after = await call(`${rootUrl()}/login_information`, { headers: authHeader(newUser) });
    expect(after.status).toBe(401);
    const gone = await call(`${rootUrl()}/accounts/${newAccountId}`, { headers: authHeader() });
    expect(gone.json?.errorCode).toBe('USER_LACKS_MEMBERSHIP');
  });
});
