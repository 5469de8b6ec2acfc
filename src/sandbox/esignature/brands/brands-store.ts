import { randomUUID } from 'node:crypto';
import type { SandboxDatabase } from '../../platform/db/open-database.js';

import { brandLogoTypes, type BrandLogoType } from '../../../envelope/brand-logo.js';

/** A logo slot of a brand (`…/brands/{brandId}/logos/{logoType}`): DocuSign's, shared with validate and the client. */
export const logoTypes = brandLogoTypes;
export type LogoType = BrandLogoType;

/** One brand of an account, as stored (tables `brands`, `brand_logos` in db/schema.ts). */
export interface BrandRecord {
  id: string;
  accountId: string;
  name: string;
  company: string | null;
  isSendingDefault: boolean;
  isSigningDefault: boolean;
  isOverridingCompanyName: boolean;
  defaultLanguage: string | null;
  languages: string[];
  /** DocuSign's `colors`: `[{ name, value }]`, values `#rrggbb` (checked on the way in). */
  colors: { name: string; value: string }[];
  /** DocuSign's `emailContent` (brandEmailContent), as sent. */
  emailContent: Record<string, string>[];
  links: Record<string, string>[];
  landingPages: { name: string; value: string }[];
  /** Logo slots that hold an image. */
  logos: Partial<Record<LogoType, { contentType: string; sha256: string }>>;
  createdAt: number;
}

/** What a create or update writes: everything but the identity. */
export type BrandFields = Omit<BrandRecord, 'id' | 'accountId' | 'logos' | 'createdAt'>;

export type BrandsStore = ReturnType<typeof createBrandsStore>;

const stores = new WeakMap<SandboxDatabase, BrandsStore>();

/** The brands of a database (one store per database). */
export function brandsStore(db: SandboxDatabase): BrandsStore {
  let store = stores.get(db);
  if (!store) {
    store = createBrandsStore(db);
    stores.set(db, store);
  }
  return store;
}

interface BrandRow {
  id: string;
  account_id: string;
  name: string;
  company: string | null;
  is_sending_default: number;
  is_signing_default: number;
  is_overriding_company_name: number;
  default_language: string | null;
  languages_json: string;
  colors_json: string;
  email_content_json: string;
  links_json: string;
  landing_pages_json: string;
  created_at: number;
}

