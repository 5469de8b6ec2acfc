import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './run-cli.js';

/**
 * A copy of examples/ in a temporary folder, each CSV under data/ cut to its
 * header and first `rows` rows (issue 38): a test of what one row's envelope
 * or the report looks like needs the examples' jobs, not their 20 rows of
 * each (the examples' CSVs have one record a line). Without `rows`, the CSVs
 * are copied whole.
 */
export function examplesCopy(rows?: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'signrun-examples-'));
  cpSync(join(repoRoot, 'examples'), dir, { recursive: true });
  if (rows === undefined) return dir;
  for (const name of readdirSync(join(dir, 'data')).filter((n) => n.endsWith('.csv'))) {
    const file = join(dir, 'data', name);
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, `${lines.slice(0, rows + 1).join('\n')}\n`);
  }
  return dir;
}
