import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, repoRoot } from '../helpers/run-cli.js';

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/**
 * Issue 36: `signrun preview` of a big campaign said "SIGTERM: finishing
 * what is in flight, then stopping" and went on drawing every row; the
 * SIGKILL that followed left `.preview-….png.<pid>.tmp` files. Now the first
 * SIGTERM lets it finish the envelope in hand and stop: exit 130, every
 * envelope drawn is whole, the contact sheet is written, no temp file stays.
 */
describe('signrun preview, SIGTERM in a campaign of 1,000 rows', () => {
  it('finishes the envelope in hand, writes the contact sheet, leaves no temp file, exits 130', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'signrun-preview-sigterm-'));
    await mkdir(path.join(dir, 'docs'));
    await copyFile(path.join(repoRoot, 'examples/docs/renewal-terms.pdf'), path.join(dir, 'docs/terms.pdf'));
    const rows = Array.from({ length: 1000 }, (_, i) => `e${i},Person ${i},p${i}@example.com`);
    await writeFile(path.join(dir, 'rows.csv'), `id,name,email\n${rows.join('\n')}\n`);
    await writeFile(
      path.join(dir, 'campaign.yaml'),
      `version: 1
job: campaign
defaults: { emailSubject: Please sign }
envelopes:
  - key: row-\${row.id}
    forEach: { csv: rows.csv }
    documents: [{ name: terms.pdf, file: docs/terms.pdf }]
    recipients:
      - { name: "\${row.name}", email: "\${row.email}", tabs: [{ pageNumber: 2, xPosition: 60, yPosition: 126 }] }
`,
    );
    const out = path.join(dir, 'out');
    await mkdir(out);
    const child = spawn(process.execPath, [binPath, 'preview', '.', '--out', 'out'], {
      cwd: dir,
      env: { ...(process.env as Record<string, string>), NO_COLOR: '1' },
      stdio: 'pipe',
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    // The barrier: the job's folder appears in out/ when the first envelope is being written.
    const watcher = watch(out, () => {
      watcher.close();
      child.kill('SIGTERM');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    watcher.close();

    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/interrupted after \d+ of 1000 envelope/);
    const files = await filesUnder(out);
    expect(files.filter((f) => /\.tmp$/.test(f))).toEqual([]);
    expect(files).toContain('preview.html');
    const drawn = files.filter((f) => f.endsWith('/preview.pdf')).map((f) => path.dirname(f));
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.length).toBeLessThan(1000);
    // Each envelope drawn is whole: its PDF and a PNG per page (the terms have two).
    for (const folder of drawn) {
      expect(files, folder).toContain(`${folder}/preview-1-1.png`);
      expect(files, folder).toContain(`${folder}/preview-1-2.png`);
    }
    expect(files.filter((f) => f.endsWith('.png'))).toHaveLength(2 * drawn.length);
  });
});
