import { describe, expect, it } from 'vitest';
import { slugOf, templateJobFile } from '../../src/jobs/template-job-file.js';
import type { EnvelopeTemplate } from '../../src/envelope/wire.js';

const options = { key: 'k', job: 'j', templateId: 't-1', documentsFolder: 'templates/k' };

describe('templateJobFile (signrun import template)', () => {
  it('slugs names into keys and job names', () => {
    expect(slugOf('NDA — mutual (2026)')).toBe('nda-mutual-2026');
    expect(slugOf('Contrat de travail à durée déterminée')).toBe('contrat-de-travail-a-duree-determinee');
    expect(slugOf('——')).toBe('template');
    expect(slugOf('x'.repeat(150))).toHaveLength(100);
  });

  it('writes documents as safe, distinct PDF file names; a documentId only when not the default', () => {
    const { job, documents, problems } = templateJobFile(
      {
        name: 'T',
        documents: [
          { documentId: '1', name: 'a/b:c.docx' },
          { documentId: '3', name: 'B-C.pdf' },
          { documentId: '4', name: '' },
        ],
      },
      options,
    );
    expect(problems).toEqual([]);
    expect(documents.map((d) => d.file)).toEqual([
      'templates/k/b-c.pdf',
      'templates/k/B-C-3.pdf',
      'templates/k/document-4.pdf',
    ]);
    expect(job.templates![0]!.documents).toEqual([
      { name: 'a/b:c.docx', file: 'templates/k/b-c.pdf' },
      { name: 'B-C.pdf', file: 'templates/k/B-C-3.pdf', documentId: 3 },
      { name: 'document-4', file: 'templates/k/document-4.pdf', documentId: 4 },
    ]);
  });

  it('keeps recipientIds only when they are not 1, 2, … in order, and the message fields of each role', () => {
    const { job } = templateJobFile(
      {
        name: 'T',
        recipients: {
          signers: [
            {
              recipientId: '5',
              roleName: 'a',
              routingOrder: '2',
              emailNotification: { emailSubject: 'Hi', supportedLanguage: 'fr' },
              note: 'n',
              status: 'created',
              recipientIdGuid: 'x',
            },
          ],
          witnesses: [{ recipientId: '6', roleName: 'w', witnessFor: '5' }],
        },
      },
      options,
    );
    expect(job.templates![0]!.recipients).toEqual({
      signers: [
        { roleName: 'a', routingOrder: 2, recipientId: 5, note: 'n', emailSubject: 'Hi', supportedLanguage: 'fr' },
      ],
      witnesses: [{ roleName: 'w', recipientId: 6, witnessFor: '5' }],
    });
  });

  it('refuses what a job file cannot say: no roleName, unmodelled kinds, `${`, a documentId that is no number', () => {
    const { problems } = templateJobFile(
      {
        name: 'Price ${amount}',
        documents: [{ documentId: 'abc', name: 'x.pdf' }],
        recipients: {
          signers: [{ recipientId: '1', tabs: { someFutureTabs: [{ documentId: '1' }] } }],
          notaries: [{ recipientId: '2', roleName: 'n' }],
        },
      } as unknown as EnvelopeTemplate,
      options,
    );
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toMatch(/name holds/);
    expect(problems.join('\n')).toMatch(/documentId "abc"/);
    expect(problems.join('\n')).toMatch(/no roleName/);
    expect(problems.join('\n')).toMatch(/notaries: a kind of recipient/);
    expect(problems.join('\n')).toMatch(/someFutureTabs: a kind of tab/);
  });
});
