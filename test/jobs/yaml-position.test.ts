import { describe, expect, it } from 'vitest';
import { parseJobYaml } from '../../src/jobs/job-yaml.js';

describe('YAML errors point at the text at fault', () => {
  it('a line indented out of step points at its first character and says by how much', () => {
    const parsed = parseJobYaml(
      'version: 1\njob: j\nenvelopes:\n  - key: a\n    emailSubject: x\n   documents:\n      - { name: a.pdf }\n',
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems[0]).toMatchObject({ code: 'SR_YAML_SYNTAX', line: 6, column: 4 });
    expect(parsed.problems[0]?.message).toMatch(/^"documents" is indented 3 spaces, the line above 4/);
  });
});
