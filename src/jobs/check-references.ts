import { fieldName } from './schema-check.js';
import { findReferences, isSingleEnvReference } from './references.js';
import { placeOf, type JobContext } from './job-context.js';
import type { RawJobFile } from './raw-job.js';
import { writtenRecipients } from './written-recipients.js';

/**
 * Checks every `${...}` of a job file before anything is expanded: the
 * syntax, `${row.*}` only inside forEach envelopes (and not in forEach
 * itself), every `${env.*}` set, and secrets (passwords, access codes)
 * only ever `${env.*}`, their variables used nowhere else.
 * Returns false when expansion must not go on.
 */
export function checkReferences(job: RawJobFile, ctx: JobContext): boolean {
  const before = ctx.sink.errorCount;
  // Variables this file uses as passwords or access codes are secrets too, whatever their name.
  const secretVariables = new Set<string>();
  const secrets: Array<{ text: string; path: Array<string | number> }> = [];
  job.accounts?.forEach((account, i) => {
    const password = account.initialUser?.password;
    if (password !== undefined) secrets.push({ text: password, path: ['accounts', i, 'initialUser', 'password'] });
    // A Connect listener's basic-authentication password is as much a secret.
    account.connect?.forEach((config, j) => {
      if (typeof config.password === 'string')
        secrets.push({ text: config.password, path: ['accounts', i, 'connect', j, 'password'] });
    });
  });
  for (const collection of ['envelopes', 'templates'] as const)
    job[collection]?.forEach((item, i) => {
      for (const { recipient, written } of writtenRecipients(item.recipients))
        if (recipient.accessCode !== undefined)
          secrets.push({ text: recipient.accessCode, path: [collection, i, ...written, 'accessCode'] });
    });
  for (const { text } of secrets)
    for (const ref of findReferences(text)) if (ref.kind === 'env') secretVariables.add(ref.name);
  const secretFields = new Set(secrets.map((s) => fieldName(s.path)));
  const visit = (value: unknown, path: Array<string | number>, rowAllowed: boolean): void => {
    if (typeof value === 'string') {
      for (const ref of findReferences(value)) {
        const place = placeOf(ctx, path);
        const field = fieldName(path);
        if (ref.kind === 'invalid') {
          ctx.sink.add(
            'SR_REFERENCE_INVALID',
            `${field}: ${ref.text} is not a reference; use \${row.<column>} or \${env.<NAME>}`,
            place,
            { field },
          );
        } else if (ref.kind === 'row' && !rowAllowed) {
          ctx.sink.add(
            'SR_ROW_OUTSIDE_FOREACH',
            `${field}: ${ref.text} is used outside an envelope with forEach${path[0] === 'templates' ? ' (a template is the same for every row: give row values to the envelopes’ templateRoles)' : ''}`,
            place,
            { field },
          );
        } else if (
          ref.kind === 'env' &&
          ((isCredentialVariable(ref.name) && !isPasswordField(path)) ||
            (secretVariables.has(ref.name) && !secretFields.has(field)))
        ) {
          ctx.sink.add(
            'SR_SECRET_OUTSIDE_CREDENTIAL',
            `${field}: ${ref.text} holds a secret and may be used only as a password (initialUser.password) or an access code (accessCode); here its value would be sent and written in reports and file names`,
            place,
            { field },
          );
        } else if (ref.kind === 'env' && ctx.env(ref.name) === undefined) {
          ctx.sink.add(
            'SR_ENV_NOT_SET',
            `${field}: environment variable ${ref.name} is not set (nor in ${ctx.show(`${ctx.folder}/.env`)})`,
            place,
            { field },
          );
        }
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, [...path, i], rowAllowed));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) visit(item, [...path, key], rowAllowed);
    }
  };
  visit({ version: job.version, job: job.job, defaults: job.defaults }, [], false);
  job.envelopes?.forEach((envelope, i) => {
    const { forEach, ...rest } = envelope;
    visit(forEach, ['envelopes', i, 'forEach'], false);
    visit(rest, ['envelopes', i], forEach !== undefined);
  });
  for (const { text, path } of secrets) {
    if (isSingleEnvReference(text)) continue;
    const password = path[0] === 'accounts';
    ctx.sink.add(
      password ? 'SR_PASSWORD_LITERAL' : 'SR_ACCESS_CODE_LITERAL',
      `${fieldName(path)} is written in the job file; write \${env.<NAME>} instead${password ? '' : ' (an access code is a secret: signrun writes it nowhere)'}`,
      placeOf(ctx, path),
      { field: fieldName(path), redactExcerpt: true },
    );
  }
  job.accounts?.forEach((account, i) => visit(account, ['accounts', i], false));
  // A template is one for every envelope: no row of a CSV is known there.
  job.templates?.forEach((template, i) => visit(template, ['templates', i], false));
  return ctx.sink.errorCount === before;
}

/**
 * signrun's own credential variables: the password, access token, private
 * key or any other secret of DOCUSIGN_* (DOCUSIGN_USERNAME, _ROOT_URL,
 * _INTEGRATOR_KEY and _DISTRIBUTOR_CODE are not secrets).
 */
export function isCredentialVariable(name: string): boolean {
  return /^DOCUSIGN_/i.test(name) && /PASSWORD|TOKEN|SECRET|PRIVATE/i.test(name);
}

/** `accounts[i].initialUser.password`: the one field of a job file that holds a credential. */
function isPasswordField(path: ReadonlyArray<string | number>): boolean {
  return path.length === 4 && path[0] === 'accounts' && path[2] === 'initialUser' && path[3] === 'password';
}
