import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { injectedSandbox } from '../helpers/injected-sandbox.js';

// A seed file's organisations (schemas/seed.schema.json, `organizations`).

const dir = mkdtempSync(join(tmpdir(), 'signrun-seed-org-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function seedFile(name: string, organization: string): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `integratorKeys: [my-key]
accounts:
  - accountName: Custom Corp
    users: [{ userName: admin@custom.test, password: custom-password }]
organizations:
${organization}`,
  );
  return file;
}

describe('organisations in a seed file', () => {
  it('are written with their accounts, administrators and plan items', async () => {
    const sandbox = await injectedSandbox({
      seedFile: seedFile(
        'good.yaml',
        `  - { organizationId: 11111111-aaaa-4bbb-8ccc-222222222222, name: Custom Org, accounts: [Custom Corp], administrators: [admin@custom.test], planItems: [{ planId: custom-plan }] }\n`,
      ),
    });
    try {
      const organizations = sandbox.app.sandbox.db
        .prepare('SELECT id, name, default_account_id FROM organizations')
        .all();
      expect(organizations).toEqual([
        { id: '11111111-aaaa-4bbb-8ccc-222222222222', name: 'Custom Org', default_account_id: expect.any(String) },
      ]);
      const items = sandbox.app.sandbox.db.prepare('SELECT plan_id FROM organization_plan_items').all();
      expect(items).toEqual([{ plan_id: 'custom-plan' }]);
    } finally {
      await sandbox.close();
    }
  });

  it('naming an account the seed lacks stops the sandbox with SR_SANDBOX_SEED', async () => {
    await expect(
      injectedSandbox({
        seedFile: seedFile(
          'bad.yaml',
          `  - { name: Custom Org, accounts: [Nobody Corp], administrators: [], planItems: [{ planId: p }] }\n`,
        ),
      }),
    ).rejects.toMatchObject({ code: 'SR_SANDBOX_SEED', message: expect.stringContaining('Nobody Corp') });
  });
});
