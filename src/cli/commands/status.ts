import path from 'node:path';
import type { CommandHandler } from '../command.js';
import { preparedOrDiagnostics } from '../prepared-or-diagnostics.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { statusFromState, type StatusRecipient } from '../../sync/status-report.js';
import { shownPath } from '../shown-path.js';
import { terminalSafe as safe } from '../../output/terminal-text.js';
import { isSettledEnvelope, isStillToAct } from '../../envelope/statuses.js';
import { recipientKindNamed, shorthandRecipientKind } from '../../envelope/recipient-kinds.js';

/**
 * `signrun status <paths...> [--out DIR] [--state DIR] [--format text|json]`:
 * each envelope's key, status and who is still to sign, from the state
 * alone (no call to the service: run `signrun sync` to refresh it). Exit 0.
 */
const statusCommand: CommandHandler = async ({ args, options, io }) => {
  const patterns = (args[0] as string[] | undefined) ?? [];
  const prepared = await preparedOrDiagnostics(io, patterns);
  if (!prepared) return ExitCode.invalid;
  const outDir = path.resolve(io.cwd, (options['out'] as string | undefined) ?? prepared.config.outDir);
  const stateDir = path.resolve(io.cwd, (options['state'] as string | undefined) ?? path.join(outDir, '.signrun'));
  const lines = await statusFromState(prepared.jobs, outDir, stateDir);
  if (options['format'] === 'json') {
    io.stdout.write(`${JSON.stringify({ envelopes: lines }, null, 2)}\n`);
    return ExitCode.ok;
  }
  const shownOut = shownPath(io.cwd, outDir);
  const now = Date.now();
  for (const line of lines) {
    const why = line.voidedReason ?? line.declinedReason;
    io.stdout.write(
      `${safe(`${line.job}/${line.key}  ${line.status}${line.statusAt ? ` since ${line.statusAt}` : ''}${why ? ` (${why})` : ''}`)}\n`,
    );
    if (isSettledEnvelope(line.status)) continue;
    for (const r of line.recipients) {
      if (!isStillToAct(r.status, r.kind)) continue;
      io.stdout.write(
        `    ${stillTo(r.kind)}: ${safe(`${r.name ?? r.recipientId}${r.email ? ` <${r.email}>` : ''} ${r.status ?? 'sent'}${r.statusAt ? ` since ${r.statusAt}` : ''}`)}${addressNote(r, `${line.job}/${line.key}`, shownOut, now)}\n`,
      );
    }
  }
  const synced = lines
    .map((l) => l.syncedAt)
    .filter((t): t is string => t !== undefined)
    .sort();
  io.stdout.write(
    synced.length > 0
      ? `As recorded by the last sync (${synced[synced.length - 1]}); \`npx signrun sync\` asks the service again.\n`
      : 'No sync recorded yet: `npx signrun sync` asks the service what became of the envelopes.\n',
  );
  return ExitCode.ok;
};
export default statusCommand;

/** "still to sign", or for another kind what it still has to do, and its kind ("still to view (certified delivery)"). */
function stillTo(kind: string | undefined): string {
  const known = kind === undefined ? undefined : recipientKindNamed(kind);
  if (known === undefined || known.name === shorthandRecipientKind) return 'still to sign';
  const verb = { signing: 'sign', viewing: 'view the documents', routing: 'pass it on', nothing: 'receive' }[
    known.completesOn
  ];
  return `still to ${verb} (${known.role.toLowerCase()})`;
}

/**
 * For an embedded signer: whether they can still open what signing.json
 * holds. A stable link never expires; a signing address does (DocuSign: 5
 * minutes, once), and then the command that gets a fresh one is named.
 */
function addressNote(r: StatusRecipient, item: string, out: string, now: number): string {
  if (r.clientUserId === undefined) return '';
  if (r.hasLink) return '; stable link in signing.json';
  if (r.signing === 'waiting-for-turn') return '; signs after an earlier routing order';
  if (!r.signingAddressExpiresAt) return '';
  return Date.parse(r.signingAddressExpiresAt) > now
    ? `; signing address valid until ${r.signingAddressExpiresAt}`
    : `; signing address expired ${r.signingAddressExpiresAt}: \`npx signrun sign-url ${out} ${item} ${r.recipientId}\` gets a fresh one`;
}
