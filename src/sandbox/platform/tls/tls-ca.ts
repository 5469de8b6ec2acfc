import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type Forge from 'node-forge';
import { nodeForge } from '../node-forge.js';

/**
 * The CA behind `signrun serve --tls`: a self-signed root whose certificate
 * clients are told to trust (`GET /sandbox/ca.pem`, then
 * `NODE_EXTRA_CA_CERTS=ca.pem`), and a server certificate it issues at each
 * start for the names the sandbox answers to. Separate from the sealing CA
 * (seal/sandbox-ca.ts), which keeps no root key: this one must issue again
 * on every start, so its key is kept — mode 0600 in a 0700 folder.
 */
export interface TlsCa {
  certPem: string;
  keyPem: string;
}

/** The server's key and certificate (issued by the CA), and the CA's certificate for clients. */
export interface TlsServerCredentials {
  key: string;
  cert: string;
  caCertPem: string;
}

/** Where the CA lives inside the data folder. */
export const tlsFolderName = 'tls';
const certFile = 'sandbox-tls-ca.pem';
const keyFile = 'sandbox-tls-ca.key';

/** Where the CA certificate of a data folder is (what clients point NODE_EXTRA_CA_CERTS at). */
export function tlsCaCertPath(dataDir: string): string {
  return join(dataDir, tlsFolderName, certFile);
}

const caName = [
  { name: 'commonName', value: 'signrun sandbox TLS CA' },
  { name: 'organizationName', value: 'signrun sandbox (local testing only)' },
];

/**
 * Loads the CA from `<dataDir>/tls/`, creating it on first start, so that a
 * client told to trust it once keeps trusting the sandbox across restarts.
 * Without a data folder the CA lives in memory (a new one each start).
 */
export function loadOrCreateTlsCa(dataDir?: string): TlsCa {
  if (dataDir === undefined) return createTlsCa();
  const dir = join(dataDir, tlsFolderName);
  const certPath = join(dir, certFile);
  const keyPath = join(dir, keyFile);
  if (existsSync(certPath) && existsSync(keyPath)) {
    // A key copied in with looser rights is tightened, not trusted as is.
    chmodSync(keyPath, 0o600);
    return { certPem: readFileSync(certPath, 'utf8'), keyPem: readFileSync(keyPath, 'utf8') };
  }
  const ca = createTlsCa();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Key first, certificate last: the CA is complete only when both exist.
  writeWhole(keyPath, ca.keyPem, 0o600);
  writeWhole(certPath, ca.certPem, 0o644);
  return ca;
}

/** A new root, valid ten years. */
export function createTlsCa(now: Date = new Date()): TlsCa {
  const forge = nodeForge();
  const keys = rsaKeyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + 10 * 365 * 24 * 3600 * 1000);
  cert.setSubject(caName);
  cert.setIssuer(caName);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: forge.pki.privateKeyToPem(keys.privateKey) };
}

/**
 * The names a server certificate covers: the listening host, loopback under
 * its three usual names, and the machine's name when listening on every
 * address (so other machines can reach it by name).
 */
export function serverNames(host: string): string[] {
  const names = new Set(['localhost', '127.0.0.1', '::1']);
  if (host === '0.0.0.0' || host === '::') names.add(hostname());
  else names.add(host);
  return [...names];
}

/** A server certificate for `names` (DNS names or IP addresses), issued by the CA, valid one year; a fresh key each time. */
export function issueServerCertificate(
  ca: TlsCa,
  names: readonly string[],
  now: Date = new Date(),
): TlsServerCredentials {
  const forge = nodeForge();
  const keys = rsaKeyPair();
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const caKey = forge.pki.privateKeyFromPem(ca.keyPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + 365 * 24 * 3600 * 1000);
  cert.setSubject([{ name: 'commonName', value: names[0] ?? 'localhost' }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      // type 7: IP address, 2: DNS name (RFC 5280).
      altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })),
    },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return {
    key: forge.pki.privateKeyToPem(keys.privateKey),
    cert: forge.pki.certificateToPem(cert),
    caCertPem: ca.certPem,
  };
}

function writeWhole(path: string, data: string, mode: number): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, data, { mode });
  renameSync(tmp, path);
}

// Node's native generator: forge's pure-JS RSA takes seconds per key.
function rsaKeyPair(): { publicKey: Forge.pki.rsa.PublicKey; privateKey: Forge.pki.rsa.PrivateKey } {
  const forge = nodeForge();
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: forge.pki.publicKeyFromPem(publicKey), privateKey: forge.pki.privateKeyFromPem(privateKey) };
}

// Positive, 128 bits, as RFC 5280 asks.
function serial(): string {
  return `01${randomBytes(15).toString('hex')}`;
}
