import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { signingPageScript } from './signing-client.js';
import { signingPageCss } from './page-style.js';
import { formulaScript } from './live-formulas.js';

/** A file the signing page loads. */
export interface StaticAsset {
  contentType: string;
  body: string | Buffer;
}

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/**
 * The page's own script and style, and pdf.js from node_modules (the
 * legacy-free ES module build). A Map, not an object literal: the name comes
 * from the URL, and `constructor` or `__proto__` must find nothing (they
 * found Object's own members, and answered 500).
 */
export const signingAssets: ReadonlyMap<string, () => StaticAsset> = new Map<string, () => StaticAsset>([
  ['signing.js', () => ({ contentType: 'text/javascript; charset=utf-8', body: signingPageScript })],
  // The sandbox's own formula evaluator, for formula tabs computed as the signer types (live-formulas.ts).
  ['formula.js', () => ({ contentType: 'text/javascript; charset=utf-8', body: formulaScript })],
  ['signing.css', () => ({ contentType: 'text/css; charset=utf-8', body: signingPageCss })],
  [
    'pdf.min.mjs',
    () => ({
      contentType: 'text/javascript; charset=utf-8',
      body: readFileSync(join(pdfjsRoot, 'build', 'pdf.min.mjs')),
    }),
  ],
  [
    'pdf.worker.min.mjs',
    () => ({
      contentType: 'text/javascript; charset=utf-8',
      body: readFileSync(join(pdfjsRoot, 'build', 'pdf.worker.min.mjs')),
    }),
  ],
]);

/**
 * pdf.js's data for the 14 standard PDF fonts (the stamps use Times bold
 * italic and Helvetica without embedding them). Only plain file names of
 * that folder are served.
 */
export function standardFontAsset(name: string): StaticAsset | undefined {
  if (!/^[A-Za-z0-9_-]+\.(pfb|ttf)$/.test(name)) return undefined;
  try {
    return { contentType: 'application/octet-stream', body: readFileSync(join(pdfjsRoot, 'standard_fonts', name)) };
  } catch {
    return undefined;
  }
}
