import { readdir } from 'node:fs/promises';
import { shownUrl } from '../../secret.js';
import path from 'node:path';
import type { CommandHandler } from '../command.js';
import { formatDiagnostics } from '../format-diagnostics.js';
import { useColour } from '../io.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { loadConfig } from '../../config/index.js';
import { EsignatureClient, type AccountClient } from '../../client/esignature-client.js';
import { recipientsByKind } from '../../envelope/index.js';
import { OutputFolder } from '../../output/output-folder.js';
import { readRecord, type EnvelopeRecord, type SigningEntry, type SigningRecord } from '../../output/records.js';
import { itemFile, itemFolder } from '../../output/output-paths.js';
import { freshRecipientView } from '../../runner/envelopes/recipient-view.js';
import { serviceErrorMeans } from '../../client/service-error-classes.js';
import { jwtSettingsOf, resolveTarget } from '../../runner/target.js';
import { shownPath } from '../shown-path.js';

/** Finds `<job>/<key>` in the output folder from `key` or `job/key`. */
async function findEnvelopeFolder(root: string, wanted: string): Promise<string> {
  if (wanted.includes('/')) return wanted;
  let jobs: string[];
  try {
    jobs = (await readdir(root, { withFileTypes: true }))
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .map((d) => d.name);
  } catch {
    throw new SignrunError('SR_OUTPUT_NOT_FOUND', `the output folder ${root} does not exist`);
  }
  const matches: string[] = [];
  for (const job of jobs) {
    if (await readRecord<SigningRecord>(root, itemFile(itemFolder(job, wanted), 'signing')))
      matches.push(`${job}/${wanted}`);
  }
  if (matches.length === 1 && matches[0]) return matches[0];
  if (matches.length === 0)
    throw new SignrunError('SR_OUTPUT_NOT_FOUND', `no envelope with key "${wanted}" and embedded signers in ${root}`);
  throw new SignrunError('SR_OUTPUT_NOT_FOUND', `the key "${wanted}" exists in several jobs: ${matches.join(', ')}`, {
    hint: `Name it as job/key, e.g. ${matches[0]}.`,
  });
}

/** The recipient named by clientUserId, email, name or recipientId; default the first ready one, else the first. */
function chooseRecipient(entries: SigningEntry[], wanted: string | undefined): SigningEntry {
  if (wanted === undefined) {
    const first = entries.find((e) => e.state === 'ready') ?? entries[0];
    if (first) return first;
  } else {
    const w = wanted.toLowerCase();
    const found =
      entries.find((e) => e.clientUserId === wanted) ??
      entries.find((e) => e.email.toLowerCase() === w) ??
      entries.find((e) => e.userName.toLowerCase() === w) ??
      entries.find((e) => e.recipientId === wanted);
    if (found) return found;
  }
  throw new SignrunError(
    'SR_RECIPIENT_NOT_FOUND',
    `no embedded recipient${wanted ? ` "${wanted}"` : ''} in this envelope; embedded recipients: ${entries.map((e) => e.clientUserId).join(', ') || '(none)'}`,
  );
}

/**
 * With no recipient named, the first embedded one the service says is to act
 * now (sent or delivered: their turn, not yet signed). signing.json's
 * `state` is from the send: after the first signer signed, the "first ready"
 * one would be them again, whose address opens on "Nothing to sign". One
 * call (the envelope's recipients); `fallback` when none is to act.
 */
async function recipientWhoseTurnItIs(
  account: AccountClient,
  entries: SigningEntry[],
  fallback: SigningEntry,
): Promise<SigningEntry> {
  const listed = recipientsByKind(await account.listRecipients(fallback.envelopeId));
  const toAct = (e: SigningEntry) =>
    listed.some(
      ({ recipient }) =>
        // By clientUserId: unique among an envelope's embedded recipients, and signing.json has no recipientId for a template's roles.
        recipient.clientUserId === e.clientUserId && (recipient.status === 'sent' || recipient.status === 'delivered'),
    );
  return entries.find(toAct) ?? fallback;
}

/**
 * The service refused the address because of where the envelope or the
 * recipient stands (declined, voided or completed; not this recipient's turn
 * yet): said in those words, with what to do, rather than as a bare HTTP
 * error to retry. Anything else is thrown as it came.
 */
