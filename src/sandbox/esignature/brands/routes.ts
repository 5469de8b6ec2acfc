import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { accountParams } from '../route-schemas.js';
import { apiBaseOf, principalOf, type AccountParams } from '../request-helpers.js';
import { ApiError, apiErrors } from '../../platform/http/api-error.js';
import { lenientArray, lenientObject, lenientString } from '../../platform/http/lenient.js';
import { brandsStore, logoTypes, type BrandRecord, type LogoType } from './brands-store.js';
import { accountBrandsJson, brandJson, readBrand } from './brand-wire.js';
import { logoContentType, logoLimitBytes } from '../../../envelope/brand-logo.js';

interface BrandParams extends AccountParams {
  brandId: string;
}

/** A brand id that names no brand of the account (DocuSign documents no code for it; the sandbox's word). */
export const brandNotFound = () =>
  new ApiError(400, 'INVALID_BRAND_ID', 'The brand specified does not exist or you have no rights to it.');

const brandParams = {
  params: {
    type: 'object',
    required: ['accountId', 'brandId'],
    properties: { accountId: { type: 'string' }, brandId: { type: 'string', maxLength: 64 } },
  },
} as const;
const logoParams = {
  params: {
    type: 'object',
    required: ['accountId', 'brandId', 'logoType'],
    properties: {
      accountId: { type: 'string' },
      brandId: { type: 'string', maxLength: 64 },
      logoType: { type: 'string', enum: [...logoTypes] },
    },
  },
} as const;

/**
 * An account's brands (Accounts: Brands in the Swagger): list, create, delete
 * several, read, update, delete one, and the three logos. A brand named by an
 * envelope's `brandId` (or the account's sending default) is shown on the
 * signing page and in the envelope's messages (brands/brand-look.ts).
 */
