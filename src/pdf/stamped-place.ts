import { tabKind, type TabKindName } from '../envelope/index.js';

/** Where a placed tab is stamped on one document: page and top-left corner (points), and its own size if any. */
export interface StampedPlace {
  readonly pageNumber: number;
  readonly xPosition: number;
  readonly yPosition: number;
  readonly width?: number;
  readonly height?: number;
}

/**
 * Where a placed tab (or radio: its wire fields, positions as DocuSign's
 * strings) is stamped on the document `documentId`, or undefined when it is
 * on another document or has no usable position (anchored tabs are placed
 * first: placeAtAnchors). Its own width and height count, except for a
 * signature and a radio: the sandbox stamps a signature at its kind's
 * default size (a SignatureStamp has no size) and a radio at the radio
 * kind's, so their given sizes are left out here too.
 */
export function stampedPlace(
  kind: TabKindName,
  place: Record<string, unknown>,
  documentId: string,
): StampedPlace | undefined {
  if (String(place['documentId']) !== documentId) return undefined;
  const pageNumber = Number(place['pageNumber'] ?? 1);
  const xPosition = Number(place['xPosition']);
  const yPosition = Number(place['yPosition']);
  if (place['xPosition'] === undefined || place['yPosition'] === undefined) return undefined;
  if (![pageNumber, xPosition, yPosition].every(Number.isFinite) || pageNumber < 1) return undefined;
  const drawing = tabKind(kind).drawing;
  if (drawing === 'signature' || drawing === 'radio') return { pageNumber, xPosition, yPosition };
  return { pageNumber, xPosition, yPosition, ...givenSize(place) };
}

/** A tab's own width and height, when they are positive numbers. */
function givenSize(tab: Record<string, unknown>): { width?: number; height?: number } {
  const width = Number(tab['width']);
  const height = Number(tab['height']);
  return {
    ...(Number.isFinite(width) && width > 0 ? { width } : {}),
    ...(Number.isFinite(height) && height > 0 ? { height } : {}),
  };
}
