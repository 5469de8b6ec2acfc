/** A brand's logo slots, DocuSign's `logoType` (`…/brands/{brandId}/logos/{logoType}`). */
export const brandLogoTypes = ['primary', 'secondary', 'email'] as const;
export type BrandLogoType = (typeof brandLogoTypes)[number];

/**
 * The image kinds DocuSign takes as a brand's logo (PNG, JPEG, GIF), told by
 * their first bytes, never by a file's name: `validate` checks a job file's
 * logos with it, the sandbox refuses anything else with it and `import
 * account` names the logos it reads by it, so all three agree.
 */
export type LogoContentType = 'image/png' | 'image/jpeg' | 'image/gif';

/** The image type of logo bytes, by their first bytes; undefined for anything else. */
export function logoContentType(bytes: Uint8Array): LogoContentType | undefined {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(Buffer.from(bytes.subarray(0, 6)).toString('latin1'))) return 'image/gif';
  return undefined;
}

/** The file extension of a logo of each type (`import account` names the logo files it writes by it). */
export const logoExtensions: Readonly<Record<LogoContentType, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
};

/** Largest logo accepted, bytes (DocuSign's brand editor takes small images; the sandbox keeps them in its blob store). */
export const logoLimitBytes = 5 * 1024 * 1024;
