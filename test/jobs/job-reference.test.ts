import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { compiledJobSchemaSource } from '../../src/jobs/compile-job-schema.js';
import { renderJobReference } from '../../src/jobs/job-reference.js';
import { markerBlock } from '../../src/jobs/marker-block.js';
import { jobSchema } from '../../src/jobs/schema-check.js';
import { repoRoot } from '../helpers/run-cli.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

interface Node {
  properties?: Record<string, Node>;
  description?: string;
  items?: Node;
  $defs?: Record<string, Node>;
  additionalProperties?: boolean | Node;
}

/** Every property of every object of the schema, as [path, node]. */
function allProperties(node: Node, path: string, out: Array<[string, Node]> = []): Array<[string, Node]> {
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    out.push([`${path}.${name}`, child]);
    allProperties(child, `${path}.${name}`, out);
  }
  if (node.items) allProperties(node.items, `${path}[]`, out);
  for (const [name, def] of Object.entries(node.$defs ?? {})) allProperties(def, `$defs.${name}`, out);
  return out;
}

describe('job-file reference', () => {
  it('README and docs/job-files.md hold the reference generated from the schema (run `npm run docs:jobs`)', () => {
    expect(markerBlock(readme, 'job-reference')).toBe(renderJobReference('').trim());
    const guide = readFileSync(join(repoRoot, 'docs/job-files.md'), 'utf8');
    expect(markerBlock(guide, 'job-reference')).toBe(renderJobReference('../').trim());
  });

  it('the compiled validator is up to date with the schema (run `npm run docs:jobs`)', () => {
    expect(readFileSync(join(repoRoot, 'schemas/job.schema.validator.mjs'), 'utf8')).toBe(compiledJobSchemaSource());
  });

  it('every schema property has a description and appears in the reference', () => {
    const reference = renderJobReference('');
    const properties = allProperties(jobSchema(), '');
    expect(properties.length).toBeGreaterThan(50);
    for (const [path, node] of properties) {
      expect(node.description ?? (node as { $ref?: string }).$ref, path).toBeTruthy();
      expect(reference, path).toContain(`\`${path.split('.').pop()!.replace('[]', '')}\``);
    }
    for (const def of ['forEach', 'signHereTab', 'role', 'account', 'document'])
      expect(Object.keys((jobSchema() as Node).$defs!)).toContain(def);
  });

  it('the CLI reference names every command and option of the command table', () => {
    const block = markerBlock(readme, 'cli-reference')!;
    const io = { stdout: process.stdout, stderr: process.stderr, env: {}, cwd: repoRoot };
    const program = buildProgram(io, () => undefined);
    const walk = (command: typeof program, prefix: string): void => {
      for (const sub of command.commands) {
        const name = `${prefix} ${sub.name()}`.trim();
        if (sub.commands.length > 0) {
          walk(sub, name);
          continue;
        }
        expect(block, name).toContain(`signrun ${name}`);
        for (const option of sub.options) expect(block, `${name} ${option.long}`).toContain(option.long!);
      }
    };
    walk(program, '');
  });

  it('examples carry the yaml-language-server schema comment', () => {
    for (const file of [
      'embedded-signing.yaml',
      'template-contract.yaml',
      'subsidiary-account.yaml',
      'hr-renewals.yaml',
    ]) {
      expect(readFileSync(join(repoRoot, 'examples', file), 'utf8')).toMatch(
        /^# yaml-language-server: \$schema=\.\.\/schemas\/job\.schema\.json$/m,
      );
    }
  });
});
