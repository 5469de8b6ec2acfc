import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchOnce } from '../../src/client/fetch-once.js';
import { realTiming } from '../../src/client/timing.js';
import type { Auth } from '../../src/client/auth.js';
import { ClientHttpError } from '../../src/client/client-errors.js';
import { makeSecret } from '../../src/secret.js';

// The answer's body is read once as bytes and decoded (issue 37): what the
// callers get is what node-fetch's text() gave, byte-order mark and UTF-8 alike.
const auth: Auth = {
  kind: 'legacy',
  username: 'u@example.com',
  password: makeSecret('pw-body-test'),
  integratorKey: 'ik',
};
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
let server: http.Server;
let root: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const json = (status: number, bytes: Buffer) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(bytes);
    };
    if (req.url === '/bom') json(200, Buffer.concat([BOM, Buffer.from('{"name":"Zoë Ångström ✍"}')]));
    else if (req.url === '/refused')
      json(400, Buffer.concat([BOM, Buffer.from('{"errorCode":"INVALID_REQUEST_BODY","message":"Ünknown field"}')]));
    else if (req.url === '/empty') {
      res.writeHead(200);
      res.end();
    } else json(200, Buffer.from('{"name":"Zoë"}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('fetch-once, reading the answer', () => {
  const call = async (path: string) => {
    const { send, close } = createFetchOnce({ timing: realTiming }); // eslint-disable-line @typescript-eslint/unbound-method
    try {
      return await send({ method: 'GET', url: `${root}${path}`, operation: 'test', auth });
    } finally {
      close();
    }
  };

  it('decodes UTF-8 and drops a byte-order mark before parsing the JSON', async () => {
    expect((await call('/plain')).json).toEqual({ name: 'Zoë' });
    expect((await call('/bom')).json).toEqual({ name: 'Zoë Ångström ✍' });
  });

  it('reads the service’s error code and message behind a byte-order mark', async () => {
    const error = await call('/refused').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientHttpError);
    expect((error as ClientHttpError).serviceErrorCode).toBe('INVALID_REQUEST_BODY');
    expect((error as ClientHttpError).serviceMessage).toBe('Ünknown field');
  });

  it('an empty answer has no JSON', async () => {
    const response = await call('/empty');
    expect(response.status).toBe(200);
    expect(response.json).toBeUndefined();
  });
});