function createBrandsStore(db: SandboxDatabase) {
  const byId = db.prepare<[string], BrandRow>('SELECT * FROM brands WHERE id = ?');
  const byAccount = db.prepare<[string], BrandRow>('SELECT * FROM brands WHERE account_id = ? ORDER BY created_at, id');
  // The first of the account's list (same order) that is its sending default: asked on every envelope creation,
  // where reading and parsing every brand of the account (and its logos) to pick one was wasted work.
  const sendingDefaultOf = db.prepare<[string], BrandRow>(
    'SELECT * FROM brands WHERE account_id = ? AND is_sending_default = 1 ORDER BY created_at, id LIMIT 1',
  );
  const logosOf = db.prepare<[string], { logo_type: LogoType; content_type: string; sha256: string }>(
    'SELECT logo_type, content_type, sha256 FROM brand_logos WHERE brand_id = ?',
  );
  const insert = db.prepare(
    `INSERT INTO brands (id, account_id, name, company, is_sending_default, is_signing_default, is_overriding_company_name,
       default_language, languages_json, colors_json, email_content_json, links_json, landing_pages_json, created_at)
     VALUES (@id, @account_id, @name, @company, @is_sending_default, @is_signing_default, @is_overriding_company_name,
       @default_language, @languages_json, @colors_json, @email_content_json, @links_json, @landing_pages_json, @created_at)`,
  );
  const update = db.prepare(
    `UPDATE brands SET name = @name, company = @company, is_sending_default = @is_sending_default,
       is_signing_default = @is_signing_default, is_overriding_company_name = @is_overriding_company_name,
       default_language = @default_language, languages_json = @languages_json, colors_json = @colors_json,
       email_content_json = @email_content_json, links_json = @links_json, landing_pages_json = @landing_pages_json
     WHERE id = @id`,
  );
  // An account has one sending default and one signing default: setting one clears the others.
  const clearSendingDefault = db.prepare('UPDATE brands SET is_sending_default = 0 WHERE account_id = ? AND id <> ?');
  const clearSigningDefault = db.prepare('UPDATE brands SET is_signing_default = 0 WHERE account_id = ? AND id <> ?');
  const remove = db.prepare('DELETE FROM brands WHERE id = ?');
  const removeLogos = db.prepare('DELETE FROM brand_logos WHERE brand_id = ?');
  const putLogo = db.prepare(
    'INSERT OR REPLACE INTO brand_logos (brand_id, logo_type, content_type, sha256) VALUES (?, ?, ?, ?)',
  );
  const removeLogo = db.prepare('DELETE FROM brand_logos WHERE brand_id = ? AND logo_type = ?');
  const setEnvelopeBrand = db.prepare('INSERT OR REPLACE INTO envelope_brands (envelope_id, brand_id) VALUES (?, ?)');
  const envelopeBrand = db.prepare<[string], { brand_id: string }>(
    'SELECT brand_id FROM envelope_brands WHERE envelope_id = ?',
  );

  const toRecord = (row: BrandRow): BrandRecord => {
    const logos: BrandRecord['logos'] = {};
    for (const l of logosOf.all(row.id)) logos[l.logo_type] = { contentType: l.content_type, sha256: l.sha256 };
    return {
      id: row.id,
      accountId: row.account_id,
      name: row.name,
      company: row.company,
      isSendingDefault: row.is_sending_default === 1,
      isSigningDefault: row.is_signing_default === 1,
      isOverridingCompanyName: row.is_overriding_company_name === 1,
      defaultLanguage: row.default_language,
      languages: JSON.parse(row.languages_json) as string[],
      colors: JSON.parse(row.colors_json) as BrandRecord['colors'],
      emailContent: JSON.parse(row.email_content_json) as BrandRecord['emailContent'],
      links: JSON.parse(row.links_json) as BrandRecord['links'],
      landingPages: JSON.parse(row.landing_pages_json) as BrandRecord['landingPages'],
      logos,
      createdAt: row.created_at,
    };
  };
  const params = (id: string, f: BrandFields) => ({
    id,
    name: f.name,
    company: f.company,
    is_sending_default: f.isSendingDefault ? 1 : 0,
    is_signing_default: f.isSigningDefault ? 1 : 0,
    is_overriding_company_name: f.isOverridingCompanyName ? 1 : 0,
    default_language: f.defaultLanguage,
    languages_json: JSON.stringify(f.languages),
    colors_json: JSON.stringify(f.colors),
    email_content_json: JSON.stringify(f.emailContent),
    links_json: JSON.stringify(f.links),
    landing_pages_json: JSON.stringify(f.landingPages),
  });
  const keepDefaultsUnique = (accountId: string, id: string, f: BrandFields) => {
    if (f.isSendingDefault) clearSendingDefault.run(accountId, id);
    if (f.isSigningDefault) clearSigningDefault.run(accountId, id);
  };

  return {
    /** A brand of the account (case of the id ignored), or undefined for a missing or foreign one. */
    get(accountId: string, brandId: string): BrandRecord | undefined {
      const row = byId.get(brandId.toLowerCase());
      return row && row.account_id === accountId ? toRecord(row) : undefined;
    },
    /** A brand by id alone (the signing page's stylesheet, which knows no account). */
    getById(brandId: string): BrandRecord | undefined {
      const row = byId.get(brandId.toLowerCase());
      return row ? toRecord(row) : undefined;
    },
    list(accountId: string): BrandRecord[] {
      return byAccount.all(accountId).map(toRecord);
    },
    create(accountId: string, fields: BrandFields, now: number): BrandRecord {
      const id = randomUUID();
      db.transaction(() => {
        insert.run({ ...params(id, fields), account_id: accountId, created_at: now });
        keepDefaultsUnique(accountId, id, fields);
      })();
      return toRecord(byId.get(id)!);
    },
    update(brand: BrandRecord, fields: BrandFields): BrandRecord {
      db.transaction(() => {
        update.run(params(brand.id, fields));
        keepDefaultsUnique(brand.accountId, brand.id, fields);
      })();
      return toRecord(byId.get(brand.id)!);
    },
    delete(brandId: string): void {
      db.transaction(() => {
        remove.run(brandId);
        removeLogos.run(brandId);
      })();
    },
    putLogo(brandId: string, logoType: LogoType, contentType: string, sha256: string): void {
      putLogo.run(brandId, logoType, contentType, sha256);
    },
    deleteLogo(brandId: string, logoType: LogoType): void {
      removeLogo.run(brandId, logoType);
    },
    /** The account's sending default brand (`isSendingDefault`), if it has one. */
    sendingDefault(accountId: string): BrandRecord | undefined {
      const row = sendingDefaultOf.get(accountId);
      return row && toRecord(row);
    },
    /** Records the brand an envelope was created with. */
    brandEnvelope(envelopeId: string, brandId: string): void {
      setEnvelopeBrand.run(envelopeId, brandId);
    },
    /** The brand an envelope shows: the one it was created with, if it still exists. */
    ofEnvelope(envelopeId: string): BrandRecord | undefined {
      const row = envelopeBrand.get(envelopeId);
      return row ? this.getById(row.brand_id) : undefined;
    },
  };
}
