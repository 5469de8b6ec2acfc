import { wireTrue } from '../envelope/index.js';
import type { EnvelopeText } from './envelope-text.js';
import { findAnchors, isAnchorUnits, type AnchorQuery } from './find-anchors.js';

/** A tab (or a radio) whose place is an anchor: its wire fields with a non-blank `anchorString`. */
export type AnchoredItem = Record<string, unknown> & { anchorString: string };

/** Whether a tab's (or radio's) wire fields place it by anchor. */
export function hasAnchor(place: Record<string, unknown>): place is AnchoredItem {
  return typeof place['anchorString'] === 'string' && place['anchorString'].trim() !== '';
}

/** The anchor a tab's wire fields describe (DocuSign's strings parsed; a blank or odd number is absent). */
export function anchorQueryOf(place: AnchoredItem): AnchorQuery {
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

/**
 * Every place an anchored item goes: one copy per occurrence of its anchor in
 * the envelope's documents, each with documentId, pageNumber, xPosition and
 * yPosition (whole points, as DocuSign answers them) beside its anchor
 * fields. An envelope without documents (a draft) keeps the item unplaced
 * ([item]). No occurrence: [] — the sandbox then answers
 * ANCHOR_TAB_STRING_NOT_FOUND unless anchorIgnoreIfNotPresent. The sandbox
 * places tabs with this, and the preview draws them where it puts them.
 */
export async function placeAtAnchors<T extends AnchoredItem>(item: T, text: EnvelopeText): Promise<T[]> {
  if (text.documentCount === 0) return [item];
  const query = anchorQueryOf(item);
  const out: T[] = [];
  for (const { documentId, pages } of await text.all()) {
    for (const match of findAnchors(pages, query)) {
      out.push({
        ...item,
        documentId,
        pageNumber: String(match.pageNumber),
        xPosition: String(Math.round(match.xPosition)),
        yPosition: String(Math.round(match.yPosition)),
      });
    }
  }
  return out;
}
