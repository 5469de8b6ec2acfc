import type { TabKindName } from '../../../../envelope/index.js';
import { stampedPlace, tabBox, tabSize, type TabSize } from '../../../../pdf/index.js';
import { setBounded } from '../../../platform/bounded-map.js';

/**
 * Where a tab sits on a page of the signing page: its box in points from the
 * page's top-left corner (y down) and the page's size, so the page script
 * places it in percent of the page at any width.
 */
export interface PlaceOnPage {
  readonly documentId: string;
  readonly pageNumber: number;
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
  readonly pageWidth: number;
  readonly pageHeight: number;
}

/** Where a tab (or a radio) of a kind goes on the documents the page shows; undefined: not on any of them. */
export type PlaceOf = (kind: TabKindName, place: Record<string, unknown>) => PlaceOnPage | undefined;

/**
 * The placement of the signing page: the stamp's and the preview's own code
 * — `stampedPlace` (which page, which corner, which own size), `tabSize` and
 * `tabBox` (pulled inside the page as drawTabs pulls it) — against each
 * document's page sizes as pdf-lib gives them to drawTabs (`getSize()`). So a
 * field is drawn where the preview drew it and where its value will be stamped.
 */
export function placeOnPages(pagesOf: ReadonlyMap<string, readonly TabSize[]>): PlaceOf {
  return (kind, place) => {
    const documentId = String(place['documentId']);
    const pages = pagesOf.get(documentId);
    if (pages === undefined) return undefined;
    const at = stampedPlace(kind, place, documentId);
    const page = at === undefined ? undefined : pages[at.pageNumber - 1];
    if (at === undefined || page === undefined) return undefined;
    const box = tabBox(at, tabSize(kind, at), page);
    return {
      documentId,
      pageNumber: at.pageNumber,
      left: box.left,
      top: box.top,
      width: box.width,
      height: box.height,
      pageWidth: page.width,
      pageHeight: page.height,
    };
  };
}

/**
 * Page sizes of documents by content hash, as drawTabs reads them; a few
 * dozen kept (a document's bytes never change under its hash), so that a page
 * shown again does not parse its PDF again. `read` parses them (the signing
 * page's: on the document pool, off the event loop).
 */
export class PageSizeCache {
  readonly #sizes = new Map<string, readonly TabSize[]>();

  async of(sha256: string, read: () => Promise<readonly TabSize[]>): Promise<readonly TabSize[]> {
    const known = this.#sizes.get(sha256);
    if (known !== undefined) return known;
    const sizes = await read();
    setBounded(this.#sizes, sha256, sizes, 64);
    return sizes;
  }
}
