import { wireTrue } from '../envelope/index.js';
import type { EnvelopeText } from './envelope-text.js';
import { findAnchors, isAnchorUnits, type AnchorQuery } from './find-anchors.js';

/**
 * Tabs one anchored tab may become, over all the envelope's documents: an
 * anchor of one letter in a long document would otherwise make tens of
 * thousands of tabs, each stored, drawn and answered. One rule for the
 * sandbox (which refuses the envelope) and `validate` (which refuses the job
 * at the anchor's line, SR_ANCHOR_TOO_MANY), so that a job `validate` passes
 * is not refused at `run` (issue 36: 57,000 occurrences passed validate).
 */
export const maxAnchorPlacements = 1000;

/** Why an anchor found `count` times cannot be placed, or undefined when it can. */
export function anchorPlacementProblem(anchorString: string, count: number): string | undefined {
  return count > maxAnchorPlacements
    ? `anchorString ${JSON.stringify(anchorString)} is found ${count > 100_000 ? 'more than 100,000' : count.toLocaleString('en-US')} times in the envelope's documents, more than the ${maxAnchorPlacements.toLocaleString('en-US')} tabs one anchor may become (use a longer anchor, or anchorMatchWholeWord)`
    : undefined;
}

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
