import { sandboxFetch } from '../sandbox/helpers/injected-sandbox.js';
import { defaultSeedIds } from '../../src/sandbox/seed/default-seed.js';

/** The default seed's credentials (DESIGN "Sandbox default seed"). */
export const seedAuth = JSON.stringify({
  Username: 'sandbox@signrun.test',
  Password: 'sandbox-password',
  IntegratorKey: 'sandbox-integrator-key',
});
export const accountId = defaultSeedIds.accountId;
export const templateId = defaultSeedIds.templateId;

/** A tiny client of the sandbox API for tests: JSON in, JSON (or bytes) out, status checked. */
export function sandboxApi(rootUrl: string) {
  const base = `${rootUrl}/accounts/${accountId}`;
  async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
    const res = await sandboxFetch(`${base}${path}`, {
      method,
      headers: {
        'x-docusign-authentication': seedAuth,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : undefined) as T };
  }
  return {
    call,
    async createEnvelope(definition: Record<string, unknown>): Promise<string> {
      const r = await call<{ envelopeId: string }>('POST', '/envelopes', definition);
      if (r.status !== 201) throw new Error(`create envelope: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json.envelopeId;
    },
    async signingUrl(
      envelopeId: string,
      recipient: { email: string; userName: string; clientUserId: string },
      returnUrl: string,
    ): Promise<string> {
      const r = await call<{ url: string }>('POST', `/envelopes/${envelopeId}/views/recipient`, {
        ...recipient,
        authenticationMethod: 'none',
        returnUrl,
      });
      if (r.status !== 201) throw new Error(`views/recipient: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json.url;
    },
    async envelopeStatus(envelopeId: string): Promise<string> {
      return (await call<{ status: string }>('GET', `/envelopes/${envelopeId}`)).json.status;
    },
    async recipientStatuses(envelopeId: string): Promise<Record<string, string>> {
      const r = await call<{ signers: { recipientId: string; status: string }[] }>(
        'GET',
        `/envelopes/${envelopeId}/recipients`,
      );
      return Object.fromEntries(r.json.signers.map((s) => [s.recipientId, s.status]));
    },
    async document(envelopeId: string, documentId: string): Promise<Buffer> {
      const res = await sandboxFetch(`${base}/envelopes/${envelopeId}/documents/${documentId}`, {
        headers: { 'x-docusign-authentication': seedAuth },
      });
      if (res.status !== 200) throw new Error(`document ${documentId}: ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    },
  };
}

/** A tab placed by position on document 1's first page, at x 100 and height `y` (DocuSign wire names, strings). */
export function tabAt(y: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { documentId: '1', pageNumber: '1', xPosition: '100', yPosition: String(y), ...extra };
}

/** A signer definition with one sign-here tab (DocuSign wire names, strings). */
export function signer(
  recipientId: string,
  name: string,
  routingOrder: string,
  tabs: { documentId: string; pageNumber: string; xPosition: string; yPosition: string }[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`;
  return {
    recipientId,
    name,
    email,
    clientUserId: `client-${recipientId}`,
    routingOrder,
    ...(tabs.length === 0 ? {} : { tabs: { signHereTabs: tabs } }),
    ...extra,
  };
}
