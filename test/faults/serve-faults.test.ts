import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { binPath, runCli } from '../helpers/run-cli.js';
import { authHeader, call } from '../sandbox/helpers/api.js';

describe('signrun serve --faults / --fault-seed / --burst-limit', () => {
  it('refuses a bad spec with exit 2 and SR_USAGE, naming the entry', async () => {
    const result = await runCli(['serve', '--port', '0', '--faults', '500=0.1,reset-afer=0.1']);
    expect(result.code).toBe(2);
    expect(result.stderr + result.stdout).toContain('SR_USAGE');
    expect(result.stderr + result.stdout).toContain('reset-after');
  });

  it('passes the options through to the sandbox it serves', async () => {
    const child = spawn(
      process.execPath,
      [binPath, 'serve', '--port', '0', '--faults', '503=1', '--fault-seed', '12', '--burst-limit', '50'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    try {
      let out = '';
      const rootUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 20_000);
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          const m = /sandbox listening on (\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      expect(out).toContain('--fault-seed 12');
      const r = await call(`${rootUrl}/login_information`, { headers: authHeader() });
      expect(r.status).toBe(503);
      const origin = new URL(rootUrl).origin;
      const report = await call(`${origin}/sandbox/faults`);
      expect(report.json).toMatchObject({ seed: 12, spec: '503=1', apiRequests: 1, injected: { '503': 1 } });
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('close', resolve));
    }
  });
});
