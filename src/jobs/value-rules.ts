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

const EMAIL =
  /^[^\s@"<>(),;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** A problem with a value, or undefined when it is fine. */
export function emailProblem(value: string): string | undefined {
  return EMAIL.test(value) ? undefined : `${JSON.stringify(value)} is not a valid email address`;
}

export function httpUrlProblem(value: string): string | undefined {
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
