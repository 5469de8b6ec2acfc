import { envelopeDigest } from './envelope-digest.js';
import type { Rows } from './envelope-rows.js';
import { expandEnvelope, type ExpandContext } from './expand-envelope.js';
import type { RawEnvelope, RawEnvelopeDefaults } from './raw-job.js';
import type {
  ResolvedDocument,
  ResolvedEnvelope,
  ResolvedEventNotification,
  ResolvedNotification,
  ResolvedRecipient,
  SourcePosition,
  TemplateRef,
} from './model.js';

/**
 * What expanding a row of a forEach pattern again needs, once per pattern:
 * the pattern as written, its rows (their parsed cells, kept), and the
 * documents every row of it sends (checked once, at load).
 */
export interface RowPattern {
  raw: RawEnvelope;
  index: number;
  defaults: RawEnvelopeDefaults;
  job: string;
  rows: Rows;
  ctx: ExpandContext;
  documents: ResolvedDocument[];
}

/**
 * An envelope of a forEach row, kept as its row (issue 37, the streaming
 * plan): a `signrun run` of 100,000 rows holds per row its cells, its key
 * and its digest, not the expanded envelope (recipients, tabs, strings:
 * about a kilobyte a row). Whatever reads another field gets it from the
 * row expanded again (the last one expanded is kept, so a pass reading
 * several fields of each envelope expands each once); the run expands it
 * for good ({@link expandedEnvelope}) when its work item starts, and lets
 * it go when the item ends.
 *
 * Only rows that nothing changes after loading are kept so (below,
 * {@link isStreamable}): documents only (no template, whose id the run
 * fills in), no brand by name (whose id the run fills in), not Bulk Send's,
 * and the pattern's shared documents. Loaded with `streamRows` (the run's
 * CLI); other commands get plain envelopes.
 */
export class RowEnvelope implements ResolvedEnvelope {
  readonly key: string;
  readonly row: number;
  readonly #pattern: RowPattern;

  constructor(pattern: RowPattern, envelope: Pick<ResolvedEnvelope, 'key'> & { row: number }) {
    this.key = envelope.key;
    this.row = envelope.row;
    this.#pattern = pattern;
  }

  /**
   * The envelope as loading would have made it: the row expanded again, with
   * the pattern's checked documents, and its digest (made here, not kept:
   * 80 bytes a row, and only a sent or a journalled envelope needs it).
   */
  expand(): ResolvedEnvelope {
    const envelope = this.#expandedWithoutDigest();
    return Object.assign(envelope, { digest: envelopeDigest(envelope) });
  }

  #expandedWithoutDigest(): Omit<ResolvedEnvelope, 'digest'> {
    const p = this.#pattern;
    const row = p.rows.take(this.row - 1, true);
    const { envelope } = expandEnvelope(p.raw, p.index, p.defaults, row, p.job, p.ctx);
    envelope.documents = p.documents;
    return envelope;
  }

  /** The row expanded for a read of its fields; its digest is made only if read (the plan reads it only of known envelopes). */
  #full(): Omit<ResolvedEnvelope, 'digest'> {
    if (last?.of !== this) last = { of: this, envelope: this.#expandedWithoutDigest() };
    return last.envelope;
  }

  get job(): string {
    return this.#pattern.job;
  }
  get digest(): string {
    const expanded = this.#full();
    return (last!.digest ??= envelopeDigest(expanded));
  }
  get source(): SourcePosition {
    return this.#full().source;
  }
  get rowSource(): SourcePosition | undefined {
    return this.#full().rowSource;
  }
  get emailSubject(): string {
    return this.#full().emailSubject;
  }
  get emailBlurb(): string | undefined {
    return this.#full().emailBlurb;
  }
  get brandId(): string | undefined {
    return this.#full().brandId;
  }
  get status(): ResolvedEnvelope['status'] {
    return this.#full().status;
  }
  get voidedReason(): string | undefined {
    return this.#full().voidedReason;
  }
  get notification(): ResolvedNotification | undefined {
    return this.#full().notification;
  }
  get returnUrl(): string | undefined {
    return this.#full().returnUrl;
  }
  get eventNotification(): ResolvedEventNotification | undefined {
    return this.#full().eventNotification;
  }
  get customFields(): Array<{ name: string; value: string }> | undefined {
    return this.#full().customFields;
  }
  get documents(): ResolvedDocument[] {
    return this.#pattern.documents;
  }
  get recipients(): ResolvedRecipient[] {
    return this.#full().recipients;
  }
  get templateRoles(): ResolvedRecipient[] {
    return this.#full().templateRoles;
  }
  // What only streamable rows are: answered without expanding them (passes over every row read these).
  get kind(): 'documents' {
    return 'documents';
  }
  get bulkSend(): undefined {
    return undefined;
  }
  get brandName(): undefined {
    return undefined;
  }
  get templateId(): undefined {
    return undefined;
  }
  get templateKey(): undefined {
    return undefined;
  }
  get templateRefs(): TemplateRef[] | undefined {
    return undefined;
  }
}

/** The last row expanded by a read of one of its fields, and its envelope. */
let last: { of: RowEnvelope; envelope: Omit<ResolvedEnvelope, 'digest'>; digest?: string } | undefined;

/**
 * Whether a resolved envelope of a forEach row can be kept as its row:
 * nothing the run changes in place (a template's or a brand's id), not
 * sent through Bulk Send, and sending the pattern's own shared documents.
 */
export function isStreamable(
  envelope: Omit<ResolvedEnvelope, 'digest'>,
  documents: ResolvedDocument[] | undefined,
): envelope is Omit<ResolvedEnvelope, 'digest'> & { row: number } {
  return (
    envelope.row !== undefined &&
    envelope.kind === 'documents' &&
    envelope.bulkSend === undefined &&
    envelope.brandName === undefined &&
    envelope.templateId === undefined &&
    envelope.templateKey === undefined &&
    envelope.templateRefs === undefined &&
    (documents === undefined || envelope.documents === documents)
  );
}

/** The envelope with every field its own: a row expanded (when the run starts sending it), else the envelope itself. */
export function expandedEnvelope(envelope: ResolvedEnvelope): ResolvedEnvelope {
  return envelope instanceof RowEnvelope ? envelope.expand() : envelope;
}
