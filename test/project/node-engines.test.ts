import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/run-cli.js';

// package.json promises a Node version (`engines.node`); every package the
// lockfile installs must run on the oldest Node that promise admits, or
// `npm ci` warns EBADENGINE on a machine the README calls supported and the
// package may fail there (issue 26: cookie@2 needs Node 22, pulled in by
// fastify's light-my-request, and package.json's `overrides` pins one that
// does not; pdf.js and the lint and test tools need 20.19, which is what
// package.json now promises).
interface Lock {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; dev?: boolean }>;
}

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as Lock;

/** Packages whose declared Node range leaves out `node`. */
function refusing(node: string): string[] {
  return Object.entries(lock.packages)
    .filter(([path]) => path !== '')
    .flatMap(([path, p]) => {
      const range = Array.isArray(p.engines) ? undefined : p.engines?.node;
      return range !== undefined && !semver.satisfies(node, range, { includePrerelease: true })
        ? [`${path.replace(/^.*node_modules\//, '')}@${p.version ?? '?'} needs node ${range}`]
        : [];
    });
}

describe('the Node version package.json promises', () => {
  const oldest = semver.minVersion(pkg.engines.node)!.version;

  it('runs every package of the lockfile', () => {
    expect(oldest).toBe('20.19.0');
    expect(refusing(oldest)).toEqual([]);
  });

  it('would name a package that needs a newer Node', () => {
    expect(refusing('16.0.0').length).toBeGreaterThan(0);
  });
});
