import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import {
  prefillCollection,
  recipientKinds,
  tabKinds,
  unmodelledRecipientCollections,
} from '../../src/envelope/index.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 18's promise: a new tab or recipient kind is one catalogue entry, not
// two dozen files. That holds only while no module outside the model layer
// names a collection itself; this test reads every source file and fails on
// the first that does. The seed's data (a template's tabs, as DocuSign's JSON)
// is the one exception: it is data, written as a user would write it.
const allowed = [/^src\/envelope\//, /^src\/sandbox\/seed\/default-seed\.ts$/];

/** Words that are English, not wire, where they appear: file and collection. */
const prose = new Set(['src/reporters/report-html.ts: signers' /* "…and 3 more signers" */]);

const collections = [
  ...tabKinds.map((k) => k.collection),
  prefillCollection,
  ...recipientKinds.map((k) => k.collection),
  ...unmodelledRecipientCollections,
];

/** A collection named in code: as a property (`.signers`, `signers:`, `['signers']`) or a string (`'signers'`). */
function namingPattern(collection: string): RegExp {
  return new RegExp(`(?:\\.${collection}\\b|\\b${collection}\\??\\s*:|['"\`]${collection}['"\`])`);
}

function namedIn(source: string): string[] {
  // Comments may speak of signers and witnesses in English; only code names a collection.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  return collections.filter((c) => namingPattern(c).test(code));
}

describe('one envelope model', () => {
  const files = fg.sync('src/**/*.ts', { cwd: repoRoot }).filter((f) => !allowed.some((a) => a.test(f)));

  it('no module outside src/envelope names a tab or recipient collection', () => {
    expect(files.length).toBeGreaterThan(200);
    const naming = files.flatMap((file) =>
      namedIn(readFileSync(join(repoRoot, file), 'utf8'))
        .map((c) => `${file}: ${c}`)
        .filter((named) => !prose.has(named)),
    );
    expect(naming).toEqual([]);
  });

  it('would see a collection named in code, and not one spoken of in a comment', () => {
    expect(namedIn("const list = tabs['signHereTabs'];")).toEqual(['signHereTabs']);
    expect(namedIn('return { carbonCopies: [] };')).toEqual(['carbonCopies']);
    expect(namedIn('const n = envelope.recipients?.signers?.length;')).toEqual(['signers']);
    expect(namedIn('// remote signers: they sign by email\nconst x = 1;')).toEqual([]);
  });

  it('the client and the sandbox import the same envelope wire types', () => {
    const importsWire = (file: string) =>
      /from '(?:\.\.\/)+envelope\/(?:wire|index)\.js'/.test(readFileSync(join(repoRoot, file), 'utf8'));
    expect(importsWire('src/client/esignature/envelopes.ts')).toBe(true);
    expect(importsWire('src/sandbox/esignature/envelopes/wire/envelope-definition.ts')).toBe(true);
    expect(importsWire('src/sandbox/esignature/envelopes/wire/envelope-json.ts')).toBe(true);
  });
});
