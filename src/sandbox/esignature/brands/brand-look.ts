import type { SandboxDatabase } from '../../platform/db/open-database.js';
import type { BlobStore } from '../../platform/db/blob-store.js';
import { brandsStore, type BrandRecord } from './brands-store.js';

/** What a page shows of an envelope's brand: its name, its logo, its colours (a stylesheet). */
export interface PageBrand {
  /** The brand's company, else its name: what the page's bar says instead of "signrun sandbox". */
  name: string;
  /** The primary logo as a data: URL (the pages' CSP allows data: images), when the brand has one. */
  logoDataUrl?: string;
  /** The brand's colours as a stylesheet (`/signing/brands/{brandId}.css`), when it has any. */
  stylesheetHref?: string;
}

/**
 * DocuSign's brand colour names (the brand editor's "Resource colors") and
 * the parts of the sandbox's pages they paint. Values were checked to be
 * `#rrggbb` when the brand was stored, so they go into CSS as they are.
 */
const colourRules: Record<string, (value: string) => string> = {
  headerBackground: (v) => `.bar { background: ${v}; }`,
  headerText: (v) => `.bar, .bar .brand { color: ${v}; }`,
  buttonPrimaryBackground: (v) => `button.primary { background: ${v}; }`,
  buttonPrimaryText: (v) => `button.primary { color: ${v}; }`,
};

/** The brand's colours as CSS (colour names the sandbox does not paint are left out). */
export function brandCss(brand: BrandRecord): string {
  return brand.colors
    .map((c) => colourRules[c.name]?.(c.value))
    .filter((rule): rule is string => rule !== undefined)
    .join('\n');
}

/** The look of an envelope's pages, or undefined when the envelope has no brand. */
export function envelopePageBrand(db: SandboxDatabase, blobs: BlobStore, envelopeId: string): PageBrand | undefined {
  const brand = brandsStore(db).ofEnvelope(envelopeId);
  if (brand === undefined) return undefined;
  const logo = brand.logos.primary;
  return {
    name: brand.company ?? brand.name,
    ...(logo === undefined
      ? {}
      : { logoDataUrl: `data:${logo.contentType};base64,${blobs.get(logo.sha256).toString('base64')}` }),
    ...(brandCss(brand) === '' ? {} : { stylesheetHref: `/signing/brands/${encodeURIComponent(brand.id)}.css` }),
  };
}
