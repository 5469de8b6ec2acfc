import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import type { LoadResult } from '../../src/jobs/model.js';
import { repoRoot } from '../helpers/run-cli.js';

// The envelope digest decides whether an envelope sent earlier changed (drift,
// SR_ENVELOPE_DRIFT): a digest that moves for an unchanged job file would make
// every campaign in flight look edited. These digests were computed by the
// code before the envelope model was restructured (issue 18, at 942ad2b),
// those of the offer-letters example when it was added (issue 19), those of
// the handbook-template example when it was added (issue 21), and those of
// the hr-renewals example when its tabs were moved onto their signature
// lines (issue 22: `signrun preview` showed the employee's box over the
// manager's label — the file changed, so its digests did), those of the
// word-offer-letters example when it was added (issue 39: its merge values
// are part of them; the others stayed as they were); every
// later version must give the same ones for the same files.
const pinned = JSON.parse(readFileSync(join(repoRoot, 'test/fixtures/digests/pinned.json'), 'utf8')) as Record<
  string,
  string
>;

const work = join(repoRoot, `test/.tmp/digests-stay-${process.pid}`);
const pdf = readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf'));

/** A job that uses every field today's job files may give a recipient, a role and an envelope. */
const everyField = `version: 1
job: digest-every-field
defaults:
  emailSubject: Sign
  emailBlurb: Please sign.
  returnUrl: https://example.com/done
  notification:
    reminders: { reminderDelay: 3 }
    expirations: { expireAfter: 30 }
envelopes:
  - key: documents-side
    status: created
    documents:
      - { name: a.pdf, file: a.pdf }
      - { name: b.pdf, file: a.pdf, documentId: 7 }
    recipients:
      - name: Ann
        email: ann@example.com
        recipientId: 4
        clientUserId: c-1
        routingOrder: 2
        supportedLanguage: fr
        emailSubject: Objet
        emailBody: Corps
        tabs:
          - { pageNumber: 1, xPosition: 10, yPosition: 20 }
          - { documentId: 7, pageNumber: 2, xPosition: 30, yPosition: 40 }
      - { name: Bob, email: bob@example.com }
    customFields:
      - { name: team, value: hr }
    eventNotification: { url: https://example.com/hook }
  - key: template-side
    templateId: 3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01
    templateRoles:
      - { roleName: employee, name: Cy, email: cy@example.com, clientUserId: e-1, routingOrder: 1 }
      - { roleName: employer, name: Di, email: di@example.com, routingOrder: 2 }
  - key: voided-one
    status: voided
    voidedReason: wrong person
    documents: [{ file: a.pdf }]
    recipients: [{ name: Ed, email: ed@example.com }]
`;

function digests(result: LoadResult): Record<string, string> {
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 1));
  const out: Record<string, string> = {};
  for (const job of result.jobs) for (const e of job.envelopes) out[`${e.job}/${e.key}`] = e.digest;
  return out;
}

beforeAll(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'a.pdf'), pdf);
  writeFileSync(join(work, 'every-field.yaml'), everyField);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('envelope digests stay as they were', () => {
  it('for the examples and for a job that uses every field', async () => {
    const examples = digests(await loadJobs(['examples'], { cwd: repoRoot, env: {} }));
    const every = digests(await loadJobs([work], { cwd: work, env: {} }));
    const now = { ...examples, ...every };
    expect(Object.keys(now).length).toBe(67);
    expect(now).toEqual(pinned);
  });
});

describe('a load that only checks (validate)', () => {
  it('digests nothing, and finds the same envelopes and diagnostics', async () => {
    const checked = await loadJobs([work], { cwd: work, env: {}, digests: false });
    const digested = await loadJobs([work], { cwd: work, env: {} });
    expect(checked.ok && digested.ok).toBe(true);
    if (!checked.ok || !digested.ok) return;
    const envelopes = (r: typeof checked) => r.jobs.flatMap((j) => j.envelopes);
    expect(envelopes(checked).map((e) => e.digest)).toEqual(envelopes(digested).map(() => ''));
    expect(envelopes(checked).map(({ digest: _, ...e }) => e)).toEqual(
      envelopes(digested).map(({ digest: _, ...e }) => e),
    );
    expect(checked.warnings).toEqual(digested.warnings);
    expect(checked.stats).toEqual(digested.stats);
  });
});
