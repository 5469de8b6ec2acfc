#!/usr/bin/env node
// Counts the test suite's tests and assertions, from the sources: `it(` /
// `test(` calls, and `expect(` / `expect.soft(` / `expect.poll(` calls, per
// file and in total. Issue 38: the suite gets faster without testing less,
// so this figure, before and after a change, must not fall.
//   node bench/suite/count-assertions.mjs [--files] [git-ref]
// With a git ref it counts that commit's test/ instead of the working tree's.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const perFile = args.includes('--files');
const ref = args.find((a) => !a.startsWith('--'));

function testFiles() {
  if (ref) {
    return execFileSync('git', ['ls-tree', '-r', '--name-only', ref, 'test'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.test.ts'));
  }
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.test.ts')) out.push(full);
    }
  };
  walk('test');
  return out.sort();
}

const read = (file) =>
  ref ? execFileSync('git', ['show', `${ref}:${file}`], { encoding: 'utf8' }) : readFileSync(file, 'utf8');
// Comments are left out: a commented-out expect tests nothing.
const code = (s) => s.replace(/\/\*[\s\S]*?\*\/|(^|[^:'"`\\])\/\/[^\n]*/g, '$1');

let tests = 0;
let assertions = 0;
const rows = [];
for (const file of testFiles()) {
  const source = code(read(file));
  const t = (source.match(/(?:^|[^\w$.])(?:it|test)(?:\.each\([^)]*\))?\(/g) ?? []).length;
  const a = (source.match(/(?:^|[^\w$.])expect(?:\.soft|\.poll)?\(/g) ?? []).length;
  tests += t;
  assertions += a;
  rows.push(`${String(a).padStart(5)} ${String(t).padStart(4)}  ${file}`);
}
if (perFile) console.log(`asserts tests  file\n${rows.join('\n')}`);
console.log(`${rows.length} test files, ${tests} tests, ${assertions} expect() calls${ref ? ` (at ${ref})` : ''}`);
