import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import type { Diagnostic, LoadResult, ResolvedJob } from '../../src/jobs/model.js';
import { envelopeDefinitionOf } from '../../src/runner/envelopes/envelope-definition.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 20, the job side: recipients by DocuSign's collections, and what
// validate refuses before any call — an access code written out, a witness
// for nobody, an in-person signer without a host, a kind that cannot be
// embedded, ids that clash — each at its file, line and field.

const work = join(repoRoot, `test/.tmp/recipient-kinds-${process.pid}`);
const pdf = readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf'));

function folder(name: string, job: string): string {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'offer.pdf'), pdf);
  writeFileSync(join(dir, 'job.yaml'), job);
  return dir;
}

function jobs(result: LoadResult): ResolvedJob[] {
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 1));
  return result.jobs;
}

function errors(result: LoadResult): Array<Pick<Diagnostic, 'code' | 'line' | 'field'>> {
  if (result.ok) throw new Error('expected errors');
  return result.errors.map(({ code, line, field }) => ({ code, line, field }));
}

/** A job of one envelope with these recipients (YAML, indented under `recipients:`). */
const job = (recipients: string) => `version: 1
job: j
defaults: { emailSubject: Sign, returnUrl: "https://example.com/done" }
envelopes:
  - key: e1
    documents: [{ file: offer.pdf }]
    recipients:
${recipients}`;

beforeAll(() => mkdirSync(work, { recursive: true }));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('recipients by collection', () => {
  it('numbers every kind in one sequence and sends each under its collection, an access code only to the service', async () => {
    const dir = folder(
      'every-kind',
      job(`      signers:
        - { name: Sam, email: sam@example.com, accessCode: "\${env.CODE}", note: Call us first. }
      carbonCopies:
        - { name: Hana, email: hr@example.com, routingOrder: 2 }
      inPersonSigners:
        - { hostName: Hilda, hostEmail: hilda@example.com, signerName: Ivan, clientUserId: ivan }
      witnesses:
        - { name: Wendy, email: wendy@example.com, witnessFor: 1 }
`),
    );
    const [loaded] = jobs(await loadJobs([dir], { cwd: dir, env: { CODE: 'c0de-123' } }));
    const envelope = loaded!.envelopes[0]!;
    expect(envelope.recipients.map((r) => [r.kind, r.recipientId, r.name, r.email])).toEqual([
      ['signer', '1', 'Sam', 'sam@example.com'],
      ['carbonCopy', '2', 'Hana', 'hr@example.com'],
      ['inPersonSigner', '3', 'Ivan', 'hilda@example.com'],
      ['witness', '4', 'Wendy', 'wendy@example.com'],
    ]);
    // The resolved envelope shows no code (it is a Secret), whatever prints it.
    expect(JSON.stringify(envelope)).not.toContain('c0de-123');
    const wire = await envelopeDefinitionOf(envelope);
    expect(wire.recipients).toMatchObject({
      signers: [{ recipientId: '1', name: 'Sam', accessCode: 'c0de-123', note: 'Call us first.' }],
      carbonCopies: [{ recipientId: '2', name: 'Hana', routingOrder: '2' }],
      inPersonSigners: [
        {
          recipientId: '3',
          hostName: 'Hilda',
          hostEmail: 'hilda@example.com',
          signerName: 'Ivan',
          clientUserId: 'ivan',
        },
      ],
      witnesses: [{ recipientId: '4', witnessFor: '1' }],
    });
    expect(wire.recipients!.inPersonSigners![0]).not.toHaveProperty('name');
  });

  it('keeps the digest of a list of signers: the list form is the signers collection', async () => {
    const list = folder('as-list', job('      - { name: Sam, email: sam@example.com }\n'));
    const object = folder('as-object', job('      signers: [{ name: Sam, email: sam@example.com }]\n'));
    const [a] = jobs(await loadJobs([list], { cwd: list, env: {} }));
    const [b] = jobs(await loadJobs([object], { cwd: object, env: {} }));
    expect(b!.envelopes[0]!.digest).toBe(a!.envelopes[0]!.digest);
  });
});

