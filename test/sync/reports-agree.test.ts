import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { SigningRecord } from '../../src/output/records.js';
import { checkReport } from '../../src/reporters/report-schema.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { readReport, sandboxEnv, tempDir } from '../cli/run-helpers.js';
import { openSigningLink, postForm, signOverHttp } from '../signing/sign-over-http.js';
import { sandboxApi } from '../signing/sandbox-api.js';

// Issue 26, "Done when": after run, signing, declining and sync, every report
// (JSON, Markdown, HTML, JUnit) agrees with the service on every envelope and
// recipient — a template envelope with a carbon copy included — and shows
// the decline reason. The service is asked directly and compared, person by
// person; nothing is compared with a value written in this test.

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => sandbox?.close());

const reason = 'Accepted another offer.';

function jobText(): string {
  const plain = (key: string, name: string) => [
    `  - key: ${key}`,
    '    documents:',
    '      - { name: offer-letter.pdf, file: docs/offer-letter.pdf }',
    '    recipients:',
    `      - { name: ${name}, email: ${key}@example.com, clientUserId: emp-${key}, routingOrder: 1,`,
    '          tabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 100 }] }',
    `      - { name: Manager of ${name}, email: boss-${key}@example.com, routingOrder: 2 }`,
  ];
  return [
    'version: 1',
    'job: week',
    'defaults:',
    '  emailSubject: Your offer letter',
    '  returnUrl: https://hr.example.com/done',
    'templates:',
    '  - key: nda',
    '    name: Mutual NDA',
    '    emailSubject: Please sign the NDA',
    '    documents:',
    '      - { name: offer-letter.pdf, file: docs/offer-letter.pdf }',
    '    recipients:',
    '      signers:',
    '        - roleName: employee',
    '          routingOrder: 1',
    '          tabs: { signHereTabs: [{ documentId: 1, pageNumber: 1, xPosition: 100, yPosition: 100 }] }',
    '      carbonCopies:',
    '        - { roleName: hr, name: HR records, email: hr@example.com, routingOrder: 2 }',
    'envelopes:',
    ...plain('alice', 'Alice Martin'),
    ...plain('bruno', 'Bruno Petit'),
    ...plain('chloe', 'Chloe Roux'),
    '  - key: dana-nda',
    '    template: nda',
    '    templateRoles:',
    '      - { roleName: employee, name: Dana Wu, email: dana@example.com, clientUserId: emp-dana }',
    '',
  ].join('\n');
}

/** Every recipient of an envelope as the service lists it, whatever its kind. */
async function serviceRecipients(
  api: ReturnType<typeof sandboxApi>,
  envelopeId: string,
): Promise<Array<{ recipientId: string; name: string; email: string; status: string; kind: string }>> {
  const { json } = await api.call<Record<string, unknown>>('GET', `/envelopes/${envelopeId}/recipients`);
  return Object.entries(json).flatMap(([kind, list]) =>
    Array.isArray(list)
      ? (list as Array<{ recipientId: string; name: string; email: string; status: string }>).map((r) => ({
          ...r,
          kind,
        }))
      : [],
  );
}

describe('reports after a campaign’s week', () => {
  it('agree with the service on every envelope and recipient, and show the decline reason', async () => {
    const dir = await tempDir('signrun-agree-');
    await mkdir(path.join(dir, 'docs'));
    await copyFile(path.join(repoRoot, 'examples/docs/offer-letter.pdf'), path.join(dir, 'docs/offer-letter.pdf'));
    await writeFile(path.join(dir, 'week.yaml'), jobText());
    const out = path.join(dir, 'out');
    const env = sandboxEnv(sandbox);
    const sent = await runCli(['run', '.', '--out', 'out'], { cwd: dir, env });
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    const signingUrl = async (key: string) =>
      (JSON.parse(await readFile(path.join(out, 'week', key, 'signing.json'), 'utf8')) as SigningRecord).recipients[0]!
        .url!;

    expect(await signOverHttp(await signingUrl('alice'), 'Alice Martin')).toBe('signing_complete');
    expect(await signOverHttp(await signingUrl('dana-nda'), 'Dana Wu')).toBe('signing_complete');
    const link = await openSigningLink(await signingUrl('bruno'));
    expect((await postForm(`${link.sessionUrl}/decline`, link.cookie, { reason, csrfToken: link.csrf })).status).toBe(
      303,
    );

    const synced = await runCli(['sync', '.', '--out', 'out'], { cwd: dir, env });
    expect(synced.code, synced.stdout + synced.stderr).toBe(0);

    const api = sandboxApi(sandbox.rootUrl);
    const report = await readReport(out);
    expect(checkReport(report)).toEqual([]);
    expect(report.command).toBe('sync');
    expect(report.envelopes.map((e) => e.key).sort()).toEqual(['alice', 'bruno', 'chloe', 'dana-nda']);
    const md = await readFile(path.join(out, 'report.md'), 'utf8');
    const html = await readFile(path.join(out, 'report.html'), 'utf8');
    const junit = await readFile(path.join(out, 'junit.xml'), 'utf8');
    const stillToSign = md.slice(md.indexOf('Still to sign'));

    for (const e of report.envelopes) {
      const status = await api.envelopeStatus(e.envelopeId!);
      expect(e.status, e.key).toBe(status);
      const people = await serviceRecipients(api, e.envelopeId!);
      // One entry per person the service has: no role listed twice, nobody missing.
      expect(e.recipients.map((r) => r.recipientId).sort(), e.key).toEqual(people.map((p) => p.recipientId).sort());
      for (const person of people) {
        const r = e.recipients.find((x) => x.recipientId === person.recipientId)!;
        expect({ name: r.name, status: r.status }, `${e.key}/${person.recipientId}`).toEqual({
          name: person.name,
          status: person.status,
        });
        // Still to sign (report.md and report.html): exactly those whose turn has come, in an unsettled envelope.
        // A carbon copy never signs; a later routing order is still to sign, not yet notified (created).
        const waiting =
          ['sent', 'delivered'].includes(status) &&
          person.kind !== 'carbonCopies' &&
          ['created', 'sent', 'delivered'].includes(person.status);
        const row = new RegExp(
          `^\\| \`week/${e.key}\` \\| ${person.name} <${person.email}>(?: \\(embedded\\))? \\| ${person.status} \\|`,
          'm',
        );
        const listed = row.test(stillToSign);
        expect(listed, `report.md still to sign: ${e.key}/${person.name}`).toBe(waiting);
        if (waiting) expect(html).toContain(person.name);
      }
      // report.html's row of the envelope carries its status.
      expect(html).toMatch(new RegExp(`<code>${e.key}</code>.*?<span class="badge"[^>]*>${chartWord(status)}</span>`));
    }
    // The decline reason, everywhere.
    expect(report.envelopes.find((e) => e.key === 'bruno')?.declinedReason).toBe(reason);
    expect(md).toContain(reason);
    expect(html).toContain(reason);
    expect(junit).toMatch(new RegExp(`name="bruno"[^]*?${reason.replace('.', '\\.')}`));
  });
});

/** report.html's word for a service status (its chart's legend). */
function chartWord(status: string): string {
  return status === 'created' ? 'draft' : status;
}
