import { sandboxFetch } from './injected-sandbox.js';
import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { defaultSeedIds } from '../../../src/sandbox/seed/default-seed.js';

export const jwtBearer = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Claims of a JWT grant assertion; each may be overridden (or removed with undefined) to provoke an error. */
export interface AssertionClaims {
  iss?: string | undefined;
  sub?: string | undefined;
  aud?: string | undefined;
  scope?: string | undefined;
  /** Seconds since the epoch. */
  iat?: number | undefined;
  exp?: number | undefined;
}

/** An RS256 assertion as DocuSign's clients build it (jose, a PKCS#1 or PKCS#8 PEM key). */
export async function signAssertion(
  privateKeyPem: string,
  claims: AssertionClaims,
  nowMs = Date.now(),
): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  const full: Record<string, unknown> = {
    iss: 'sandbox-integrator-key',
    sub: defaultSeedIds.userId,
    scope: 'signature impersonation',
    iat,
    exp: iat + 3600,
    ...claims,
  };
  for (const [k, v] of Object.entries(full)) if (v === undefined) delete full[k];
  return new SignJWT(full).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(createPrivateKey(privateKeyPem));
}

/** POST /oauth/token with a form body; the JSON answer and status. */
export async function tokenRequest(
  origin: string,
  fields: Record<string, string>,
): Promise<{ status: number; json: any }> {
  const response = await sandboxFetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, json: await response.json() };
}

/**
 * The seed user signed in with the legacy header for `integrationKey`: what
 * POST /sandbox/integrations/{key}/rsa-keys and …/secrets ask (issue 25).
 */
export function seedUserHeaders(
  integrationKey = 'sandbox-integrator-key',
  user: { username: string; password: string } = { username: 'sandbox@signrun.test', password: 'sandbox-password' },
): Record<string, string> {
  return {
    'x-docusign-authentication': JSON.stringify({
      Username: user.username,
      Password: user.password,
      IntegratorKey: integrationKey,
    }),
  };
}

/** A new key pair on an integration key (POST /sandbox/integrations/{key}/rsa-keys, signed in as the seed user). */
export async function newKeyPair(
  origin: string,
  integrationKey = 'sandbox-integrator-key',
  user?: { username: string; password: string },
): Promise<{ keypairId: string; publicKey: string; privateKey: string }> {
  const response = await sandboxFetch(`${origin}/sandbox/integrations/${encodeURIComponent(integrationKey)}/rsa-keys`, {
    method: 'POST',
    headers: seedUserHeaders(integrationKey, user),
  });
  if (response.status !== 201) throw new Error(`rsa-keys answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { keypairId: string; publicKey: string; privateKey: string };
}