describe('validate refuses, at the line', () => {
  const refused = async (name: string, recipients: string, env: Record<string, string> = {}) => {
    const dir = folder(name, job(recipients));
    return errors(await loadJobs([dir], { cwd: dir, env }));
  };

  it('an access code written out, and its variable used anywhere else', async () => {
    expect(
      await refused('literal-code', '      signers: [{ name: Sam, email: sam@example.com, accessCode: "1234" }]\n'),
    ).toEqual([{ code: 'SR_ACCESS_CODE_LITERAL', line: 8, field: 'envelopes[0].recipients.signers[0].accessCode' }]);
    expect(
      await refused(
        'code-elsewhere',
        `      signers:
        - { name: Sam, email: sam@example.com, accessCode: "\${env.CODE}", emailBody: "Your code: \${env.CODE}" }
`,
        { CODE: '4711' },
      ),
    ).toEqual([
      { code: 'SR_SECRET_OUTSIDE_CREDENTIAL', line: 9, field: 'envelopes[0].recipients.signers[0].emailBody' },
    ]);
  });

  it('a witness for nobody, and a witness for a carbon copy', async () => {
    expect(
      await refused(
        'witness-nobody',
        `      signers: [{ name: Sam, email: sam@example.com }]
      witnesses: [{ name: Wendy, email: wendy@example.com, witnessFor: 7 }]
`,
      ),
    ).toEqual([{ code: 'SR_WITNESS_FOR_UNKNOWN', line: 9, field: 'envelopes[0].recipients.witnesses[0].witnessFor' }]);
    expect(
      await refused(
        'witness-copy',
        `      carbonCopies: [{ name: Hana, email: hr@example.com }]
      witnesses: [{ name: Wendy, email: wendy@example.com, witnessFor: 1 }]
`,
      ),
    ).toEqual([{ code: 'SR_WITNESS_FOR_UNKNOWN', line: 9, field: 'envelopes[0].recipients.witnesses[0].witnessFor' }]);
    // Witnesses of each other (the rule the sandbox applies at creation: mayBeWitnessed).
    expect(
      await refused(
        'witness-cycle',
        `      signers: [{ name: Sam, email: sam@example.com }]
      witnesses:
        - { name: Wanda, email: w2@example.com, witnessFor: 3 }
        - { name: Wim, email: w3@example.com, witnessFor: 2 }
`,
      ),
    ).toEqual([
      { code: 'SR_WITNESS_FOR_UNKNOWN', line: 10, field: 'envelopes[0].recipients.witnesses[0].witnessFor' },
      { code: 'SR_WITNESS_FOR_UNKNOWN', line: 11, field: 'envelopes[0].recipients.witnesses[1].witnessFor' },
    ]);
  });

  it('an in-person signer without a host', async () => {
    expect(
      await refused('no-host', '      inPersonSigners: [{ signerName: Ivan, hostEmail: hilda@example.com }]\n'),
    ).toEqual([{ code: 'SR_SCHEMA_REQUIRED', line: 8, field: 'envelopes[0].recipients.inPersonSigners[0].hostName' }]);
  });

  it('a carbon copy that is embedded, and recipientIds that clash across kinds', async () => {
    expect(
      await refused(
        'embedded-copy',
        `      signers: [{ name: Sam, email: sam@example.com, recipientId: 2 }]
      carbonCopies: [{ name: Hana, email: hr@example.com, clientUserId: hana, recipientId: 2 }]
`,
      ),
    ).toEqual([
      { code: 'SR_RECIPIENT_NOT_EMBEDDABLE', line: 9, field: 'envelopes[0].recipients.carbonCopies[0].clientUserId' },
      { code: 'SR_DUPLICATE_RECIPIENT_ID', line: 9, field: 'envelopes[0].recipients.carbonCopies[0].recipientId' },
    ]);
  });
});