export const brandRoutes: FastifyPluginAsync = async (app) => {
  const store = () => brandsStore(app.sandbox.db);
  const baseOf = (request: FastifyRequest, accountId: string) => `${apiBaseOf(request)}/accounts/${accountId}`;
  const brandOf = (request: FastifyRequest, brandId: string): BrandRecord => {
    const brand = store().get(principalOf(request).account.id, brandId);
    if (!brand) throw brandNotFound();
    return brand;
  };

  // GET …/brands (Brands_GetBrands → AccountBrands).
  app.get<{ Params: AccountParams }>('/accounts/:accountId/brands', { schema: accountParams }, async (request) => {
    const { account } = principalOf(request);
    return accountBrandsJson(store().list(account.id), baseOf(request, account.id));
  });

  // POST …/brands (Brands_PostBrands, body #/definitions/brand → 201 AccountBrands holding the new brand).
  app.post<{ Params: AccountParams }>(
    '/accounts/:accountId/brands',
    { schema: accountParams },
    async (request, reply) => {
      const { account } = principalOf(request);
      const brand = store().create(account.id, readBrand(request.body), app.sandbox.clock.now());
      void reply.status(201);
      return accountBrandsJson([brand], baseOf(request, account.id));
    },
  );

  // DELETE …/brands (Brands_DeleteBrands, body #/definitions/brandsRequest → the brands that remain).
  app.delete<{ Params: AccountParams }>('/accounts/:accountId/brands', { schema: accountParams }, async (request) => {
    const { account } = principalOf(request);
    const body = lenientObject(request.body, 'brandsRequest') ?? {};
    const items = lenientArray(body['brands'], 'brands') ?? [];
    const ids = items.map((item, i) => {
      const id = lenientString(lenientObject(item, `brands[${i}]`)?.['brandId'], `brands[${i}].brandId`);
      if (!id) throw apiErrors.invalidBody(`'brands[${i}].brandId' is required.`);
      return id;
    });
    // Every id is checked before anything is deleted.
    const brands = ids.map((id) => brandOf(request, id));
    for (const brand of brands) store().delete(brand.id);
    return accountBrandsJson(store().list(account.id), baseOf(request, account.id));
  });

  // GET …/brands/{brandId} (Brand_GetBrand → brand).
  app.get<{ Params: BrandParams }>('/accounts/:accountId/brands/:brandId', { schema: brandParams }, async (request) =>
    brandJson(brandOf(request, request.params.brandId), baseOf(request, principalOf(request).account.id)),
  );

  // PUT …/brands/{brandId} (Brand_PutBrand → brand): what the body leaves out is kept.
  app.put<{ Params: BrandParams }>('/accounts/:accountId/brands/:brandId', { schema: brandParams }, async (request) => {
    const brand = brandOf(request, request.params.brandId);
    const updated = store().update(brand, readBrand(request.body, brand));
    return brandJson(updated, baseOf(request, brand.accountId));
  });

  // DELETE …/brands/{brandId} (Brand_DeleteBrand → 200, no body).
  app.delete<{ Params: BrandParams }>(
    '/accounts/:accountId/brands/:brandId',
    { schema: brandParams },
    async (request, reply) => {
      store().delete(brandOf(request, request.params.brandId).id);
      return reply.status(200).send();
    },
  );

  // GET …/brands/{brandId}/logos/{logoType} (Brand_GetBrandLogoByType → the image).
  app.get<{ Params: BrandParams & { logoType: LogoType } }>(
    '/accounts/:accountId/brands/:brandId/logos/:logoType',
    { schema: logoParams },
    async (request, reply) => {
      const logo = brandOf(request, request.params.brandId).logos[request.params.logoType];
      if (!logo) throw new ApiError(404, 'RESOURCE_NOT_FOUND', `The brand has no ${request.params.logoType} logo.`);
      return reply.type(logo.contentType).send(app.sandbox.blobs.get(logo.sha256));
    },
  );

  // PUT …/brands/{brandId}/logos/{logoType} (Brand_PutBrandLogoByType: the image bytes as the body).
  app.put<{ Params: BrandParams & { logoType: LogoType } }>(
    '/accounts/:accountId/brands/:brandId/logos/:logoType',
    { schema: logoParams, bodyLimit: logoLimitBytes },
    async (request, reply) => {
      const brand = brandOf(request, request.params.brandId);
      const bytes = Buffer.isBuffer(request.body) ? request.body : undefined;
      const contentType = bytes === undefined ? undefined : logoContentType(bytes);
      if (!bytes || !contentType) throw apiErrors.invalidBody('Send the logo as the body: a PNG, JPEG or GIF image.');
      store().putLogo(brand.id, request.params.logoType, contentType, app.sandbox.blobs.put(bytes));
      return reply.status(200).send();
    },
  );

  // DELETE …/brands/{brandId}/logos/{logoType} (Brand_DeleteBrandLogoByType).
  app.delete<{ Params: BrandParams & { logoType: LogoType } }>(
    '/accounts/:accountId/brands/:brandId/logos/:logoType',
    { schema: logoParams },
    async (request, reply) => {
      store().deleteLogo(brandOf(request, request.params.brandId).id, request.params.logoType);
      return reply.status(200).send();
    },
  );

  // GET …/brands/{brandId}/resources (BrandResources_GetBrandResourcesList): the sandbox
  // keeps no resource files of its own, so each content type is listed with its address.
  app.get<{ Params: BrandParams }>(
    '/accounts/:accountId/brands/:brandId/resources',
    { schema: brandParams },
    async (request) => {
      const brand = brandOf(request, request.params.brandId);
      const base = `${baseOf(request, brand.accountId)}/brands/${brand.id}/resources`;
      return {
        resourcesContentTypes: ['email', 'sending', 'signing', 'signing_captive'].map((type) => ({
          resourcesContentType: type,
          resourcesContentUri: `${base}/${type}`,
        })),
      };
    },
  );
};
