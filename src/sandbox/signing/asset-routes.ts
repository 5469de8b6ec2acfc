import type { FastifyInstance } from 'fastify';
import { brandCss } from '../esignature/brands/brand-look.js';
import { brandsStore } from '../esignature/brands/brands-store.js';
import { messagePageHtml } from './page-html.js';
import { pageTextFromAcceptLanguage } from './page-text.js';
import { html } from './signing-context.js';
import { signingAssets, standardFontAsset } from './static-assets.js';

/** The page's script, style and pdf.js files, its standard fonts, a brand's colours, and where remote signers land. */
export function signingAssetRoutes(app: FastifyInstance): void {
  app.get<{ Params: { name: string } }>('/signing/assets/:name', async (request, reply) => {
    const asset = signingAssets.get(request.params.name)?.();
    if (asset === undefined) return reply.code(404).type('text/plain').send('not found');
    return reply.type(asset.contentType).send(asset.body);
  });

  app.get<{ Params: { name: string } }>('/signing/assets/standard_fonts/:name', async (request, reply) => {
    const asset = standardFontAsset(request.params.name);
    if (asset === undefined) return reply.code(404).type('text/plain').send('not found');
    return reply.type(asset.contentType).send(asset.body);
  });

  // A brand's colours (brands/brand-look.ts): not secret, and checked to be #rrggbb when stored.
  app.get<{ Params: { file: string } }>('/signing/brands/:file', async (request, reply) => {
    const brand = /^([0-9a-fA-F-]{36})\.css$/.exec(request.params.file);
    const found = brand === null ? undefined : brandsStore(app.sandbox.db).getById(brand[1]!);
    if (found === undefined) return reply.code(404).type('text/plain').send('not found');
    return reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(brandCss(found));
  });

  // Where remote signers land after finishing (they have no client application).
  app.get<{ Querystring: { event?: string } }>('/signing/done', async (request, reply) => {
    const text = pageTextFromAcceptLanguage(request.headers['accept-language']);
    const event = request.query.event;
    if (event === 'signing_complete' || event === 'viewing_complete')
      return html(reply, 200, messagePageHtml(text, text.doneTitle, text.doneBody));
    if (event === 'decline') return html(reply, 200, messagePageHtml(text, text.declinedTitle, text.declinedBody));
    return html(reply, 200, messagePageHtml(text, text.closedTitle, text.closedBody));
  });
}
