import { randomUUID } from 'node:crypto';
import {
  tabKinds,
  tabsByKind,
  tabsObject,
  wireTrue,
  type KindedTab,
  type Tabs,
  type WireTab,
} from '../../envelope/index.js';
import { findAnchors, isAnchorUnits, readPageText, type AnchorQuery, type PageText } from '../../pdf/index.js';
import { ApiError, apiErrors } from '../api-error.js';

/** A document of the envelope whose text anchors are looked for in. */
export interface AnchorDocument {
  documentId: string;
  /** The bytes, read only when some tab has an anchor. */
  bytes: () => Uint8Array;
}

/**
 * The largest document whose text the sandbox reads for anchors: DocuSign's
 * limit for one document (25 MB). A larger one (the request body limit lets
 * 34 MiB through) is searched as if it held no text.
 */
export const anchorDocumentLimitBytes = 25 * 1024 * 1024;

/**
 * The text of each document, read once per envelope and only when an anchor
 * asks for it. A document pdf.js cannot read, or one above the size limit,
 * has no text (its anchors are then not found, as DocuSign finds none in an
 * image-only PDF).
 */
export class EnvelopeText {
  private readonly texts = new Map<string, Promise<PageText[]>>();
  constructor(private readonly documents: readonly AnchorDocument[]) {}

  get documentCount(): number {
    return this.documents.length;
  }

  /** Each document's pages, in the envelope's order. */
  async all(): Promise<Array<{ documentId: string; pages: PageText[] }>> {
    const out: Array<{ documentId: string; pages: PageText[] }> = [];
    for (const doc of this.documents) out.push({ documentId: doc.documentId, pages: await this.of(doc) });
    return out;
  }

  private of(doc: AnchorDocument): Promise<PageText[]> {
    let text = this.texts.get(doc.documentId);
    if (text === undefined) {
      const bytes = doc.bytes();
      text =
        bytes.length > anchorDocumentLimitBytes
          ? Promise.resolve([])
          : readPageText(bytes).catch(() => [] as PageText[]);
      this.texts.set(doc.documentId, text);
    }
    return text;
  }
}

function hasAnchor(place: Record<string, unknown>): place is Record<string, unknown> & { anchorString: string } {
  return typeof place['anchorString'] === 'string' && place['anchorString'].trim() !== '';
}

function anchorQuery(place: Record<string, unknown> & { anchorString: string }): AnchorQuery {
  const number = (v: unknown): number | undefined => {
    const n = Number(v);
    return v === undefined || v === null || v === '' || !Number.isFinite(n) ? undefined : n;
  };
  const units = typeof place['anchorUnits'] === 'string' ? place['anchorUnits'].trim().toLowerCase() : '';
  const query: {
    -readonly [K in keyof AnchorQuery]: AnchorQuery[K];
  } = {
    anchorString: place.anchorString,
    anchorCaseSensitive: wireTrue(place['anchorCaseSensitive']),
    anchorMatchWholeWord: wireTrue(place['anchorMatchWholeWord']),
  };
  const dx = number(place['anchorXOffset']);
  const dy = number(place['anchorYOffset']);
  if (dx !== undefined) query.anchorXOffset = dx;
  if (dy !== undefined) query.anchorYOffset = dy;
  if (isAnchorUnits(units)) query.anchorUnits = units;
  return query;
}

/** DocuSign's answer to an anchor that no document contains (400). */
export function anchorNotFound(anchorString: string): ApiError {
  return new ApiError(
    400,
    'ANCHOR_TAB_STRING_NOT_FOUND',
    `The specified Anchor Tab string was not found in the document. Anchor Tab String [${anchorString}] not found.`,
  );
}

/**
 * Tabs one anchored tab may become: an anchor of one letter in a long
 * document would otherwise make tens of thousands of tabs, each stored,
 * drawn and answered.
 */
export const maxAnchorPlacements = 1000;

/**
 * Every place an anchored item goes: one copy per occurrence of its anchor in
 * the envelope's documents, each with documentId, pageNumber, xPosition and
 * yPosition (whole points, as DocuSign answers them) beside its anchor
 * fields. No occurrence: [] with anchorIgnoreIfNotPresent, else
 * ANCHOR_TAB_STRING_NOT_FOUND.
 */
async function anchored<T extends Record<string, unknown> & { anchorString: string }>(
  item: T,
  text: EnvelopeText,
): Promise<T[]> {
  const query = anchorQuery(item);
  const out: T[] = [];
  for (const { documentId, pages } of await text.all()) {
    const matches = findAnchors(pages, query);
    if (out.length + matches.length > maxAnchorPlacements)
      throw apiErrors.invalidParameter(
        `anchorString ${JSON.stringify(item.anchorString)} is found more than ${maxAnchorPlacements} times in the envelope's documents; the sandbox places at most ${maxAnchorPlacements} tabs for one anchor (use a longer anchor, or anchorMatchWholeWord).`,
      );
    for (const match of matches) {
      out.push({
        ...item,
        documentId,
        pageNumber: String(match.pageNumber),
        xPosition: String(Math.round(match.xPosition)),
        yPosition: String(Math.round(match.yPosition)),
      });
    }
  }
  // A draft without documents yet keeps its anchored tabs unplaced.
  if (out.length === 0 && text.documentCount > 0 && !wireTrue(item['anchorIgnoreIfNotPresent']))
    throw anchorNotFound(item.anchorString);
  if (text.documentCount === 0) return [item];
  return out;
}

/**
 * A recipient's tabs as the sandbox keeps them: every kind of the catalogue
 * as received, each tab with a `tabId` (a GUID) and the `recipientId`, and
 * anchored tabs placed at every occurrence of their anchor in the envelope's
 * documents (each occurrence its own tab). A radio group's anchored radios
 * are placed the same way. Collections signrun does not model are kept as
 * received. Documents are read only when some tab has an anchor.
 */
export async function placeTabs(tabs: Tabs, recipientId: string, text: EnvelopeText): Promise<Tabs> {
  const placed: KindedTab[] = [];
  for (const { kind, tab } of tabsByKind(tabs)) {
    const copies: WireTab[] = hasAnchor(tab) ? await anchored(tab, text) : [tab];
    for (const copy of copies) {
      const out: WireTab = { ...copy, recipientId, tabId: randomUUID() };
      const radios = out['radios'];
      if (Array.isArray(radios)) {
        const placedRadios: Record<string, unknown>[] = [];
        for (const radio of radios as unknown[]) {
          if (typeof radio !== 'object' || radio === null) continue;
          const r = radio as Record<string, unknown>;
          for (const one of hasAnchor(r) ? await anchored(r, text) : [r])
            placedRadios.push({ ...one, tabId: randomUUID() });
        }
        out['radios'] = placedRadios;
      }
      placed.push({ kind, tab: out });
    }
  }
  // Collections signrun does not model (a notary's, a seal's) are kept as received.
  const known = new Set(tabKinds.map((k) => k.collection));
  return {
    ...Object.fromEntries(Object.entries(tabs).filter(([collection]) => !known.has(collection))),
    ...tabsObject(placed.map(({ kind, tab }) => ({ kind: kind.name, tab }))),
  };
}
