import { fieldLimits } from '../envelope/field-limits.js';
import { didYouMean } from '../errors/did-you-mean.js';

/**
 * Languages of the signing interface that the service knows
 * (swagger: recipientEmailNotification.supportedLanguage).
 */
export const supportedLanguages = [
  'ar',
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'en_GB',
  'es',
  'es_MX',
  'et',
  'fa',
  'fi',
  'fr',
  'fr_CA',
  'he',
  'hi',
  'hr',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lt',
  'lv',
  'ms',
  'nl',
  'no',
  'pl',
  'pt',
  'pt_BR',
  'ro',
  'ru',
  'sk',
  'sl',
  'sr',
  'sv',
  'th',
  'tr',
  'uk',
  'vi',
  'zh_CN',
  'zh_TW',
] as const;

/** Envelope and account keys: each names a folder in the output folder (`<job>/<key>/`). */
export const KEY = /^[A-Za-z0-9][A-Za-z0-9._@+-]*$/;

const EMAIL =
  /^[^\s@"<>(),;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** A problem with a value, or undefined when it is fine. */
export function emailProblem(value: string): string | undefined {
  return EMAIL.test(value) ? undefined : `${JSON.stringify(value)} is not a valid email address`;
}

/** The last URL checked: a forEach's 10,000 envelopes share their returnUrl, and a URL parse a row was not free. */
let lastUrl: { value: string; problem: string | undefined } | undefined;

export function httpUrlProblem(value: string): string | undefined {
  if (lastUrl?.value !== value) lastUrl = { value, problem: urlProblem(value) };
  return lastUrl.problem;
}

function urlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${JSON.stringify(value)} is not an absolute URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `${JSON.stringify(value)} must use http or https, not ${url.protocol.slice(0, -1)}`;
  return undefined;
}

export function languageProblem(value: string): string | undefined {
  if ((supportedLanguages as readonly string[]).includes(value)) return undefined;
  const suggestion = didYouMean(value.replace('-', '_'), supportedLanguages);
  return `supportedLanguage ${JSON.stringify(value)} is not a language the service knows${suggestion ? `; did you mean "${suggestion}"?` : ''}`;
}

/**
 * Custom field names signrun keeps for itself: `signrun` (the envelope's
 * identity) and `signrunDigest` (its content), and any other name it may
 * add with that prefix. A job setting them could make another job's
 * envelope look like its own (drift, or a false adoption). Mirrors the
 * `not` pattern of customFields[].name in schemas/job.schema.json, for names
 * that become reserved only once `${…}` is filled in.
 */
const RESERVED_CUSTOM_FIELD = /^\s*signrun/i;

export function reservedCustomFieldProblem(name: string): string | undefined {
  return RESERVED_CUSTOM_FIELD.test(name)
    ? `custom field name ${JSON.stringify(name)} is reserved: names starting with "signrun" are signrun's own (identity and digest of each envelope)`
    : undefined;
}

/**
 * signrun writes an item's identity (`<job>/<key>`, a template's with
 * `#template`, an account's claim with `#account`) in a text custom field,
 * whose value DocuSign limits (src/envelope/field-limits.ts): an identity
 * longer is refused by DocuSign at send, so validate refuses it first.
 */
export function identityLengthProblem(job: string, key: string, suffix: string): string | undefined {
  const max = fieldLimits.customFieldValue.max;
  if (job.length + 1 + key.length + suffix.length <= max) return undefined;
  const identity = `${job}/${key}${suffix}`;
  return `the identity ${JSON.stringify(identity.length > 60 ? `${identity.slice(0, 57)}...` : identity)} is ${identity.length} characters long; signrun writes it in a custom field, which DocuSign limits to ${max} characters: shorten the job name (${job.length}) or the key (${key.length})`;
}
