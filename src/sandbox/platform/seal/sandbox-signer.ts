import forge from 'node-forge';
import { Signer } from '@signpdf/signpdf';

/**
 * A CMS (PKCS#7) detached signer over a PKCS#12 that is decrypted ONCE.
 * @signpdf/signer-p12 decrypts the PKCS#12 (pure-JS PBKDF and 3DES) on every
 * signature, about 200 ms per document on this machine; an envelope of ten
 * documents would keep its last signer waiting seconds. The CMS built here is
 * the same as signer-p12's: SHA-256, authenticated attributes contentType,
 * signingTime, messageDigest in that order (Adobe adbe.pkcs7.detached / EU DSS).
 */
export class SandboxSigner extends Signer {
  private readonly key: forge.pki.rsa.PrivateKey;
  private readonly certificate: forge.pki.Certificate;
  private readonly chain: forge.pki.Certificate[];

  constructor(p12: Buffer, passphrase: string) {
    super();
    const parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(p12.toString('binary')), false, passphrase);
    const keyBagType = forge.pki.oids.pkcs8ShroudedKeyBag!;
    const certBagType = forge.pki.oids.certBag!;
    const keyBag = parsed.getBags({ bagType: keyBagType })[keyBagType]?.[0];
    const certBags: forge.pkcs12.Bag[] = parsed.getBags({ bagType: certBagType })[certBagType] ?? [];
    const key = keyBag?.key;
    if (key === undefined) throw new Error('the sealing PKCS#12 holds no private key');
    this.chain = certBags.flatMap((b) => (b.cert === undefined ? [] : [b.cert]));
    const own = this.chain.find((c) => {
      const pub = c.publicKey as forge.pki.rsa.PublicKey;
      return pub.n.compareTo(key.n) === 0 && pub.e.compareTo(key.e) === 0;
    });
    if (own === undefined) throw new Error('the sealing PKCS#12 holds no certificate for its key');
    this.key = key;
    this.certificate = own;
  }

  override async sign(pdfBuffer: Buffer, signingTime?: Date): Promise<Buffer> {
    const p7 = forge.pkcs7.createSignedData();
    p7.content = forge.util.createBuffer(pdfBuffer.toString('binary'));
    for (const cert of this.chain) p7.addCertificate(cert);
    p7.addSigner({
      key: this.key,
      certificate: this.certificate,
      digestAlgorithm: forge.pki.oids.sha256!,
      authenticatedAttributes: [
        { type: forge.pki.oids.contentType!, value: forge.pki.oids.data! },
        { type: forge.pki.oids.signingTime!, value: (signingTime ?? new Date()) as unknown as string },
        { type: forge.pki.oids.messageDigest! },
      ],
    });
    p7.sign({ detached: true });
    return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
  }
}
