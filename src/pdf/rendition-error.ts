import { SignrunError } from '../errors/signrun-error.js';

/** The limits of a conversion (RenditionLimits in rendition-limits.ts, which documents each). */
export type RenditionLimitName =
  'pages' | 'unpackedBytes' | 'zipEntries' | 'paragraphs' | 'characters' | 'wordCharacters' | 'milliseconds';

/**
 * Thrown by renditionOf when a document cannot become a PDF: it is not a
 * readable file of its kind (a DOCX that is not a zip, say), or it goes past
 * one of the converter's limits. `limit` names the limit, when one stopped it.
 */
export class RenditionError extends SignrunError {
  constructor(
    message: string,
    readonly limit?: RenditionLimitName,
    cause?: unknown,
  ) {
    super('SR_DOC_NOT_CONVERTIBLE', message, cause === undefined ? {} : { cause });
    this.name = 'RenditionError';
  }
}
