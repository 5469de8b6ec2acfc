import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandHandler } from '../../src/cli/command.js';
import run from '../../src/cli/commands/run.js';
import plan from '../../src/cli/commands/plan.js';
import sync from '../../src/cli/commands/sync.js';
import preview from '../../src/cli/commands/preview.js';
import type { CommandIO } from '../../src/cli/io.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 36: every long command stops on the first SIGTERM, validation
// included. `run`, `plan`, `sync` and `preview` hand main's signal to the
// load of the job files, so a signal that came while a big campaign was being
// checked stops it there (SR_INTERRUPTED, exit 130), before anything is sent,
// asked or drawn. The handlers are called as main calls them, with a signal
// that has already fired.

const work = join(repoRoot, `test/.tmp/commands-interrupted-load-${process.pid}`);
afterAll(() => rmSync(work, { recursive: true, force: true }));

function campaign(): string {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(
    join(work, 'job.yaml'),
    [
      'version: 1',
      'job: interrupted',
      'defaults: { emailSubject: Sign, returnUrl: https://example.com/done }',
      'envelopes:',
      '  - key: letter-${row.id}',
      '    forEach: { csv: rows.csv }',
      '    documents: [{ file: d.pdf }]',
      '    recipients: [{ name: "P ${row.id}", email: "p${row.id}@example.com", clientUserId: "c${row.id}" }]',
      '',
    ].join('\n'),
  );
  writeFileSync(join(work, 'rows.csv'), `id\n${Array.from({ length: 50 }, (_, i) => i + 1).join('\n')}\n`);
  writeFileSync(join(work, 'd.pdf'), readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf')));
  return work;
}

class Captured extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += String(chunk);
    done();
  }
}

const handlers: Record<string, CommandHandler> = { run, plan, sync, preview };

describe('a signal that fired stops the load of the job files, before anything is done', () => {
  for (const name of ['run', 'plan', 'sync', 'preview']) {
    it(`${name}: SR_INTERRUPTED (exit 130), nothing written`, async () => {
      const dir = campaign();
      const out = join(dir, 'out');
      const io: CommandIO = { stdout: new Captured(), stderr: new Captured(), env: { NO_COLOR: '1' }, cwd: dir };
      const handler = handlers[name]!;
      const options = name === 'preview' ? { out: join(dir, 'preview') } : { out };
      const done = handler({ args: [['.']], options, io, signal: AbortSignal.abort() });
      await expect(done).rejects.toMatchObject({ code: 'SR_INTERRUPTED', exitCode: 130 });
      expect(existsSync(out)).toBe(false);
      expect(existsSync(join(dir, 'preview'))).toBe(false);
    });
  }
});
