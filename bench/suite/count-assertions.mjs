#!/usr/bin/env node
// Counts the test suite's tests and assertions, from the sources: `it(` /
// `test(` calls, and `expect(` / `expect.soft(` / `expect.poll(` calls, per
// file and in total. Issue 38: the suite gets faster without testing less,
// so this figure, before and after a change, must not fall.
//   node bench/suite/count-assertions.mjs [--files] [git-ref]
// With a git ref it counts that commit's test/ instead of the working tree's.
// Assertions in test/'s helpers (every .ts that is not a .test.ts: a check
// shared by several files, such as the chaos scenarios' exactly-once check)
// are counted on a line of their own, so that moving a shared check out of
// a test file into a helper shows as a move, not as a loss.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const perFile = args.includes('--files');
const ref = args.find((a) => !a.startsWith('--'));

function tsFiles() {
  if (ref) {
    return execFileSync('git', ['ls-tree', '-r', '--name-only', ref, 'test'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts'));
  }
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.ts')) out.push(full);
    }
  };
  walk('test');
  return out.sort();
}
const testFiles = () => tsFiles().filter((f) => f.endsWith('.test.ts'));
const helperFiles = () => tsFiles().filter((f) => !f.endsWith('.test.ts'));

const read = (file) =>
  ref ? execFileSync('git', ['show', `${ref}:${file}`], { encoding: 'utf8' }) : readFileSync(file, 'utf8');
// Comments are left out: a commented-out expect tests nothing.
const code = (s) => s.replace(/\/\*[\s\S]*?\*\/|(^|[^:'"`\\])\/\/[^\n]*/g, '$1');

const expectCalls = (source) => (source.match(/(?:^|[^\w$.])expect(?:\.soft|\.poll)?\(/g) ?? []).length;

let tests = 0;
let assertions = 0;
const rows = [];
for (const file of testFiles()) {
  const source = code(read(file));
  const t = (source.match(/(?:^|[^\w$.])(?:it|test)(?:\.each\([^)]*\))?\(/g) ?? []).length;
  const a = expectCalls(source);
  tests += t;
  assertions += a;
  rows.push(`${String(a).padStart(5)} ${String(t).padStart(4)}  ${file}`);
}
if (perFile) console.log(`asserts tests  file\n${rows.join('\n')}`);
console.log(`${rows.length} test files, ${tests} tests, ${assertions} expect() calls${ref ? ` (at ${ref})` : ''}`);
let inHelpers = 0;
for (const file of helperFiles()) inHelpers += expectCalls(code(read(file)));
console.log(`${inHelpers} expect() calls in test/'s helpers (not .test.ts), ${assertions + inHelpers} in all`);
