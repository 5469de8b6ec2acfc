import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalogue } from '../../src/errors/catalogue.js';
import { renderErrorDocs } from '../../src/errors/docs.js';

describe('error catalogue', () => {
  it('docs/errors.md is generated from the catalogue (run `npm run docs:errors` after adding a code)', () => {
    const onDisk = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    expect(onDisk).toBe(renderErrorDocs());
  });

  it('every code is documented with an SR_ name, a summary and a hint', () => {
    const docs = renderErrorDocs();
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      expect(code).toMatch(/^SR_[A-Z0-9_]+$/);
      expect(entry.summary.length, code).toBeGreaterThan(10);
      expect(entry.hint.length, code).toBeGreaterThan(10);
      expect(docs).toContain(`\`${code}\``);
    }
  });
});
