import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { brandCss } from '../esignature/brands/brand-look.js';
import { brandsStore } from '../esignature/brands/brands-store.js';
import { messagePageHtml } from './page-html.js';
import { pageTextFromAcceptLanguage } from './page-text.js';
import { html } from './signing-context.js';
import { signingAssets, standardFontAsset, type StaticAsset } from './static-assets.js';

/** A static asset read once, with the entity tag a browser revalidates it by. */
interface TaggedAsset extends StaticAsset {
  etag: string;
}

/**
 * The page's assets are the same for the life of the process (signrun's own
 * script and style, pdf.js and its fonts from node_modules): each is read and
 * hashed once, then sent with `cache-control: no-cache` and an ETag. A
 * browser keeps its copy and asks again on every load (no stale pdf.js after
 * an upgrade), and the answer is a 304: pdf.js's 1.7 MB are neither read
 * from disk nor sent again, and the browser reuses what it compiled of them
 * (its code cache), on every signing page a signer opens.
 */
function taggedAssets(): (key: string, read: () => StaticAsset | undefined) => TaggedAsset | undefined {
  // Only assets found are kept: a name that finds nothing is looked up again (and the map cannot grow with them).
  const known = new Map<string, TaggedAsset>();
  return (key, read) => {
    const kept = known.get(key);
    if (kept !== undefined) return kept;
    const asset = read();
    if (asset === undefined) return undefined;
    const tagged = { ...asset, etag: `"${createHash('sha256').update(asset.body).digest('base64url').slice(0, 27)}"` };
    known.set(key, tagged);
    return tagged;
  };
}

function sendTagged(request: FastifyRequest, reply: FastifyReply, asset: TaggedAsset | undefined): FastifyReply {
  if (asset === undefined) return reply.code(404).type('text/plain').send('not found');
  void reply.header('etag', asset.etag).header('cache-control', 'no-cache');
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.type(asset.contentType).send(asset.body);
}

/** The page's script, style and pdf.js files, its standard fonts, a brand's colours, and where remote signers land. */
export function signingAssetRoutes(app: FastifyInstance): void {
  const tagged = taggedAssets();
  app.get<{ Params: { name: string } }>('/signing/assets/:name', async (request, reply) => {
    const { name } = request.params;
    return sendTagged(
      request,
      reply,
      tagged(name, () => signingAssets.get(name)?.()),
    );
  });

  app.get<{ Params: { name: string } }>('/signing/assets/standard_fonts/:name', async (request, reply) => {
    const { name } = request.params;
    return sendTagged(
      request,
      reply,
      tagged(`standard_fonts/${name}`, () => standardFontAsset(name)),
    );
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
