import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { confinedPath } from './confined-path.js';
import { placeOf, type JobContext } from './job-context.js';
import type { ResolvedBrand, ResolvedConnect, ResolvedLogo } from './model.js';
import type { RawAccount } from './raw-job.js';
import { fieldName } from './schema-check.js';
import { brandLogoTypes, logoContentType, logoLimitBytes } from '../envelope/brand-logo.js';
import { makeSecret } from '../secret.js';

type Say = (code: Parameters<JobContext['sink']['add']>[0], message: string, path: Array<string | number>) => void;

/** A YAML boolean or DocuSign's string (the schema allows only these), as a boolean. */
const asBoolean = (value: unknown) => value === true || (typeof value === 'string' && value.toLowerCase() === 'true');

/**
 * The brands of one account entry, checked offline: each logo a file inside
 * the job file's folder (as documents are) whose first bytes make it a PNG,
 * JPEG or GIF of at most 5 MB, read once here with its sha256 (what the plan
 * compares with the account's logo). `${env.*}` substituted by `sub`.
 */
export function resolveBrands(
  raw: RawAccount,
  base: Array<string | number>,
  ctx: JobContext,
  sub: (value: string) => string,
): ResolvedBrand[] {
  const say: Say = (code, message, path) =>
    ctx.sink.add(code, message, placeOf(ctx, [...base, ...path]), { field: fieldName([...base, ...path]) });
  let folderReal: string | undefined;
  const logoOf = (file: string, path: Array<string | number>): ResolvedLogo | undefined => {
    folderReal ??= realpathSync.native(ctx.folder);
    const absolute = resolve(ctx.folder, file);
    const confined = confinedPath(ctx.folder, folderReal, absolute);
    const shown = ctx.show(absolute);
    if (!confined.ok) {
      if (confined.problem === 'missing' || confined.problem === 'not-a-file')
        say(
          'SR_LOGO_NOT_FOUND',
          `logo ${shown} ${confined.problem === 'missing' ? 'does not exist' : 'is not a file'}`,
          path,
        );
      else
        say(
          'SR_LOGO_OUTSIDE_JOB_FOLDER',
          `logo ${shown} ${confined.problem === 'outside' ? 'is outside' : 'is a symbolic link leading outside'} the job file's folder`,
          path,
        );
      return undefined;
    }
    if (confined.size > logoLimitBytes) {
      say(
        'SR_LOGO_NOT_IMAGE',
        `logo ${shown} is ${confined.size} bytes; DocuSign takes logos up to ${logoLimitBytes}`,
        path,
      );
      return undefined;
    }
    const bytes = readFileSync(confined.real);
    const contentType = logoContentType(bytes);
    if (!contentType) {
      say('SR_LOGO_NOT_IMAGE', `logo ${shown} is not a PNG, JPEG or GIF image (by its first bytes)`, path);
      return undefined;
    }
    return { file, contentType, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  };

  return (raw.brands ?? []).map((b, i) => {
    const brand: ResolvedBrand = {
      brandName: sub(b.brandName),
      logos: {},
      state: b.state ?? 'present',
      source: { file: ctx.file, ...ctx.locator.locate([...base, 'brands', i]) },
    };
    if (b.brandCompany !== undefined) brand.brandCompany = sub(b.brandCompany);
    if (b.colors !== undefined) brand.colors = b.colors.map((c) => ({ name: sub(c.name), value: sub(c.value) }));
    if (b.emailContent !== undefined)
      brand.emailContent = b.emailContent.map((c) =>
        Object.fromEntries(Object.entries(c).map(([k, v]) => [k, sub(String(v))])),
      );
    if (b.isSendingDefault !== undefined) brand.isSendingDefault = asBoolean(b.isSendingDefault);
    if (b.isSigningDefault !== undefined) brand.isSigningDefault = asBoolean(b.isSigningDefault);
    for (const type of brandLogoTypes) {
      const file = b.logos?.[type];
      if (file === undefined) continue;
      const logo = logoOf(sub(file), ['brands', i, 'logos', type]);
      if (logo) brand.logos[type] = logo;
    }
    return brand;
  });
}

/** DocuSign's Connect fields a job file may give as lists of strings. */
const listFields = ['events', 'envelopeEvents', 'recipientEvents', 'userIds'] as const;

/**
 * The Connect configurations of one account entry: DocuSign's fields as they
 * are sent (flags as "true"/"false", lists of strings, eventData), the
 * listener's password apart as a `Secret` (check-references.ts refused it
 * unless it is one `${env.*}`).
 */
export function resolveConnect(
  raw: RawAccount,
  base: Array<string | number>,
  ctx: JobContext,
  sub: (value: string) => string,
): ResolvedConnect[] {
  return (raw.connect ?? []).map((c, i) => {
    // The name is what the configuration is found by (ignoring case), not a field to compare.
    const { state, password, eventData, name: _name, ...rest } = c;
    const fields: ResolvedConnect['fields'] = {};
    for (const [name, value] of Object.entries(rest)) {
      if (value === undefined) continue;
      if ((listFields as readonly string[]).includes(name) && Array.isArray(value))
        fields[name] = value.map((v) => sub(String(v)));
      else if (typeof value === 'boolean') fields[name] = String(value);
      else if (typeof value === 'string')
        fields[name] = /^(true|false)$/i.test(value) ? value.toLowerCase() : sub(value);
    }
    if (eventData !== undefined)
      fields['eventData'] = {
        ...(eventData.version !== undefined ? { version: sub(eventData.version) } : {}),
        ...(eventData.format !== undefined ? { format: sub(eventData.format) } : {}),
        ...(eventData.includeData !== undefined ? { includeData: eventData.includeData.map(sub) } : {}),
      };
    return {
      name: sub(c.name),
      fields,
      ...(password !== undefined ? { password: makeSecret(sub(password)) } : {}),
      state: state ?? 'present',
      source: { file: ctx.file, ...ctx.locator.locate([...base, 'connect', i]) },
    };
  });
}
