import { envelopeParams, documentParams } from '../../route-schemas.js';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { envelopeOf, type EnvelopeParams } from '../../request-helpers.js';
import { apiErrors } from '../../../platform/http/api-error.js';
import type { EnvelopeRecord, DocumentRecord } from '../repository.js';
import type { CertificateInput } from './certificate.js';
import { envelopeArchive } from './envelope-archive.js';
import { envelopeDocumentJson } from '../wire/envelope-json.js';
import { contentDisposition } from '../../../platform/http/content-disposition.js';

/**
 * Documents with their page counts: the count stored at creation, else the
 * one remembered for the same bytes (pdf/page-counts.ts), else computed now
 * and stored on the row.
 */
async function documentsWithPages(
  request: FastifyRequest,
  envelope: EnvelopeRecord,
): Promise<Array<DocumentRecord & { pages: number }>> {
  const { sandbox } = request.server;
  const documents = sandbox.envelopes.documents(envelope.id);
  return Promise.all(
    documents.map(async (d) => {
      if (d.pages !== null) return { ...d, pages: d.pages };
      const known = sandbox.pageCounts.known(d.sha256);
      if (known !== undefined) return { ...d, pages: known };
      const pages = await sandbox.pageCounts.count(d.sha256, () => sandbox.blobs.get(d.sha256));
      sandbox.envelopes.setPages(envelope.id, d.documentId, pages);
      return { ...d, pages };
    }),
  );
}

/** What the certificate of completion states of the envelope now. */
async function certificateInput(request: FastifyRequest, envelope: EnvelopeRecord): Promise<CertificateInput> {
  const { sandbox } = request.server;
  return {
    envelope,
    documents: await documentsWithPages(request, envelope),
    recipients: sandbox.envelopes.recipients(envelope.id),
    events: sandbox.eventsTable.ofEnvelope(envelope.id),
  };
}

/**
 * The certificate, written on the pool: it lays out what clients wrote (names,
 * subjects, every event of thousands of recipients), which must not hold the
 * event loop (issue 36).
 */
async function certificateOf(request: FastifyRequest, envelope: EnvelopeRecord): Promise<Buffer> {
  return request.server.sandbox.documentWork.certificate(await certificateInput(request, envelope));
}

function pdfName(name: string): string {
  const base = name.replace(/["\\\r\n]/g, '_');
  return base.toLowerCase().endsWith('.pdf') ? base : `${base}.pdf`;
}

/**
 * Documents (4.8–4.10): the list (Documents_GetDocuments →
 * #/definitions/envelopeDocumentsResult, with the certificate entry as
 * DocuSign lists it), and downloads (Documents_GetDocument) of each
 * document's current version, `certificate`, `combined` (one PDF, made on
 * the document pool),
 * `archive` (a ZIP of every document and the certificate, application/zip:
 * src/sandbox/esignature/envelopes/documents/envelope-archive.ts) and `portfolio` (a PDF portfolio:
 * src/sandbox/esignature/envelopes/documents/portfolio.ts).
 */
export const documentRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: EnvelopeParams }>(
    '/accounts/:accountId/envelopes/:envelopeId/documents',
    { schema: envelopeParams },
    async (request) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      const documents = await documentsWithPages(request, envelope);
      const uri = `/envelopes/${envelope.id}/documents`;
      return {
        envelopeId: envelope.id,
        envelopeDocuments: [
          ...documents.map((d, i) => envelopeDocumentJson(envelope.id, d, i + 1, d.pages)),
          {
            documentId: 'certificate',
            name: 'Summary',
            type: 'summary',
            uri: `${uri}/certificate`,
            order: String(documents.length + 1),
            display: 'inline',
            includeInDownload: 'true',
            signerMustAcknowledge: 'no_interaction',
            authoritativeCopy: 'false',
            availableDocumentTypes: [{ type: 'electronic', isDefault: 'true' }],
          },
        ],
      };
    },
  );

  app.get<{ Params: EnvelopeParams & { documentId: string }; Querystring: { certificate?: string } }>(
    '/accounts/:accountId/envelopes/:envelopeId/documents/:documentId',
    { schema: documentParams },
    async (request, reply) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      const { sandbox } = request.server;
      const documentId = request.params.documentId.toLowerCase();
      let bytes: Buffer;
      let filename: string;
      let contentType = 'application/pdf';
      if (documentId === 'archive') {
        // Served whatever the envelope's status, as DocuSign serves its documents before completion
        // too: the documents as they stand and the certificate of what happened so far.
        const documents = sandbox.envelopes.documents(envelope.id);
        bytes = envelopeArchive(
          documents.map((d) => ({ name: d.name, bytes: sandbox.blobs.get(d.sha256) })),
          await certificateOf(request, envelope),
        );
        filename = `${envelope.id}.zip`;
        contentType = 'application/zip';
      } else if (documentId === 'portfolio') {
        const documents = sandbox.envelopes.documents(envelope.id);
        // Made on the pool, its certificate with it: pdf-lib loads and copies every document.
        bytes = await sandbox.documentWork.portfolio(
          documents.map((d) => ({ name: d.name, bytes: sandbox.blobs.get(d.sha256) })),
          await certificateInput(request, envelope),
        );
        filename = `${envelope.id}.pdf`;
      } else if (documentId === 'certificate') {
        bytes = await certificateOf(request, envelope);
        filename = 'Summary.pdf';
      } else if (documentId === 'combined') {
        const documents = sandbox.envelopes.documents(envelope.id);
        const parts = documents.map((d) => sandbox.blobs.get(d.sha256));
        // DocuSign appends the certificate unless certificate=false.
        if (request.query.certificate !== 'false') parts.push(await certificateOf(request, envelope));
        // Loading every document is work on the client's bytes: on the pool, off the event loop.
        bytes = await sandbox.documentWork.combine(parts);
        filename = `${envelope.id}.pdf`;
      } else {
        const document = sandbox.envelopes.documents(envelope.id).find((d) => d.documentId === documentId);
        if (!document) throw apiErrors.documentNotFound();
        bytes = sandbox.blobs.get(document.sha256);
        filename = pdfName(document.name);
      }
      void reply
        .header('content-type', contentType)
        .header('content-disposition', contentDisposition('file', filename))
        .header('content-length', bytes.length);
      return bytes;
    },
  );
};
