import { describe, expect, it } from 'vitest';
import { matchArchive } from '../../src/sync/archive-files.js';
import { archiveEntryNames } from '../../src/envelope/index.js';

// Which file of an archive is which document (issue 24 item 2): by the
// names DocuSign gives the files, never by a guess.

const entry = (name: string) => ({ name, bytes: Buffer.from(name) });
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString();

describe('archiveEntryNames', () => {
  it('names each document by its name as a PDF, repeats with [n], and the certificate Summary.pdf', () => {
    expect(archiveEntryNames(['offer.pdf', 'annex', 'offer.pdf', 'a/b:c.docx', 'Summary.pdf'])).toEqual({
      documents: ['offer.pdf', 'annex.pdf', 'offer[1].pdf', 'a_b_c.docx.pdf', 'Summary.pdf'],
      certificate: 'Summary[1].pdf',
    });
  });
});

describe('matchArchive', () => {
  const documents = [
    { documentId: '1', name: 'offer.pdf' },
    { documentId: '7', name: 'annex' },
    { documentId: '3', name: 'offer.pdf' },
  ];

  it('matches each document to its file by name, in the envelope order, whatever the order in the ZIP', () => {
    const matched = matchArchive(
      [entry('Summary.pdf'), entry('offer[1].pdf'), entry('annex.pdf'), entry('offer.pdf')],
      documents,
    );
    expect(matched?.documents.map((d) => [d.document.documentId, text(d.bytes)])).toEqual([
      ['1', 'offer.pdf'],
      ['7', 'annex.pdf'],
      ['3', 'offer[1].pdf'],
    ]);
    expect(text(matched!.certificate)).toBe('Summary.pdf');
  });

  it('takes the one file left as the certificate when it has another name, case and folders aside', () => {
    const matched = matchArchive(
      [entry('env/OFFER.pdf'), entry('env/annex.PDF'), entry('env/offer[1].pdf'), entry('env/Certificate.pdf')],
      documents,
    );
    expect(text(matched!.certificate)).toBe('env/Certificate.pdf');
  });

  it('gives up (the caller downloads each document) when a document is missing or the certificate is unclear', () => {
    expect(matchArchive([entry('offer.pdf'), entry('annex.pdf'), entry('Summary.pdf')], documents)).toBeUndefined();
    expect(
      matchArchive(
        [entry('offer.pdf'), entry('annex.pdf'), entry('offer[1].pdf'), entry('x.pdf'), entry('y.pdf')],
        documents,
      ),
    ).toBeUndefined();
    expect(
      matchArchive([entry('a/offer.pdf'), entry('b/offer.pdf'), entry('Summary.pdf')], [documents[0]!]),
    ).toBeUndefined();
    // A file more than the documents and the certificate: a document the list does not know of.
    expect(
      matchArchive(
        [entry('offer.pdf'), entry('annex.pdf'), entry('offer[1].pdf'), entry('extra.pdf'), entry('Summary.pdf')],
        documents,
      ),
    ).toBeUndefined();
  });
});
