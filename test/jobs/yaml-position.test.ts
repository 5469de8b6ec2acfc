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

  it('a key indented one space too far under a list item: one message, at that key (issue 26: no cascade)', () => {
    const parsed = parseJobYaml(
      [
        'version: 1',
        'job: j',
        'envelopes:',
        '  - key: a',
        '    recipients:',
        '      - name: A',
        '         email: a@example.com',
        '        clientUserId: x',
        '      - name: B',
        '        email: b@example.com',
        '',
      ].join('\n'),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]).toMatchObject({ code: 'SR_YAML_SYNTAX', line: 7, column: 10 });
    expect(parsed.problems[0]?.message).toBe(
      '"email" is indented 9 spaces, its sibling on the line above 8: indent it as its siblings',
    );
  });

  it('duplicate keys are each reported, a syntax error once', () => {
    const parsed = parseJobYaml('version: 1\njob: j\njob: k\nversion: 2\n');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems.map((p) => [p.code, p.line])).toEqual([
      ['SR_YAML_DUPLICATE_KEY', 3],
      ['SR_YAML_DUPLICATE_KEY', 4],
    ]);
  });
});
