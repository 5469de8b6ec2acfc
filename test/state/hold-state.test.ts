import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdState, type HoldStateWarning } from '../../src/state/hold-state.js';
import { readStateLock } from '../../src/state/state-lock.js';
import { journalFileName } from '../../src/state/journal.js';
import { SignrunError } from '../../src/errors/signrun-error.js';
import { writeStaleLock } from './child.js';

/** holdState: how `run` and `sync` both take a state folder. */
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signrun-hold-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const rootUrl = 'http://127.0.0.1:9/restapi/v2';

describe('holdState', () => {
  it("says that a killed run's lock was taken over and that the journal had a damaged line, then gives the lock back", async () => {
    const deadPid = await writeStaleLock(dir, 'signrun sync (killed)');
    const sent = {
      v: 1,
      at: '2026-11-20T09:00:00.000Z',
      kind: 'envelope',
      id: 'hr/a',
      step: 'sent',
      envelopeId: 'e-1',
    };
    await writeFile(join(dir, journalFileName), `${JSON.stringify(sent)}\nnot json\n`);
    const warnings: HoldStateWarning[] = [];
    const state = await holdState(dir, { command: 'signrun sync', rootUrl, warn: (w) => warnings.push(w) });
    expect(warnings.map((w) => w.kind)).toEqual(['killed-run-taken-over', 'journal-repaired']);
    expect(warnings[0]?.message).toContain(`pid ${deadPid}, signrun sync (killed)) was killed`);
    expect(warnings[1]?.message).toContain('1 unreadable line(s)');
    expect(state.progress.envelopes.get('hr/a')?.sent).toBe(true);
    expect((await readStateLock(dir))?.pid).toBe(process.pid);
    await state.close();
    await state.close();
    expect(await readStateLock(dir)).toBeUndefined();
  });

  it('gives the lock back when the folder belongs to another service, and changes nothing there', async () => {
    const other = 'https://demo.docusign.net/restapi/v2.1';
    const first = await holdState(dir, { command: 'signrun run', rootUrl: other, warn: () => {} });
    await first.close();
    const target = await readFile(join(dir, 'target.json'), 'utf8');
    const refused = await holdState(dir, { command: 'signrun sync', rootUrl, warn: () => {} }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SignrunError);
    expect((refused as SignrunError).code).toBe('SR_STATE_OTHER_TARGET');
    expect(await readStateLock(dir)).toBeUndefined();
    expect(await readFile(join(dir, 'target.json'), 'utf8')).toBe(target);
  });
});
