import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../src/output/terminal-text.js';
import { runCli } from '../helpers/run-cli.js';
import { fanOutJob } from './run-helpers.js';

/** A terminal's control sequences: clear the screen, retitle the window (OSC … BEL), a bell. */
const hostileName = 'Eve\u001b[2J\u001b]0;owned\u0007 Mallory';
// eslint-disable-next-line no-control-regex -- what the test looks for is a raw control character
const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('control characters from input data on the console (issue 36)', () => {
  it('terminalSafe shows every control and invisible reordering character as an escape', () => {
    expect(terminalSafe(hostileName)).toBe('Eve\\x1b[2J\\x1b]0;owned\\x07 Mallory');
    expect(terminalSafe('a\nb\r\tc\u007f\u009b\u202eevil\u2066')).toBe('a\\nb\\r\\tc\\x7f\\x9b\\u202eevil\\u2066');
    expect(terminalSafe('Jean Français 漢字 😀')).toBe('Jean Français 漢字 😀');
  });

  it('run prints a CSV name holding ESC and BEL sequences escaped in its "Still to sign" lines, and status too', async () => {
    const dir = await fanOutJob(1, 'hostile-names');
    const csv = path.join(dir, 'data/people.csv');
    await writeFile(csv, (await readFile(csv, 'utf8')).replace('Employee 1', `"${hostileName}"`));
    const run = await runCli(['run', '.', '--out', 'out', '--signing-urls', 'on-demand'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Still to sign/);
    expect(run.stdout).toContain('Eve\\x1b[2J\\x1b]0;owned\\x07 Mallory');
    expect(run.stdout).not.toMatch(raw);
    expect(run.stderr).not.toMatch(raw);
    const status = await runCli(['status', '.', '--out', 'out'], { cwd: dir });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('Eve\\x1b[2J');
    expect(status.stdout).not.toMatch(raw);
  });

  it('validate prints a diagnostic whose excerpt and message carry control characters escaped', async () => {
    const dir = await fanOutJob(1, 'hostile-diagnostic');
    const csv = path.join(dir, 'data/people.csv');
    // An email that is not one, with a bell and a screen clear in it: reported at its CSV cell.
    await writeFile(csv, (await readFile(csv, 'utf8')).replace('employee1@example.com', 'bad\u0007\u001b[2Jmail'));
    const result = await runCli(['validate', '.'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('\\x07\\x1b[2J');
    expect(result.stdout + result.stderr).not.toMatch(raw);
  });
});
