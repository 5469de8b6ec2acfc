import { execFile, execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/run-cli.js';

// The README's "In your own repository": `npm pack`, then in a fresh folder
// outside the clone `npm install --save-dev <tarball>` and `npx signrun`.
// Tests run offline, so npm's fetch of the dependencies is stood in for: the
// tarball is unpacked where npm puts it (node_modules/signrun, with its bin
// linked in node_modules/.bin) and its dependencies are linked from this
// clone's node_modules. What is checked is the package itself: that the
// files it ships are enough for `npx signrun validate` and `run` in a
// stranger's folder, and that it says its own version. (A full online
// install is recorded in the closing note of issue 13.)

function sh(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('signrun in your own repository (npm pack → install → npx signrun)', () => {
  it('the packed tarball validates and runs a job in a fresh folder outside the clone', async () => {
    const work = mkdtempSync(join(tmpdir(), 'signrun-own-repo-'));
    // dist/ is built by `npm test`; --ignore-scripts skips `prepare` (a second build).
    const packed = JSON.parse(
      sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], repoRoot),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const tarball = join(work, packed[0]!.filename);
    const shipped = packed[0]!.files.map((f) => f.path);
    expect(shipped).toContain('dist/cli/bin.js');
    expect(shipped).toContain('schemas/job.schema.json');
    // The README and every error's hint point at docs/ and examples/: they ship too (issue 26).
    expect(shipped).toContain('docs/errors.md');
    expect(shipped).toContain('docs/job-files.md');
    expect(shipped).toContain('examples/offer-letters.yaml');
    expect(shipped).toContain('examples/docs/offer-letter-form.pdf');
    expect(shipped.some((p) => p.startsWith('test/') || p.startsWith('src/'))).toBe(false);

    const project = join(work, 'my-repo');
    const installed = join(project, 'node_modules', 'signrun');
    mkdirSync(installed, { recursive: true });
    sh('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], work);
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      version: string;
      dependencies: Record<string, string>;
    };
    // Every dependency (and what it needs) as npm would have installed it from the registry.
    for (const name of readdirSync(join(repoRoot, 'node_modules'))) {
      if (name === '.bin' || name === 'signrun' || name.startsWith('.')) continue;
      symlinkSync(join(repoRoot, 'node_modules', name), join(project, 'node_modules', name));
    }
    mkdirSync(join(project, 'node_modules', '.bin'));
    symlinkSync('../signrun/dist/cli/bin.js', join(project, 'node_modules', '.bin', 'signrun'));
    chmodSync(join(installed, 'dist/cli/bin.js'), 0o755); // as npm does for a package's bin
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'my-repo', version: '3.2.1', devDependencies: { signrun: `file:${tarball}` } }),
    );
    mkdirSync(join(project, 'jobs', 'docs'), { recursive: true });
    copyFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf'), join(project, 'jobs/docs/offer.pdf'));
    writeFileSync(
      join(project, 'jobs', 'offer.yaml'),
      `# yaml-language-server: $schema=../node_modules/signrun/schemas/job.schema.json
version: 1
job: offers
defaults: { emailSubject: Your offer, returnUrl: "http://127.0.0.1:8080/signing/done" }
envelopes:
  - key: offer-ada
    status: sent
    documents: [{ name: offer.pdf, file: docs/offer.pdf }]
    recipients:
      - { name: Ada Martin, email: ada@example.com, clientUserId: emp-1 }
`,
    );
    const env = { ...process.env, NO_COLOR: '1', npm_config_offline: 'true', npm_config_update_notifier: 'false' };
    const npx = (...args: string[]) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile('npx', ['--no-install', 'signrun', ...args], { cwd: project, env }, (error, stdout, stderr) =>
          resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
        );
      });

    // Three processes that share nothing (run alone writes, into out/): started at once, not one after
    // the other (issue 38); each is still its own `npx signrun` of the installed tarball.
    const [version, validated, ran] = await Promise.all([
      npx('--version'),
      npx('validate', 'jobs'),
      npx('run', 'jobs'),
    ]);
    expect(version.stdout.trim(), version.stderr).toBe(pkg.version); // signrun's, not my-repo's 3.2.1
    expect(validated.status, validated.stderr).toBe(0);
    expect(validated.stdout).toContain('1 envelope');
    expect(ran.status, ran.stderr).toBe(0);
    expect(readdirSync(join(project, 'out'))).toEqual(
      expect.arrayContaining(['report.json', 'report.md', 'junit.xml', 'report.html']),
    );
  }, 120_000);
});
