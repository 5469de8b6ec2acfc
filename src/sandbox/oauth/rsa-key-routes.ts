import { createPublicKey, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ApiError, apiErrors } from '../platform/http/api-error.js';
import type { OAuthStore } from './oauth-store.js';

const generateRsaKeyPair = promisify(generateKeyPair);

/** DocuSign's key pairs are RSA 2048; smaller keys are refused as DocuSign's settings page refuses them. */
export const minRsaKeyBits = 2048;

/**
 * `POST /sandbox/integrations/{integrationKey}/rsa-keys` — the sandbox's
 * stand-in for the "Add RSA keypair" button of DocuSign's Apps and Keys page.
 * No body: generates a 2048-bit pair and answers 201 `{ keypairId, publicKey,
 * privateKey }`; the private key (PKCS#1 PEM, `-----BEGIN RSA PRIVATE
 * KEY-----`, as DocuSign shows it) is shown this once and never stored.
 * Body `{ publicKey }` (PEM): registers the caller's own public key; 201
 * `{ keypairId, publicKey }`.
 * `POST /sandbox/integrations/{integrationKey}/secrets`: a secret key, 201
 * `{ secretId, secret }` (shown once).
 *
 * Both mint credentials of the integration key (a key pair lets its holder
 * obtain a token for every user who consented to the key), so both are
 * {@link authorised} first: a user of an account of the seed (the accounts
 * that own the seed's integration keys; not a subsidiary account) signed in
 * with that very key — the legacy `X-DocuSign-Authentication` header naming
 * it, or a bearer token issued to it — as DocuSign's Apps and Keys page asks
 * an administrator of the owning account to sign in. And they are off on a
 * sandbox reachable from the network (`serve --public-url`) unless it was
 * started with `--allow-key-generation`.
 */
export function rsaKeyRoutes(store: OAuthStore): FastifyPluginAsync {
  return async (app) => {
    app.post<{ Params: { integrationKey: string } }>(
      '/sandbox/integrations/:integrationKey/rsa-keys',
      async (request, reply) => {
        const { sandbox } = request.server;
        const { integrationKey } = request.params;
        await authorised(request, integrationKey);
        const body = request.body;
        const now = sandbox.clock.now();
        void reply.status(201).header('cache-control', 'no-store');
        if (body === undefined || (typeof body === 'object' && body !== null && Object.keys(body).length === 0)) {
          const pair = await generateRsaKeyPair('rsa', {
            modulusLength: minRsaKeyBits,
            publicKeyEncoding: { type: 'spki', format: 'pem' },
            privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
          });
          const record = store.addRsaKey(integrationKey, pair.publicKey, now);
          return { keypairId: record.keypairId, publicKey: record.publicKeyPem, privateKey: pair.privateKey };
        }
        const publicKey = (body as { publicKey?: unknown }).publicKey;
        if (typeof publicKey !== 'string')
          throw apiErrors.invalidBody('Send no body (to generate a key pair) or { "publicKey": "<PEM>" }.');
        const record = store.addRsaKey(integrationKey, normalisedRsaPublicKey(publicKey), now);
        return { keypairId: record.keypairId, publicKey: record.publicKeyPem };
      },
    );

    // A secret key for the authorization code grant without PKCE (what the
    // SDKs' generateAccessToken sends as HTTP Basic); shown once, kept as sha256.
    app.post<{ Params: { integrationKey: string } }>(
      '/sandbox/integrations/:integrationKey/secrets',
      async (request, reply) => {
        const { sandbox } = request.server;
        const { integrationKey } = request.params;
        await authorised(request, integrationKey);
        void reply.status(201).header('cache-control', 'no-store');
        return store.addSecret(integrationKey, sandbox.clock.now());
      },
    );
  };
}

/**
 * Throws unless this sandbox registers keys at all (KEY_GENERATION_DISABLED,
 * 403), the caller authenticates (USER_AUTHENTICATION_FAILED, 401), the key
 * exists (INTEGRATOR_KEY_NOT_FOUND, 404), and the caller signed in with this
 * integration key as a user of an account of the seed (USER_LACKS_PERMISSIONS, 403).
 */
async function authorised(request: FastifyRequest, integrationKey: string): Promise<void> {
  const { sandbox } = request.server;
  if (!sandbox.config.keyRegistration) {
    throw new ApiError(
      403,
      'KEY_GENERATION_DISABLED',
      'This sandbox was started with --public-url: it makes and registers no keys for clients on the network. Start it with --allow-key-generation to allow it (docs/sandbox.md, "On a network").',
    );
  }
  const principal = await sandbox.auth.authenticate(request.headers);
  if (!sandbox.accounts.hasIntegratorKey(integrationKey)) throw unknownIntegrationKey(integrationKey);
  if (principal.integratorKey !== integrationKey || principal.account.parentAccountId !== null) {
    throw new ApiError(
      403,
      'USER_LACKS_PERMISSIONS',
      "This user does not have sufficient permissions: keys of an integration key are made by a user of an account that owns it (the seed's accounts), signed in with that integration key.",
    );
  }
}

function unknownIntegrationKey(integrationKey: string): ApiError {
  return new ApiError(
    404,
    'INTEGRATOR_KEY_NOT_FOUND',
    `The integration key ${JSON.stringify(integrationKey)} is not known to this sandbox (the seed's integratorKeys lists them).`,
  );
}

/** The key as SPKI PEM; INVALID_REQUEST_BODY when it is not an RSA public key of 2048 bits or more. */
function normalisedRsaPublicKey(pem: string): string {
  let key;
  try {
    key = createPublicKey(pem);
  } catch {
    throw apiErrors.invalidBody('publicKey is not a PEM public key (-----BEGIN PUBLIC KEY-----).');
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa' || bits < minRsaKeyBits)
    throw apiErrors.invalidBody(`publicKey must be an RSA key of ${minRsaKeyBits} bits or more.`);
  return key.export({ type: 'spki', format: 'pem' }).toString();
}
