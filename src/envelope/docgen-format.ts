/**
 * How a Date or Number merge field's value is written into the generated
 * letter (`DocGenFormField.format`: an `expression` and a `locale`). signrun
 * reads the patterns authors use most (`#,##0.00`, `0`; `MMMM d, yyyy`,
 * `dd/MM/yyyy`, `yyyy-MM-dd`) the way ICU does; a value without a format is
 * written as it was given, as DocuSign does with a TextBox.
 */
import type { DocGenFormField } from './docgen-fields.js';
import { isDate } from './tab-value-rules.js';

/** The text a field puts into the document. */
export function docGenFieldText(field: Pick<DocGenFormField, 'value' | 'type' | 'format'>): string {
  const value = field.value ?? '';
  const expression = field.format?.expression?.trim();
  if (!expression || value.trim() === '') return value;
  const locale = localeOf(field.format?.locale);
  if (field.type === 'Number') return formatNumber(value, expression, locale) ?? value;
  if (field.type === 'Date') return formatDate(value, expression, locale) ?? value;
  return value;
}

/** A locale Intl knows, else en-US (an unknown locale must not stop a letter). */
function localeOf(locale: string | undefined): string {
  if (!locale) return 'en-US';
  try {
    return Intl.getCanonicalLocales(locale.replace('_', '-'))[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}

/** `#,##0.00`: grouping when the pattern has a comma, as many decimals as zeros after the point. */
function formatNumber(value: string, expression: string, locale: string): string | undefined {
  const number = Number(value.trim().replace(/,/g, ''));
  if (!Number.isFinite(number)) return undefined;
  const decimals = /\.(0+)/.exec(expression)?.[1]?.length ?? 0;
  const prefix = /^[^#0,.]*/.exec(expression)?.[0] ?? '';
  const suffix = /[^#0,.]*$/.exec(expression)?.[0] ?? '';
  const digits = new Intl.NumberFormat(locale, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: expression.includes(','),
  }).format(number);
  return `${prefix}${digits}${suffix}`;
}

/** `MMMM d, yyyy` and the like: y, M, d, E runs as ICU reads them; quoted text kept. */
function formatDate(value: string, expression: string, locale: string): string | undefined {
  const text = value.trim();
  if (!isDate(text)) return undefined;
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const [y, m, d] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : [Number(us![3]), Number(us![1]), Number(us![2])];
  const date = new Date(Date.UTC(y, m - 1, d));
  const part = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(date);
  return expression.replace(/'([^']*)'|y+|M+|d+|E+/g, (run, quoted: string | undefined) => {
    if (quoted !== undefined) return quoted;
    const n = run.length;
    switch (run[0]) {
      case 'y':
        return n === 2 ? String(y % 100).padStart(2, '0') : String(y);
      case 'M':
        return n >= 4 ? part({ month: 'long' }) : n === 3 ? part({ month: 'short' }) : String(m).padStart(n, '0');
      case 'd':
        return String(d).padStart(n, '0');
      default:
        return part({ weekday: n >= 4 ? 'long' : 'short' });
    }
  });
}
