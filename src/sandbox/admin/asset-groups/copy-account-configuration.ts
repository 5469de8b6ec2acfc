import { randomUUID } from 'node:crypto';
import type { AdminServices } from '../admin-services.js';

/**
 * What DocuSign's account clone copies besides the settings: the source's
 * permission profiles (built-in ones included), groups (with their
 * profiles, not their members: users are not copied) and brands (with their
 * logos, whose bytes the blob store already holds). Runs inside the work's
 * transaction.
 */
export function copyAccountConfiguration(
  sandbox: AdminServices,
  sourceAccountId: string,
  targetAccountId: string,
  now: number,
): void {
  const { db } = sandbox;
  // Reading them makes sure the source's built-in profiles and groups exist.
  const profiles = sandbox.permissionProfiles.list(sourceAccountId);
  sandbox.groups.list(sourceAccountId);
  const insertProfile = db.prepare(
    'INSERT INTO permission_profiles (account_id, name, settings_json, built_in, modified_at, modified_by) VALUES (?, ?, ?, ?, ?, NULL)',
  );
  const profileIds = new Map<string, string>();
  for (const p of profiles) {
    const info = insertProfile.run(targetAccountId, p.name, JSON.stringify(p.settings), p.builtIn ? 1 : 0, now);
    profileIds.set(p.id, String(info.lastInsertRowid));
  }
  const groups = db
    .prepare<[string], { name: string; group_type: string; permission_profile_id: string | null }>(
      'SELECT name, group_type, permission_profile_id FROM user_groups WHERE account_id = ? ORDER BY id',
    )
    .all(sourceAccountId);
  const insertGroup = db.prepare(
    'INSERT INTO user_groups (account_id, name, group_type, permission_profile_id) VALUES (?, ?, ?, ?)',
  );
  for (const g of groups) {
    const profile = g.permission_profile_id === null ? null : (profileIds.get(g.permission_profile_id) ?? null);
    insertGroup.run(targetAccountId, g.name, g.group_type, profile);
  }
  const brands = db
    .prepare<[string], { id: string }>('SELECT id FROM brands WHERE account_id = ? ORDER BY created_at, id')
    .all(sourceAccountId);
  const copyBrand = db.prepare(
    `INSERT INTO brands (id, account_id, name, company, is_sending_default, is_signing_default, is_overriding_company_name,
       default_language, languages_json, colors_json, email_content_json, links_json, landing_pages_json, created_at)
     SELECT ?, ?, name, company, is_sending_default, is_signing_default, is_overriding_company_name,
       default_language, languages_json, colors_json, email_content_json, links_json, landing_pages_json, ?
       FROM brands WHERE id = ?`,
  );
  const copyLogos = db.prepare(
    'INSERT INTO brand_logos (brand_id, logo_type, content_type, sha256) SELECT ?, logo_type, content_type, sha256 FROM brand_logos WHERE brand_id = ?',
  );
  for (const b of brands) {
    const id = randomUUID();
    copyBrand.run(id, targetAccountId, now, b.id);
    copyLogos.run(id, b.id);
  }
}
