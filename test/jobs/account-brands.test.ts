import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';

// An account entry's brands and Connect configurations, resolved offline:
// logos read and checked by their bytes, Connect flags as DocuSign's strings,
// the listener password a Secret, and names unique.

const dir = mkdtempSync(join(tmpdir(), 'signrun-account-brands-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
writeFileSync(join(dir, 'logo.gif'), gif);

const head = `version: 1
job: subsidiaries
accounts:
  - key: acme
    accountName: Acme
    initialUser: { email: admin@acme.test, password: "\${env.ACME_PASSWORD}" }
    planInformation: { planId: p }
`;

async function load(body: string) {
  writeFileSync(join(dir, 'job.yaml'), head + body);
  return loadJobs(['job.yaml'], { cwd: dir, env: { ACME_PASSWORD: 'x', HOOK_PASSWORD: 'listener-secret' } });
}

describe('brands and Connect configurations of an account entry', () => {
  it('resolves them: logos by their bytes, flags as DocuSign strings, the name apart, the password a secret', async () => {
    const result = await load(`    brands:
      - { brandName: Acme, logos: { email: logo.gif }, isSendingDefault: "true", isSigningDefault: false }
    connect:
      - name: Events
        urlToPublishTo: https://hooks.test/ds
        includeHMAC: true
        allowEnvelopePublish: "false"
        events: [envelope-sent]
        eventData: { version: restv2.1, format: json }
        password: "\${env.HOOK_PASSWORD}"
`);
    expect(result.ok, JSON.stringify(!result.ok && result.errors)).toBe(true);
    if (!result.ok) return;
    const account = result.jobs[0]!.accounts[0]!;
    expect(account.brands?.[0]).toMatchObject({
      brandName: 'Acme',
      isSendingDefault: true,
      isSigningDefault: false,
      logos: { email: { file: 'logo.gif', contentType: 'image/gif', bytes: gif } },
    });
    const [config] = account.connect!;
    expect(config!.name).toBe('Events');
    expect(config!.fields).toEqual({
      urlToPublishTo: 'https://hooks.test/ds',
      includeHMAC: 'true',
      allowEnvelopePublish: 'false',
      events: ['envelope-sent'],
      eventData: { version: 'restv2.1', format: 'json' },
    });
    expect(config!.password?.reveal()).toBe('listener-secret');
    expect(JSON.stringify(account)).not.toContain('listener-secret');
  });

  it('refuses a brand or Connect configuration named twice (ignoring case), and a missing logo, at their lines', async () => {
    const result = await load(`    brands:
      - { brandName: Acme }
      - { brandName: ACME, logos: { primary: nowhere.png } }
    connect:
      - { name: Events, urlToPublishTo: "https://a.test/" }
      - { name: events, urlToPublishTo: "https://b.test/" }
`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.code, e.line, e.field])).toEqual(
      expect.arrayContaining([
        ['SR_ACCOUNT_NAME_DUPLICATE', 10, 'accounts[0].brands[1].brandName'],
        ['SR_LOGO_NOT_FOUND', 10, 'accounts[0].brands[1].logos.primary'],
        ['SR_ACCOUNT_NAME_DUPLICATE', 13, 'accounts[0].connect[1].name'],
      ]),
    );
  });
});
