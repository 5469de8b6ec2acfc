import { generateKeyPairSync } from 'node:crypto';
import type { CallOptions, EsignatureClient } from '../esignature-client.js';
import { makeSecret, type Secret } from '../../secret.js';

/**
 * The pair this process registers: made once (a 2,048-bit RSA key costs
 * 0.1-0.3 s of CPU, blocking), registered by every command that needs one.
 * A command run from a shell is its own process, so nothing changes there;
 * a process that runs many commands (the library, the tests' in-process
 * CLI) makes one key, not one a command. It is still registered each time:
 * the sandbox may be another, or restarted without its data.
 */
let processKeyPair: { publicKey: string; privateKey: string } | undefined;

/**
 * A key pair of the sandbox's integration key, for the JWT grant of its
 * Admin API (which takes only OAuth tokens with the admin scopes) when
 * signrun talks to a sandbox with the legacy header: the public half is
 * registered through `POST /sandbox/integrations/{key}/rsa-keys` (the
 * sandbox's stand-in for DocuSign's Apps and Keys page, authorised by the
 * legacy header naming that key); the private half never leaves this
 * process. DocuSign itself has no such route: there the JWT grant is
 * configured (docs/docusign.md).
 */
export async function registerSandboxKey(
  client: EsignatureClient,
  origin: string,
  integratorKey: string,
  options: CallOptions = {},
): Promise<Secret> {
  const pair = (processKeyPair ??= generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  }));
  await client.request(
    {
      method: 'POST',
      url: `${origin}/sandbox/integrations/${encodeURIComponent(integratorKey)}/rsa-keys`,
      body: { publicKey: pair.publicKey },
      operation: 'registerSandboxKey',
      idempotent: true,
    },
    options,
  );
  return makeSecret(pair.privateKey);
}
