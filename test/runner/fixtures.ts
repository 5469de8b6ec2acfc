import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ResolvedAccount, ResolvedDocument, ResolvedEnvelope, ResolvedRecipient } from '../../src/jobs/model.js';
import { makeSecret } from '../../src/secret.js';

/** Real PDFs of the examples, resolved as jobs/ would resolve them. */
export function documentFixture(
  documentId: string,
  file: 'offer-letter.pdf' | 'company-handbook.pdf' | 'renewal-terms.pdf',
): ResolvedDocument {
  const path = fileURLToPath(new URL(`../../examples/docs/${file}`, import.meta.url));
  const bytes = readFileSync(path);
  return {
    documentId,
    name: file,
    path,
    fileExtension: 'pdf',
    size: statSync(path).size,
    pageCount: 2,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

export function signerFixture(recipientId: string, extra: Partial<ResolvedRecipient> = {}): ResolvedRecipient {
  return {
    kind: 'signer',
    recipientId,
    name: `Signer ${recipientId}`,
    email: `signer${recipientId}@example.com`,
    clientUserId: `c-${recipientId}`,
    tabs: [],
    written: ['recipients', Number(recipientId) - 1],
    ...extra,
  };
}

/** A documents envelope; the digest follows the content so that a change is drift. */
export function envelopeFixture(key: string, extra: Partial<ResolvedEnvelope> = {}): ResolvedEnvelope {
  const base: ResolvedEnvelope = {
    job: 'runner-test',
    key,
    source: { file: '/jobs/runner-test.yaml', line: 5, column: 5 },
    emailSubject: `Please sign ${key}`,
    status: 'sent',
    returnUrl: 'https://example.com/done',
    kind: 'documents',
    documents: [documentFixture('1', 'offer-letter.pdf'), documentFixture('2', 'company-handbook.pdf')],
    recipients: [signerFixture('1'), signerFixture('2')],
    templateRoles: [],
    digest: '',
    ...extra,
  };
  base.digest =
    extra.digest ??
    createHash('sha256')
      .update(JSON.stringify({ ...base, digest: '' }))
      .digest('hex');
  return base;
}

export function accountFixture(key: string, extra: Partial<ResolvedAccount> = {}): ResolvedAccount {
  return {
    job: 'runner-test',
    key,
    source: { file: '/jobs/runner-test.yaml', line: 20, column: 5 },
    state: 'present',
    accountName: `Subsidiary ${key}`,
    initialUser: {
      email: `${key}@sub.example.com`,
      firstName: 'Ada',
      lastName: 'Martin',
      password: makeSecret(`pw-${key}-secret`),
    },
    planInformation: { planId: 'sandbox-plan' },
    ...extra,
  };
}
