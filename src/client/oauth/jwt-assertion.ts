import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { Secret } from '../../secret.js';

/** The scopes signrun asks for: the eSignature API, acting for the configured user. */
export const jwtScopes = 'signature impersonation';

/** What an RS256 assertion of DocuSign's JWT grant says. */
export interface AssertionClaims {
  /** `iss`: the integration key (client id). */
  integrationKey: string;
  /** `sub`: the user's API user id (a GUID). */
  userId: string;
  /** `aud`: the account server's host. */
  audience: string;
  scope: string;
  /** Seconds since the epoch, for `iat`. */
  issuedAt: number;
  /** Lifetime of the assertion; DocuSign allows at most one hour. */
  lifetimeSeconds: number;
}

/**
 * Reads a PEM private key (PKCS#1 `BEGIN RSA PRIVATE KEY`, as DocuSign's
 * settings page gives it, or PKCS#8). Throws a plain Error without the key's
 * text when it cannot; the caller names the source.
 */
export function readPrivateKey(pem: Secret): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem.reveal(), format: 'pem' });
  } catch {
    throw new Error('it is not a PEM private key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`it is a ${key.asymmetricKeyType ?? 'non-RSA'} key, not RSA`);
  return key;
}

/** Signs the grant's assertion with jose (RS256), as DocuSign's JWT grant asks. */
export async function signAssertion(claims: AssertionClaims, key: KeyObject): Promise<string> {
  // Loaded on first signing: reading the configuration (readPrivateKey, from
  // validate, plan and status too) does not need jose's ~50 modules.
  const { SignJWT } = await import('jose');
  return new SignJWT({ scope: claims.scope })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(claims.integrationKey)
    .setSubject(claims.userId)
    .setAudience(claims.audience)
    .setIssuedAt(claims.issuedAt)
    .setExpirationTime(claims.issuedAt + claims.lifetimeSeconds)
    .sign(key);
}
