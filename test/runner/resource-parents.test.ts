import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AccountPlan, TemplatePlan } from '../../src/runner/plan-types.js';
import { accounts } from '../../src/runner/resources/kinds/accounts.js';
import { jobResourceKinds } from '../../src/runner/resources/job-resource-kinds.js';
import { jobTemplates } from '../../src/runner/resources/kinds/job-templates.js';
import {
  organizationKindOf,
  organizationResourceKinds,
} from '../../src/runner/resources/organization-resource-kinds.js';
import { resourceKinds } from '../../src/runner/resources/resource-kinds.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 33: one resource interface whatever holds a kind — the job file
// (top-level templates), an organisation (the accounts themselves) or an
// account entry's account (what it keeps inside). Each kind says its parent;
// the walkers (plan, run, `plan`'s lines, the console, report.json) call the
// kinds of each parent's catalogue.

describe('what holds a resource kind', () => {
  it('each catalogue’s kinds say their parent, and a job kind’s field is report.json’s', () => {
    const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas/report.schema.json'), 'utf8')) as {
      properties: Record<string, unknown>;
    };
    for (const kind of resourceKinds) expect((kind as { parent?: string }).parent ?? 'account').toBe('account');
    expect(jobResourceKinds.length).toBeGreaterThan(0);
    expect(new Set(jobResourceKinds.map((k) => k.field)).size).toBe(jobResourceKinds.length);
    for (const kind of jobResourceKinds) {
      expect(kind.parent).toBe('job');
      expect(Object.keys(schema.properties)).toContain(kind.field);
    }
    expect(organizationResourceKinds.length).toBeGreaterThan(0);
    for (const kind of organizationResourceKinds) expect(kind.parent).toBe('organization');
    expect(organizationKindOf('account')).toBe(accounts);
    expect(organizationKindOf('envelope')).toBeUndefined();
  });

  it('an account’s words for `plan`: its organisation’s when it has one, else the action', () => {
    const plan = (decision: AccountPlan['decision']): AccountPlan => ({
      kind: 'account',
      job: 'j',
      key: 'acme',
      identity: 'j/acme',
      decision,
      apiCalls: 1,
    });
    expect(accounts.planWords(plan({ action: 'create' }))).toBe('create account');
    expect(accounts.planWords(plan({ action: 'recreate', accountId: 'a1' }))).toBe('recreate account');
    expect(accounts.planWords(plan({ action: 'create', organization: { cloneOf: 'base' } }))).toBe(
      'clone account (of base)',
    );
    expect(accounts.planWords(plan({ action: 'delete', accountId: 'a1', organizationId: 'o1' }))).toBe(
      "close account (DELETE /v2.1/accounts/a1, as organisation o1's administrator)",
    );
  });

  it('a top-level template’s lines for `plan`: decision, calls and id, then why and what differs, then duplicates', () => {
    const template: TemplatePlan = {
      kind: 'template',
      job: 'j',
      key: 'offer',
      identity: 'j/offer',
      decision: { action: 'update', templateId: 't1', outside: true },
      differences: ['emailSubject: "Old" → "New"'],
      apiCalls: 2,
      duplicates: ['t2'],
    };
    expect(jobTemplates.planLines(template, 10)).toEqual([
      '  changed outside  j/offer    2 call(s)  t1',
      '      changed outside signrun since signrun wrote it; `run` puts the job file’s version back:',
      '      emailSubject: "Old" → "New"',
      '      1 duplicate(s) of its identity to delete: t2',
    ]);
    expect(
      jobTemplates.planLines({ ...template, decision: { action: 'create' }, differences: [], duplicates: [] }, 8),
    ).toEqual(['  create template  j/offer  2 call(s)']);
  });
});
