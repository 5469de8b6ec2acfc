import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fg from 'fast-glob';
import { repoRoot } from './helpers/run-cli.js';

// HELPERS/charter: no sleeps to synchronise tests. A test waits for the
// thing it awaits to say so (test/helpers/barrier.ts: Changes,
// whenEmitted), or moves the sandbox's injectable clock. A setTimeout that
// only bounds a wait (kills a stuck child, fails with a message) is fine:
// what is refused is a promise resolved by a timer, and polling loops.
const sleeping = [
  { what: 'a promise resolved by a timer (a sleep)', pattern: /new Promise[^;]*?setTimeout\(\s*(?:r|res|resolve)\b/ },
  { what: 'a promise resolved by a timer (a sleep)', pattern: /setTimeout\(\s*(?:r|res|resolve)\s*,/ },
  { what: 'a polling loop on Date.now()', pattern: /while\s*\([^)]*Date\.now\(\)\s*</ },
  { what: 'expect.poll (polling, cut at 1 s)', pattern: /expect\.poll\(/ },
  { what: 'vi.waitFor (polling)', pattern: /vi\.waitFor\(/ },
  { what: 'a timed assertion (speed goes in bench/)', pattern: /expect\((?:performance|Date)\.now\(\)\s*-/ },
];

describe('test hygiene', () => {
  it('no test synchronises by sleeping or polling, or asserts on time taken', () => {
    const found: string[] = [];
    for (const file of fg.sync('test/**/*.ts', {
      cwd: repoRoot,
      ignore: ['test/fixtures/**', 'test/no-sleeps.test.ts'],
    })) {
      const lines = readFileSync(`${repoRoot}/${file}`, 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const { what, pattern } of sleeping) if (pattern.test(line)) found.push(`${file}:${i + 1}: ${what}`);
      });
    }
    expect(found).toEqual([]);
  });
});
