import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('signrun command line', () => {
  it('prints help listing every command', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['validate', 'plan', 'run', 'serve', 'sign-url', 'report']) {
      expect(result.stdout).toContain(command);
    }
  });

  it('exits 2 on an unknown command', async () => {
    const result = await runCli(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown command/);
  });

  it('exits 2 on a bad option value', async () => {
    const result = await runCli(['run', 'examples', '--concurrency', 'zero']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--concurrency/);
  });
});
