import { randomUUID } from 'node:crypto';
import {
  tabKinds,
  tabsByKind,
  tabsObject,
  wireTrue,
  type KindedTab,
  type Tabs,
  type WireTab,
} from '../../../../envelope/index.js';
import {
  anchorPlacementProblem,
  hasAnchor,
  maxAnchorPlacements,
  placeAtAnchors,
  type AnchoredItem,
  type EnvelopeText,
} from '../../../../pdf/index.js';
import { ApiError, apiErrors } from '../../../platform/http/api-error.js';

// The text of an envelope's documents and anchor placement live in the PDF layer, shared with the preview.
export { EnvelopeText, anchorDocumentLimitBytes, type AnchorDocument } from '../../../../pdf/index.js';

/** DocuSign's answer to an anchor that no document contains (400). */
export function anchorNotFound(anchorString: string): ApiError {
  return new ApiError(
    400,
    'ANCHOR_TAB_STRING_NOT_FOUND',
    `The specified Anchor Tab string was not found in the document. Anchor Tab String [${anchorString}] not found.`,
  );
}

// The rule is the PDF layer's, shared with `validate` (anchorPlacementProblem).
export { maxAnchorPlacements };

/**
 * How anchors are placed. `lettersToCome`: the envelope is a draft holding a
 * DocGen document whose letter is generated later (PUT docGenFormFields, or
 * the send), so an anchor the letter's values will write (`Signature of
 * {{Candidate_Name}}`) is not in the text yet: a tab whose anchor is found
 * nowhere is kept unplaced, and placed when the letter is (docgen/
 * replace-anchored-tabs.ts), which answers ANCHOR_TAB_STRING_NOT_FOUND then
 * if the letter does not hold it either.
 */
export interface PlaceTabsOptions {
  lettersToCome?: boolean;
}

/**
 * Every place an anchored item goes (placeAtAnchors, the PDF layer's, which
 * the preview uses too); none: [] with anchorIgnoreIfNotPresent, the item
 * unplaced while a letter is to come, else ANCHOR_TAB_STRING_NOT_FOUND; more
 * than {@link maxAnchorPlacements}: refused.
 */
async function anchored<T extends AnchoredItem>(item: T, text: EnvelopeText, options: PlaceTabsOptions): Promise<T[]> {
  const out = await placeAtAnchors(item, text);
  const tooMany = anchorPlacementProblem(item.anchorString, out.length);
  if (tooMany)
    throw apiErrors.invalidParameter(
      `${tooMany}; the sandbox places at most ${maxAnchorPlacements} tabs for one anchor.`,
    );
  if (out.length === 0 && !wireTrue(item['anchorIgnoreIfNotPresent'])) {
    if (options.lettersToCome === true) return [item];
    throw anchorNotFound(item.anchorString);
  }
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
export async function placeTabs(
  tabs: Tabs,
  recipientId: string,
  text: EnvelopeText,
  options: PlaceTabsOptions = {},
): Promise<Tabs> {
  const placed: KindedTab[] = [];
  for (const { kind, tab } of tabsByKind(tabs)) {
    const copies: WireTab[] = hasAnchor(tab) ? await anchored(tab, text, options) : [tab];
    for (const copy of copies) {
      const out: WireTab = { ...copy, recipientId, tabId: randomUUID() };
      const radios = out['radios'];
      if (Array.isArray(radios)) {
        const placedRadios: Record<string, unknown>[] = [];
        for (const radio of radios as unknown[]) {
          if (typeof radio !== 'object' || radio === null) continue;
          const r = radio as Record<string, unknown>;
          for (const one of hasAnchor(r) ? await anchored(r, text, options) : [r])
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
