/**
 * `${row.column}` and `${env.NAME}` references in job-file text. Anything else
 * between `${` and `}` is an error (SR_REFERENCE_INVALID), so that a typo such
 * as `${rows.id}` is caught instead of being sent as text.
 */
export type Reference = { kind: 'row' | 'env'; name: string; text: string } | { kind: 'invalid'; text: string };

const REFERENCE = /\$\{([^}]*)\}/g;
const VALID = /^(row|env)\.([A-Za-z_][A-Za-z0-9_. -]*)$/;

/** The references in a string, in order. */
export function findReferences(value: string): Reference[] {
  if (!value.includes('${')) return [];
  const found: Reference[] = [];
  for (const match of value.matchAll(REFERENCE)) {
    const inner = match[1]!.trim();
    const valid = VALID.exec(inner);
    found.push(
      valid
        ? { kind: valid[1] as 'row' | 'env', name: valid[2]!, text: match[0] }
        : { kind: 'invalid', text: match[0] },
    );
  }
  // An opening `${` without its closing brace.
  const unclosed = value.replace(REFERENCE, '').indexOf('${');
  if (unclosed >= 0) found.push({ kind: 'invalid', text: value.slice(unclosed, unclosed + 20) });
  return found;
}

type Part = string | { kind: 'row' | 'env'; name: string };

/** Templates split once into text and references: a forEach substitutes the same few strings for every row. */
const compiled = new Map<string, Part[]>();

function compile(value: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const match of value.matchAll(REFERENCE)) {
    const valid = VALID.exec(match[1]!.trim());
    if (!valid) continue;
    parts.push(value.slice(last, match.index), { kind: valid[1] as 'row' | 'env', name: valid[2]! });
    last = match.index + match[0].length;
  }
  parts.push(value.slice(last));
  return parts;
}

/** Replaces every valid reference with what `resolve` returns; other text is kept. */
export function substituteReferences(value: string, resolve: (kind: 'row' | 'env', name: string) => string): string {
  if (!value.includes('${')) return value;
  let parts = compiled.get(value);
  if (!parts) {
    parts = compile(value);
    if (compiled.size < 10_000) compiled.set(value, parts);
  }
  let out = '';
  for (const part of parts) out += typeof part === 'string' ? part : resolve(part.kind, part.name);
  return out;
}

/** True when the whole string is exactly one `${env.NAME}` reference (what a password must be). */
export function isSingleEnvReference(value: string): boolean {
  const refs = findReferences(value);
  return refs.length === 1 && refs[0]!.kind === 'env' && refs[0]!.text === value.trim();
}
