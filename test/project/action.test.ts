import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildProgram } from '../../src/cli/program.js';
import { examplesCopy } from '../helpers/examples-copy.js';
import { binPath, repoRoot } from '../helpers/run-cli.js';

// Issue 26: action.yml at the repository root, so a workflow can `uses:`
// signrun. GitHub cannot run here; what can be checked is: the action is a
// composite one on Node 20 that installs signrun from its own folder, the
// commands and options it passes are signrun's, and its signrun step —
// the very script in action.yml — does what it says when bash runs it with
// the variables GitHub gives it.

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  with?: Record<string, string>;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Action {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(await readFile(path.join(repoRoot, 'action.yml'), 'utf8')) as Action;
const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  scripts: Record<string, string>;
  engines: { node: string };
};
const signrunStep = action.runs.steps.find((s) => s.id === 'signrun')!;

describe('action.yml', () => {
  it('is a composite action that sets up Node 20 and installs and builds signrun from its own folder', () => {
    expect(action.runs.using).toBe('composite');
    const node = action.runs.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(node?.with?.['node-version']).toBe('${{ inputs.node-version }}');
    expect(action.inputs['node-version']?.default).toBe('20');
    expect(pkg.engines.node).toMatch(/^>=20\b/);
    const install = action.runs.steps.find((s) => s.name === 'Install signrun')!;
    expect(install['working-directory']).toBe('${{ github.action_path }}');
    expect(install.run?.trim()).toMatch(/^npm ci\b/);
    // npm ci builds it: the prepare script.
    expect(pkg.scripts['prepare']).toBe('npm run build');
    expect(signrunStep.env?.['SIGNRUN_BIN']).toBe(`\${{ github.action_path }}/${pkg.bin['signrun']}`);
    expect(signrunStep.env?.['GITHUB_ACTIONS']).toBe('true');
  });

  it('takes the commands validate, plan and run, passing --out to those that have it', () => {
    const io = { stdout: process.stdout, stderr: process.stderr, env: {}, cwd: repoRoot };
    const program = buildProgram(io, () => undefined);
    const accepted = /case "\$SIGNRUN_COMMAND" in\s+([\w |]+)\)/
      .exec(signrunStep.run!)![1]!
      .split('|')
      .map((c) => c.trim());
    expect(accepted).toEqual(['validate', 'plan', 'run']);
    for (const name of accepted) {
      const command = program.commands.find((c) => c.name() === name);
      expect(command, name).toBeDefined();
      const hasOut = command!.options.some((o) => o.long === '--out');
      // The script passes --out to every command but validate, which has none.
      expect(hasOut, name).toBe(name !== 'validate');
    }
    for (const input of ['command', 'paths', 'out']) expect(action.inputs[input], input).toBeDefined();
    for (const output of ['exit-code', 'summary-file'])
      expect(action.outputs[output]?.value).toBe(`\${{ steps.signrun.outputs.${output} }}`);
  });

  it('its signrun step, run by bash as GitHub runs it: exit code, outputs, annotations, the plan in the summary', async () => {
    const temp = await mkdtemp(path.join(os.tmpdir(), 'signrun-action-'));
    // The examples with one row of each CSV (issue 38): what is checked is the step's script (the glob
    // left to signrun, the exit code, the outputs, the summary), not the examples' 20 rows, which
    // validate.test.ts still reads whole. Two spawned commands over the whole CSVs were ~3 s of CPU more.
    const examples = examplesCopy(1);
    const script = path.join(temp, 'step.sh');
    await writeFile(script, signrunStep.run!);
    const step = async (command: string, paths: string) => {
      const output = path.join(temp, `${command}-output`);
      const summary = path.join(temp, `${command}-summary.md`);
      await writeFile(output, '');
      await writeFile(summary, '# earlier\n');
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('DOCUSIGN_')) env[k] = v;
      Object.assign(env, {
        NO_COLOR: '1',
        SIGNRUN_COMMAND: command,
        SIGNRUN_PATHS: paths,
        SIGNRUN_OUT: path.join(temp, 'out'),
        SIGNRUN_BIN: binPath,
        GITHUB_ACTIONS: 'true',
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
        RUNNER_TEMP: temp,
      });
      // GitHub's `shell: bash` is `bash --noprofile --norc -eo pipefail {0}`.
      const result = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
        const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: examples, env });
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.stderr.resume();
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout }));
      });
      const outputs = Object.fromEntries(
        (await readFile(output, 'utf8'))
          .trim()
          .split('\n')
          .map((l) => l.split('=', 2) as [string, string]),
      );
      return { ...result, outputs, summary: await readFile(summary, 'utf8') };
    };

    const validated = await step('validate', '*.yaml');
    expect(validated.code).toBe(0);
    expect(validated.outputs['exit-code']).toBe('0');

    const planned = await step('plan', '.');
    expect(planned.code).toBe(0);
    const comment = await readFile(planned.outputs['summary-file']!, 'utf8');
    expect(comment).toMatch(/^# signrun plan\n/);
    // The step summary gets the same text after what earlier steps wrote.
    expect(planned.summary).toBe(`# earlier\n${comment}`);

    const refused = await step('sign', '.');
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain('::error title=signrun::');

    const bad = path.join(temp, 'bad.yaml');
    await writeFile(bad, 'version: 1\njob: bad\nenvelopes:\n  - key: a\n    emailSubject: x\n');
    const invalid = await step('validate', bad);
    expect(invalid.code).toBe(2);
    expect(invalid.outputs['exit-code']).toBe('2');
    expect(invalid.stdout).toMatch(/^::error file=.*bad\.yaml,line=\d+/m);
    // Three spawned commands: 10 s on a quiet machine, near vitest's 60 s at load 25-35 (seen before and
    // after the one-row examples), as own-repository's spawns, which have 120 s.
  }, 120_000);
});
