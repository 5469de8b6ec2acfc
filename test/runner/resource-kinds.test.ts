import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resourceKindNames, resourceKinds } from '../../src/runner/resources/resource-kinds.js';
import { itemWords, summaryWords } from '../../src/runner/resources/resource-words.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 33: the list of what an account entry keeps exists once, in the
// catalogue of resource kinds; report.json's checked-in schema says the same.

/** Every `kind` enum of an account's `contents` in a JSON Schema, wherever the schema defines them. */
function contentsKinds(node: unknown, found: unknown[] = []): unknown[] {
  if (node === null || typeof node !== 'object') return found;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    const kind = (value as { items?: { properties?: { kind?: { enum?: unknown } } } } | null)?.items?.properties?.kind;
    if (key === 'contents' && kind) found.push(kind.enum);
    contentsKinds(value, found);
  }
  return found;
}

describe('the catalogue of resource kinds', () => {
  it('is the kind list of report.json’s schema (an account’s contents), in the same order', () => {
    const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas/report.schema.json'), 'utf8')) as unknown;
    const lists = contentsKinds(schema);
    expect(lists.length).toBeGreaterThan(0);
    for (const list of lists) expect(list).toEqual(resourceKindNames);
  });

  it('names each kind once, with words for people', () => {
    expect(new Set(resourceKindNames).size).toBe(resourceKinds.length);
    for (const kind of resourceKinds) {
      expect(kind.words.one).not.toBe('');
      expect(kind.words.summary).not.toBe('');
      expect(itemWords(kind.kind)).toBe(kind.words.one);
      // Each kind reads itself, or is read with the account's listings and decided from them.
      expect('plan' in kind || ('read' in kind && 'decide' in kind)).toBe(true);
    }
  });

  it('summarises an account’s contents in the catalogue’s words and order, the people first', () => {
    expect(summaryWords([])).toBe('profiles, groups and users');
    expect(summaryWords([{ kind: 'template' }, { kind: 'brand' }])).toBe(
      'profiles, groups, users, brands and templates',
    );
    expect(summaryWords(resourceKindNames.map((kind) => ({ kind })))).toBe(
      'profiles, groups, users, settings, brands, Connect configurations, organisation users and templates',
    );
  });
});
