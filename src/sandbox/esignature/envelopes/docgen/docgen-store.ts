import { randomUUID } from 'node:crypto';
import type { DocGenFormField } from '../../../../envelope/index.js';
import type { BlobStore } from '../../../platform/db/blob-store.js';
import { sha256Hex } from '../../../platform/db/blob-store.js';
import type { SandboxDatabase } from '../../../platform/db/open-database.js';
import type { DocumentRecord } from '../repository.js';

/** One DocGen document of an envelope, as the sandbox keeps it (table `envelope_docgen_documents`). */
export interface EnvelopeDocGenDocument {
  documentId: string;
  /** The document's GUID as DocGen names it (`DocGenFormFields.documentId`); a new one each time the letter is generated. */
  documentIdGuid: string;
  docxSha256: string;
  /** The values set (PUT docGenFormFields), or null while none were. */
  fields: DocGenFormField[] | null;
  /** Whether the PDF the envelope shows is the letter generated from `fields`. */
  generated: boolean;
}

export type DocGenStore = ReturnType<typeof createDocGenStore>;

const stores = new WeakMap<SandboxDatabase, DocGenStore>();

/**
 * DocuSign's Document Generation as the sandbox keeps it. A DocGen DOCX not
 * generated yet is kept as a PDF like any document (its rendition, marked as
 * a draft, pdf/document-intake.ts) and its DOCX beside it, found by that
 * PDF's sha256: a template's document carries its DOCX into every envelope
 * made from it without the template or the composites knowing of DocGen.
 * An envelope's DocGen documents are those whose original PDF is such a
 * draft; their row (GUID, values) is made the first time one is asked for.
 */
export function docGenStore(db: SandboxDatabase, blobs: BlobStore): DocGenStore {
  let store = stores.get(db);
  if (!store) {
    store = createDocGenStore(db, blobs);
    stores.set(db, store);
  }
  return store;
}

interface Row {
  document_id: string;
  document_id_guid: string;
  docx_sha256: string;
  fields_json: string | null;
  generated: number;
}

function createDocGenStore(db: SandboxDatabase, blobs: BlobStore) {
  const q = {
    insertSource: db.prepare('INSERT OR IGNORE INTO docgen_sources (pdf_sha256, docx_sha256) VALUES (?, ?)'),
    source: db.prepare<[string], { docx_sha256: string }>(
      'SELECT docx_sha256 FROM docgen_sources WHERE pdf_sha256 = ?',
    ),
    rows: db.prepare<[string], Row>(
      'SELECT document_id, document_id_guid, docx_sha256, fields_json, generated FROM envelope_docgen_documents WHERE envelope_id = ?',
    ),
    insertRow: db.prepare(
      `INSERT OR IGNORE INTO envelope_docgen_documents (envelope_id, document_id, document_id_guid, docx_sha256, fields_json, generated)
       VALUES (?, ?, ?, ?, NULL, 0)`,
    ),
    updateRow: db.prepare(
      `UPDATE envelope_docgen_documents SET document_id_guid = ?, fields_json = ?, generated = ?
       WHERE envelope_id = ? AND document_id = ?`,
    ),
    // The generated letter is the document as sent: a draft has no stamp, so its original is the letter too.
    replaceDraftDocument: db.prepare(
      `UPDATE envelope_documents SET sha256 = ?, original_sha256 = ?, size = ?, pages = ?
       WHERE envelope_id = ? AND document_id = ?`,
    ),
  };
  const toDocument = (r: Row): EnvelopeDocGenDocument => ({
    documentId: r.document_id,
    documentIdGuid: r.document_id_guid,
    docxSha256: r.docx_sha256,
    fields: r.fields_json === null ? null : (JSON.parse(r.fields_json) as DocGenFormField[]),
    generated: r.generated === 1,
  });

  return {
    /** Keeps a DocGen draft's DOCX beside the PDF the sandbox shows of it (document-intake.ts's keepSource). */
    keepSource(pdf: Buffer, docx: Buffer): void {
      q.insertSource.run(sha256Hex(pdf), blobs.put(docx));
    },
    /** Whether a PDF the sandbox keeps is a DocGen draft (its DOCX kept beside it). */
    isDraftPdf(sha256: string): boolean {
      return q.source.get(sha256) !== undefined;
    },
    /** The envelope's DocGen documents in the envelope's order (rows made for those asked for the first time). */
    documents(envelopeId: string, documents: readonly DocumentRecord[]): EnvelopeDocGenDocument[] {
      const rows = new Map(q.rows.all(envelopeId).map((r) => [r.document_id, r]));
      const out: EnvelopeDocGenDocument[] = [];
      for (const d of documents) {
        let row = rows.get(d.documentId);
        if (row === undefined) {
          const source = q.source.get(d.originalSha256);
          if (source === undefined) continue;
          q.insertRow.run(envelopeId, d.documentId, randomUUID(), source.docx_sha256);
          row = q.rows.all(envelopeId).find((r) => r.document_id === d.documentId)!;
        }
        out.push(toDocument(row));
      }
      return out;
    },
    /** Records the values of a DocGen document, and whether the letter was generated from them (then a new GUID). */
    setFields(
      envelopeId: string,
      document: EnvelopeDocGenDocument,
      fields: DocGenFormField[],
      generated: boolean,
    ): void {
      const guid = generated ? randomUUID() : document.documentIdGuid;
      q.updateRow.run(guid, JSON.stringify(fields), generated ? 1 : 0, envelopeId, document.documentId);
    },
    /** Points a draft's document at its generated letter (bytes already in the blob store). */
    replaceDraftDocument(
      envelopeId: string,
      documentId: string,
      sha256: string,
      size: number,
      pages: number | null,
    ): void {
      q.replaceDraftDocument.run(sha256, sha256, size, pages, envelopeId, documentId);
    },
  };
}