function notSignable(error: unknown, folder: string, shownOut: string, entry: SigningEntry): unknown {
  const said = (error as { serviceMessage?: unknown }).serviceMessage;
  const reason = typeof said === 'string' ? ` (the service: "${said}")` : '';
  const who = entry.userName || entry.email;
  if (serviceErrorMeans(error, 'envelope-status-moved-on'))
    return new SignrunError(
      'SR_HTTP_STATUS',
      `${folder}: envelope ${entry.envelopeId} can no longer be signed by ${who}: it is declined, voided or completed${reason}`,
      {
        hint: `\`npx signrun sync ${shownOut}\` records where it stands; a declined or voided envelope is sent again only as a new one (docs/job-files.md).`,
        cause: error,
      },
    );
  if (serviceErrorMeans(error, 'recipient-not-in-turn'))
    return new SignrunError(
      'SR_HTTP_STATUS',
      `${folder}: it is not ${who}'s turn to sign envelope ${entry.envelopeId} yet${reason}`,
      {
        hint: 'Ask for the address once the recipients before them have acted; without a recipient named, sign-url gives the one whose turn it is.',
        cause: error,
      },
    );
  return error;
}

/**
 * `signrun sign-url <out-dir> <envelope-key> [recipient]`: asks the service
 * for a fresh signing address (same returnUrl) for a recipient of an
 * envelope of an earlier run, prints it on stdout alone, and records it in
 * signing.json (mode 0600). Addresses expire (5 minutes, single use), so this
 * is how a long-lived link gets a working address at the moment it is opened.
 */
const signUrl: CommandHandler = async ({ args, io }) => {
  const [outArg, keyArg, recipientArg] = args as [string, string, string | undefined];
  const out = new OutputFolder(path.resolve(io.cwd, outArg));
  const folder = await findEnvelopeFolder(out.root, keyArg);
  const signing = await readRecord<SigningRecord>(out.root, itemFile(folder, 'signing'));
  const envelope = await readRecord<EnvelopeRecord>(out.root, itemFile(folder, 'envelope'));
  if (!signing || !envelope)
    throw new SignrunError('SR_OUTPUT_NOT_FOUND', `${folder} in ${out.root} has no signing.json and envelope.json`);
  let entry = chooseRecipient(signing.recipients, recipientArg);

  const loaded = await loadConfig({ cwd: io.cwd, env: io.env });
  if (!loaded.ok) {
    io.stderr.write(formatDiagnostics(loaded.errors, 'text', { colour: useColour(io, 'stderr') }));
    return ExitCode.invalid;
  }
  const config = loaded.config;
  const c = config.credentials;
  const credentialsConfigured = Boolean(c.accessToken ?? c.username ?? c.password);
  // Credentials are bound to the service configured with them: the
  // envelope.json of an output folder (tampered, or someone else's) never
  // decides where a password or token goes. Its address is used only for a
  // local sandbox, with the sandbox's own public seed credentials
  // (resolveTarget: loopback and nothing configured).
  if (!config.rootUrl && !jwtSettingsOf(config) && credentialsConfigured) {
    throw new SignrunError(
      'SR_ROOT_URL_MISSING',
      `credentials are configured but no root URL: not sending them to ${JSON.stringify(shownUrl(envelope.rootUrl))}, the address ${itemFile(folder, 'envelope')} names`,
    );
  }
  // The configured login (JWT grant, token, legacy header); an envelope made
  // on a local `signrun serve` with nothing configured: its seed's user.
  const target = await resolveTarget(
    config.rootUrl || jwtSettingsOf(config) ? config : { ...config, rootUrl: envelope.rootUrl },
    () => {
      throw new SignrunError('SR_USAGE', 'sign-url never starts a sandbox');
    },
  );
  for (const warning of target.warnings) io.stderr.write(`warning: ${warning}\n`);
  const { rootUrl, auth } = target;

  const client = EsignatureClient.create({ rootUrl, auth });
  try {
    const account = await client.login();
    if (recipientArg === undefined && signing.recipients.length > 1)
      entry = await recipientWhoseTurnItIs(account, signing.recipients, entry);
    const issuedAt = new Date();
    const view = await freshRecipientView(account, entry.envelopeId, signing.returnUrl, entry).catch(
      (error: unknown) => {
        throw notSignable(error, folder, shownPath(io.cwd, out.root), entry);
      },
    );
    const updated: SigningRecord = {
      ...signing,
      recipients: signing.recipients.map((e) =>
        e === entry
          ? {
              ...e,
              state: 'ready',
              url: view.url,
              issuedAt: issuedAt.toISOString(),
              expiresAt: new Date(issuedAt.getTime() + 300_000).toISOString(),
            }
          : e,
      ),
    };
    await out.writeJson(itemFile(folder, 'signing'), updated, { mode: 0o600 });
    io.stdout.write(`${view.url}\n`);
    io.stderr.write(
      `Signing address for ${entry.userName} <${entry.email}> (${entry.clientUserId}) of ${folder}: it works once, within about 5 minutes.\n`,
    );
    return ExitCode.ok;
  } finally {
    client.close();
  }
};
export default signUrl;
