import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCatalogue } from '../../src/errors/catalogue.js';
import { repoRoot } from '../helpers/run-cli.js';

// In someone's own repository signrun is a dev dependency: `signrun run`
// typed in a shell is "command not found"; `npx signrun run` works. Hints
// name the command as the user types it.
const bare = /(?<!npx )`signrun (validate|plan|run|serve|sign-url|report|links|sync|status|--help|<command>)/;

describe('hints name the command as the user types it (npx signrun …)', () => {
  it('in the error catalogue', () => {
    for (const [code, entry] of Object.entries(errorCatalogue)) expect(`${entry.hint ?? ''}`, code).not.toMatch(bare);
  });

  it('in the messages of the run, its console summary and report.md', () => {
    for (const file of [
      'src/reporters/console-summary.ts',
      'src/reporters/report-markdown.ts',
      'src/cli/commands/run.ts',
    ]) {
      const code = readFileSync(join(repoRoot, file), 'utf8')
        .split('\n')
        .filter((l) => !/^\s*(\*|\/\/|\/\*\*)/.test(l))
        .join('\n');
      expect(code.replace(/\\`/g, '`'), file).not.toMatch(bare);
    }
  });
});
