import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type Forge from 'node-forge';
import { nodeForge } from '../node-forge.js';

/**
 * The sandbox's own certificate authority: a self-signed root and one
 * document-sealing certificate issued by it. Sealed PDFs carry the sealing
 * certificate and the root, so a verifier sees a complete chain that it does
 * not trust (nobody trusts this root: it is a sandbox).
 */
export interface SandboxCa {
  /** The root certificate, PEM. Import it to make viewers trust sealed PDFs. */
  rootCertPem: string;
  /** The sealing certificate (issued by the root), PEM. */
  sealingCertPem: string;
  /** PKCS#12 holding the sealing key, its certificate and the root. */
  p12: Buffer;
  /** Passphrase of `p12`. Random per CA, stored beside it in the data folder. */
  passphrase: string;
}

/** Where the CA lives inside the data folder. */
export const caFolderName = 'ca';

const rootFile = 'sandbox-root-ca.pem';
const sealingFile = 'sandbox-sealing.pem';
const p12File = 'sandbox-sealing.p12';
const passFile = 'sandbox-sealing.pass';

/**
 * The in-memory sandboxes' CA: made at the first seal in this process, lost
 * when it exits. Its two RSA keys and PKCS#12 cost 0.3–0.8 s of CPU; a
 * process that starts many in-memory sandboxes (the test suite, a library
 * user) would pay that at every one's first seal for a CA nothing keeps.
 */
let inMemoryCa: SandboxCa | undefined;

/**
 * Loads the CA kept in `<dataDir>/ca/`, creating it on first start. Without a
 * data folder (in-memory sandbox) the process's in-memory CA, made once and
 * lost on exit. Files are written whole (temp + rename), keys with mode 0600.
 */
export function loadOrCreateSandboxCa(dataDir?: string): SandboxCa {
  if (dataDir === undefined) return (inMemoryCa ??= createSandboxCa());
  const dir = join(dataDir, caFolderName);
  const paths = [rootFile, sealingFile, p12File, passFile].map((f) => join(dir, f));
  if (paths.every((p) => existsSync(p))) {
    const [root, sealing, p12, pass] = paths as [string, string, string, string];
    return {
      rootCertPem: readFileSync(root, 'utf8'),
      sealingCertPem: readFileSync(sealing, 'utf8'),
      p12: readFileSync(p12),
      passphrase: readFileSync(pass, 'utf8').trim(),
    };
  }
  const ca = createSandboxCa();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The passphrase and the p12 last: a CA folder is complete only when all
  // four files exist, so a crash half-way makes the next start create a new one.
  writeWhole(join(dir, rootFile), ca.rootCertPem, 0o644);
  writeWhole(join(dir, sealingFile), ca.sealingCertPem, 0o644);
  writeWhole(join(dir, p12File), ca.p12, 0o600);
  writeWhole(join(dir, passFile), ca.passphrase, 0o600);
  return ca;
}

function writeWhole(path: string, data: string | Buffer, mode: number): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, data, { mode });
  renameSync(tmp, path);
}

/** Creates a fresh root + sealing certificate pair, valid ten years. */
export function createSandboxCa(now: Date = new Date()): SandboxCa {
  const forge = nodeForge();
  const rootKeys = rsaKeyPair();
  const sealKeys = rsaKeyPair();
  const notAfter = new Date(now.getTime() + 10 * 365 * 24 * 3600 * 1000);
  const notBefore = new Date(now.getTime() - 60_000);

  const rootName = [
    { name: 'commonName', value: 'signrun sandbox root CA' },
    { name: 'organizationName', value: 'signrun sandbox (not trusted)' },
  ];
  const root = forge.pki.createCertificate();
  root.publicKey = rootKeys.publicKey;
  root.serialNumber = serial();
  root.validity.notBefore = notBefore;
  root.validity.notAfter = notAfter;
  root.setSubject(rootName);
  root.setIssuer(rootName);
  root.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  root.sign(rootKeys.privateKey, forge.md.sha256.create());

  const sealing = forge.pki.createCertificate();
  sealing.publicKey = sealKeys.publicKey;
  sealing.serialNumber = serial();
  sealing.validity.notBefore = notBefore;
  sealing.validity.notAfter = notAfter;
  sealing.setSubject([
    { name: 'commonName', value: 'signrun sandbox document sealing' },
    { name: 'organizationName', value: 'signrun sandbox (not trusted)' },
  ]);
  sealing.setIssuer(rootName);
  sealing.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: root.generateSubjectKeyIdentifier().getBytes() },
  ]);
  sealing.sign(rootKeys.privateKey, forge.md.sha256.create());

  const passphrase = randomBytes(24).toString('base64url');
  const asn1 = forge.pkcs12.toPkcs12Asn1(sealKeys.privateKey, [sealing, root], passphrase, {
    algorithm: '3des',
    friendlyName: 'signrun sandbox sealing',
  });
  const p12 = Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
  return {
    rootCertPem: forge.pki.certificateToPem(root),
    sealingCertPem: forge.pki.certificateToPem(sealing),
    p12,
    passphrase,
  };
}

// Node's native generator: forge's pure-JS RSA takes seconds per key.
function rsaKeyPair(): { publicKey: Forge.pki.rsa.PublicKey; privateKey: Forge.pki.rsa.PrivateKey } {
  const forge = nodeForge();
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    publicKey: forge.pki.publicKeyFromPem(publicKey),
    privateKey: forge.pki.privateKeyFromPem(privateKey),
  };
}

// Positive (leading 0 nibble avoided by prefixing 01), 128 bits, as RFC 5280 asks.
function serial(): string {
  return `01${randomBytes(15).toString('hex')}`;
}
