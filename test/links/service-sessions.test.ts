import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ServiceSessions } from '../../src/links/service-sessions.js';
import type { SignrunConfig } from '../../src/config/types.js';
import { makeSecret } from '../../src/secret.js';
import { startSandbox } from '../../src/sandbox/index.js';

describe('links: credentials go only to the configured service', () => {
  it('an envelope recorded on another root URL is refused before any request', async () => {
    let requests = 0;
    const other = createServer((_req, res) => {
      requests += 1;
      res.end('{}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/restapi/v2`;
    const config = {
      rootUrl: 'https://demo.docusign.invalid/restapi/v2',
      credentials: { username: 'me@example.com', password: makeSecret('pw-123'), integratorKey: 'ik' },
    } as unknown as SignrunConfig;
    const sessions = new ServiceSessions(config);
    try {
      await expect(sessions.accountFor(otherUrl)).rejects.toMatchObject({ code: 'SR_LINKS_OTHER_SERVICE' });
      // With nothing configured, only a sandbox on this machine (loopback) is served.
      const none = new ServiceSessions({ credentials: {} } as unknown as SignrunConfig);
      await expect(none.accountFor('https://demo.docusign.net/restapi/v2')).rejects.toMatchObject({
        code: 'SR_LINKS_OTHER_SERVICE',
      });
      expect(requests).toBe(0);
    } finally {
      sessions.close();
      await new Promise<void>((r) => other.close(() => r()));
    }
  });

  it("serves an envelope that run recorded on …/restapi/v2.1 when DOCUSIGN_ROOT_URL is DocuSign's …/restapi (one service)", async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true });
    const config = {
      rootUrl: `${sandbox.origin}/restapi`,
      credentials: {
        username: 'sandbox@signrun.test',
        password: makeSecret('sandbox-password'),
        integratorKey: 'sandbox-integrator-key',
      },
    } as unknown as SignrunConfig;
    const sessions = new ServiceSessions(config);
    try {
      // run resolves …/restapi to …/restapi/v2.1 and writes that into envelope.json; v2 is the same service too.
      for (const recorded of [`${sandbox.origin}/restapi/v2.1`, `${sandbox.origin}/restapi/v2`]) {
        const account = await sessions.accountFor(recorded);
        expect(account.accountId, recorded).toMatch(/^[0-9a-f-]{36}$/);
      }
      // Another path on the same host is not the configured service.
      await expect(sessions.accountFor(`${sandbox.origin}/elsewhere/v2.1`)).rejects.toMatchObject({
        code: 'SR_LINKS_OTHER_SERVICE',
      });
    } finally {
      sessions.close();
      await sandbox.close();
    }
  });
});
