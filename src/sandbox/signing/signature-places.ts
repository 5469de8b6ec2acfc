import { tabsByKind, wireTrue, type Tabs } from '../../envelope/index.js';
import type { PlaceOf, PlaceOnPage } from '../esignature/envelopes/tabs/page-places.js';

/** A signature position, in DocuSign's units: points from the page's top-left, 1-based page. */
export interface SignaturePlace {
  documentId: string;
  pageNumber: number;
  xPosition: number;
  yPosition: number;
}

/**
 * Where the recipient signs: the tabs of the kinds drawn as a signature
 * (the catalogue's `drawing`), with explicit positions (documentId,
 * pageNumber, xPosition, yPosition — strings on the wire). Anchor-only tabs
 * (anchorString, no position) are not placed by the sandbox: they are
 * skipped, so such a signer places the signature by hand.
 */
export function signaturePlaces(tabs: Tabs): SignaturePlace[] {
  const places: SignaturePlace[] = [];
  for (const { kind, tab } of tabsByKind(tabs)) {
    if (kind.drawing !== 'signature') continue;
    const documentId = tab['documentId'];
    const pageNumber = Number(tab['pageNumber'] ?? 1);
    const xPosition = Number(tab['xPosition']);
    const yPosition = Number(tab['yPosition']);
    if (typeof documentId !== 'string' && typeof documentId !== 'number') continue;
    if (![pageNumber, xPosition, yPosition].every(Number.isFinite) || pageNumber < 1) continue;
    if (tab['xPosition'] === undefined || tab['yPosition'] === undefined) continue;
    places.push({ documentId: String(documentId), pageNumber, xPosition, yPosition });
  }
  return places;
}

/** A signature or initials box on the page: the signer selects it to sign (or initial) there. */
export interface MarkOnPage {
  readonly drawing: 'signature' | 'initials';
  readonly onPage: PlaceOnPage;
  /** DocuSign's `optional`: Finish does not wait for it. */
  readonly optional: boolean;
}

/**
 * The signer's sign-here and initial-here boxes (the kinds drawn as a
 * signature or as initials) where the page shows them; those on no document
 * of the page are left out, as the stamp leaves them.
 */
export function marksOnPage(tabs: Tabs, placeOf: PlaceOf): MarkOnPage[] {
  const out: MarkOnPage[] = [];
  for (const { kind, tab } of tabsByKind(tabs)) {
    if (kind.drawing !== 'signature' && kind.drawing !== 'initials') continue;
    const onPage = placeOf(kind.name, tab);
    if (onPage !== undefined) out.push({ drawing: kind.drawing, onPage, optional: wireTrue(tab['optional']) });
  }
  return out;
}

/**
 * Free placements posted by the page (JSON), checked: at most 50, each on a
 * document of the envelope, a page ≥ 1, coordinates finite and ≥ 0. Returns
 * undefined when anything is off (the page only ever posts valid ones).
 */
export function parsePlacements(
  json: string | undefined,
  documentIds: ReadonlySet<string>,
): SignaturePlace[] | undefined {
  if (json === undefined || json === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length > 50) return undefined;
  const out: SignaturePlace[] = [];
  for (const item of value as unknown[]) {
    if (typeof item !== 'object' || item === null) return undefined;
    const r = item as Record<string, unknown>;
    const place = {
      documentId: String(r['documentId']),
      pageNumber: Number(r['pageNumber']),
      xPosition: Number(r['xPosition']),
      yPosition: Number(r['yPosition']),
    };
    if (!documentIds.has(place.documentId)) return undefined;
    if (!Number.isInteger(place.pageNumber) || place.pageNumber < 1) return undefined;
    if (![place.xPosition, place.yPosition].every((n) => Number.isFinite(n) && n >= 0 && n < 20_000)) return undefined;
    out.push(place);
  }
  return out;
}
