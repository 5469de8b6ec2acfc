import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { serviceErrorCodeRules } from '../../src/client/index.js';
import { faultKinds } from '../../src/sandbox/platform/faults/index.js';

const doc = readFileSync(new URL('../../docs/exactly-once.md', import.meta.url), 'utf8');

describe('docs/exactly-once.md', () => {
  it('lists every errorCode of the classification table', () => {
    for (const code of Object.keys(serviceErrorCodeRules)) expect(doc, code).toContain(`\`${code}\``);
  });

  it('describes every fault kind', () => {
    for (const kind of faultKinds) expect(doc, kind).toContain(`\`${kind}=P`);
  });
});
