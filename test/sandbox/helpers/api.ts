import { injectedAppOf, sandboxFetch } from './injected-sandbox.js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expect } from 'vitest';
import { swaggerDefinitionFor, swaggerErrors, type ApiVersion } from './swagger.js';

/** The built-in seed's credentials (DESIGN.md). */
export const seedCredentials = {
  username: 'sandbox@signrun.test',
  password: 'sandbox-password',
  integratorKey: 'sandbox-integrator-key',
  distributorCode: 'SANDBOX-DISTRIBUTOR',
  distributorPassword: 'sandbox-distributor-password',
} as const;

export const templateId = '3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01';

export interface Credentials {
  username: string;
  password: string;
  integratorKey: string;
}

export function authHeader(c: Credentials = seedCredentials): Record<string, string> {
  return {
    'X-DocuSign-Authentication': JSON.stringify({
      Username: c.username,
      Password: c.password,
      IntegratorKey: c.integratorKey,
    }),
  };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  json: any;
  bytes: Buffer;
}

/** One real HTTP call. `body` objects go as JSON. */
export async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; raw?: string | Buffer } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | Buffer | undefined;
  if (init.raw !== undefined) body = init.raw;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await sandboxFetch(url, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  let json: unknown;
  if ((response.headers.get('content-type') ?? '').includes('json') && bytes.length > 0)
    json = JSON.parse(bytes.toString('utf8'));
  // Every JSON answer of the API is checked against the Swagger definition
  // of its operation and status — v2.1's Swagger for /restapi/v2.1, v2's
  // for /restapi/v2 — whatever the test asserts besides.
  if (json !== undefined) {
    const definition = swaggerDefinitionFor(init.method ?? (body === undefined ? 'GET' : 'POST'), url, response.status);
    if (definition) expectShape(definition.name, json, definition.version);
  }
  return { status: response.status, headers: response.headers, json, bytes };
}

/** Asserts the body validates against a definition of the version's Swagger (v2 by default). */
export function expectShape(definition: string, data: unknown, version: ApiVersion = 'v2'): void {
  expect(
    swaggerErrors(definition, data, version),
    `${version} ${definition}: ${JSON.stringify(data).slice(0, 300)}`,
  ).toEqual([]);
}

/** Asserts a DocuSign error answer: status, errorCode, and the errorDetails shape. */
export function expectApiError(response: ApiResponse, status: number, errorCode: string): void {
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  expect(response.json?.errorCode).toBe(errorCode);
  expect(typeof response.json?.message).toBe('string');
  expectShape('errorDetails', response.json);
}

/** A real PDF with `pages` pages (and `padding` bytes of text, to reach a size). */
export async function makePdf(pages = 1, title = 'Test document', paddingBytes = 0): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(`${title} — page ${i + 1}`, { x: 50, y: 780, size: 14, font });
  }
  if (paddingBytes > 0) pdf.setSubject('x'.repeat(paddingBytes));
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/** Logs in (4.1) and returns the account base URL. */
export async function login(
  rootUrl: string,
  c: Credentials = seedCredentials,
): Promise<{ baseUrl: string; accountId: string; userId: string }> {
  const r = await call(`${rootUrl}/login_information`, { headers: authHeader(c) });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  const account = r.json.loginAccounts[0];
  return { baseUrl: account.baseUrl, accountId: account.accountId, userId: account.userId };
}

/** A document envelope definition with embedded signers. */
export function documentEnvelope(pdf: Buffer, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    emailSubject: 'Please sign',
    emailBlurb: 'Body text',
    status: 'sent',
    documents: [{ documentId: '1', name: 'contract.pdf', documentBase64: pdf.toString('base64') }],
    recipients: {
      signers: [
        {
          name: 'Jean Français',
          email: 'jean@example.com',
          recipientId: '1',
          routingOrder: '1',
          clientUserId: 'emp-1',
          tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' }] },
        },
        { name: 'Marie Curie', email: 'marie@example.com', recipientId: '2', routingOrder: '2', clientUserId: 'mgr-1' },
      ],
    },
    ...overrides,
  };
}

/** A request with any method and body (fetch refuses a body on GET): node:http. */
export function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  const app = injectedAppOf(url);
  if (app) {
    const target = new URL(url);
    return app
      .inject({
        method: method as 'GET',
        url: `${target.pathname}${target.search}`,
        headers: { host: target.host, ...headers },
        payload: body,
      })
      .then((res) => ({ status: res.statusCode, body: res.body }));
  }
  return import('node:http').then(
    ({ request }) =>
      new Promise((resolve, reject) => {
        const req = request(
          url,
          { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
          (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (d: string) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      }),
  );
}
