import { apiErrors } from '../../platform/http/api-error.js';
import { lenientArray, lenientObject, lenientString } from '../../platform/http/lenient.js';
import { logoTypes, type BrandFields, type BrandRecord } from './brands-store.js';

// DocuSign's brand on the wire (Swagger #/definitions/brand): what a create
// or update reads, and what the API answers.

/** A colour as DocuSign's brand editor stores it: `#rrggbb` (also what keeps the brand stylesheet safe). */
const hexColour = /^#[0-9a-fA-F]{6}$/;

/** A boolean sent as `true`/`false` or their strings (the SDKs send both). */
function flag(value: unknown, field: string): boolean | undefined {
  const text = lenientString(value, field);
  if (text === undefined) return undefined;
  if (/^true$/i.test(text)) return true;
  if (/^false$/i.test(text)) return false;
  throw apiErrors.invalidBody(`'${field}' must be true or false.`);
}

function stringRecords(value: unknown, field: string): Record<string, string>[] {
  return (lenientArray(value, field) ?? []).map((item, i) => {
    const object = lenientObject(item, `${field}[${i}]`) ?? {};
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(object)) {
      const text = lenientString(v, `${field}[${i}].${k}`);
      if (text !== undefined) out[k] = text;
    }
    return out;
  });
}

function nameValues(value: unknown, field: string): { name: string; value: string }[] {
  return stringRecords(value, field).map((r, i) => {
    if (!r['name']) throw apiErrors.invalidBody(`'${field}[${i}].name' is required.`);
    return { name: r['name'], value: r['value'] ?? '' };
  });
}

/**
 * Reads a brand from a create (`POST …/brands`) or update (`PUT …/brands/{id}`)
 * body. On update, what the body leaves out keeps its value from `current`.
 */
export function readBrand(body: unknown, current?: BrandRecord): BrandFields {
  const b = lenientObject(body, 'brand');
  if (!b) throw apiErrors.invalidBody('Send a brand as JSON.');
  const name = lenientString(b['brandName'], 'brandName') ?? current?.name;
  if (!name || name.trim() === '') throw apiErrors.invalidBody("'brandName' is required.");
  const colors = b['colors'] === undefined ? (current?.colors ?? []) : nameValues(b['colors'], 'colors');
  for (const c of colors)
    if (!hexColour.test(c.value))
      throw apiErrors.invalidBody(`Colour '${c.name}' must be written #rrggbb (got "${c.value}").`);
  const languages = (lenientArray(b['brandLanguages'], 'brandLanguages') ?? current?.languages ?? []).map((l, i) =>
    String(lenientString(l, `brandLanguages[${i}]`) ?? ''),
  );
  return {
    name: name.trim(),
    company: lenientString(b['brandCompany'], 'brandCompany') ?? current?.company ?? null,
    isSendingDefault: flag(b['isSendingDefault'], 'isSendingDefault') ?? current?.isSendingDefault ?? false,
    isSigningDefault: flag(b['isSigningDefault'], 'isSigningDefault') ?? current?.isSigningDefault ?? false,
    isOverridingCompanyName:
      flag(b['isOverridingCompanyName'], 'isOverridingCompanyName') ?? current?.isOverridingCompanyName ?? false,
    defaultLanguage:
      lenientString(b['defaultBrandLanguage'], 'defaultBrandLanguage') ?? current?.defaultLanguage ?? null,
    languages,
    colors,
    emailContent:
      b['emailContent'] === undefined
        ? (current?.emailContent ?? [])
        : stringRecords(b['emailContent'], 'emailContent'),
    links: b['links'] === undefined ? (current?.links ?? []) : stringRecords(b['links'], 'links'),
    landingPages:
      b['landingPages'] === undefined ? (current?.landingPages ?? []) : nameValues(b['landingPages'], 'landingPages'),
  };
}

/** A brand as the API answers it (#/definitions/brand); `base` is the account's address (…/accounts/{id}). */
export function brandJson(brand: BrandRecord, base: string): Record<string, unknown> {
  const logos: Record<string, string> = {};
  for (const type of logoTypes) if (brand.logos[type]) logos[type] = `${base}/brands/${brand.id}/logos/${type}`;
  return {
    brandId: brand.id,
    brandName: brand.name,
    ...(brand.company === null ? {} : { brandCompany: brand.company }),
    isSendingDefault: brand.isSendingDefault,
    isSigningDefault: brand.isSigningDefault,
    isOverridingCompanyName: brand.isOverridingCompanyName,
    ...(brand.defaultLanguage === null ? {} : { defaultBrandLanguage: brand.defaultLanguage }),
    brandLanguages: brand.languages,
    colors: brand.colors,
    emailContent: brand.emailContent,
    links: brand.links,
    landingPages: brand.landingPages,
    logos,
    resources: {
      email: `${base}/brands/${brand.id}/resources/email`,
      sending: `${base}/brands/${brand.id}/resources/sending`,
      signing: `${base}/brands/${brand.id}/resources/signing`,
      signingCaptive: `${base}/brands/${brand.id}/resources/signing_captive`,
    },
  };
}

/** #/definitions/AccountBrands for a list of brands. */
export function accountBrandsJson(brands: BrandRecord[], base: string): Record<string, unknown> {
  const sending = brands.find((b) => b.isSendingDefault);
  const signing = brands.find((b) => b.isSigningDefault);
  return {
    brands: brands.map((b) => brandJson(b, base)),
    ...(sending ? { senderBrandIdDefault: sending.id } : {}),
    ...(signing ? { recipientBrandIdDefault: signing.id } : {}),
  };
}
