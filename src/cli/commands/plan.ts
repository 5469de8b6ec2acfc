import path from 'node:path';
import type { CommandHandler } from '../command.js';
import { formatDiagnostics } from '../format-diagnostics.js';
import { useColour } from '../io.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { prepare } from '../../runner/prepare.js';
import { planRun, planItemName, type PlanSources } from '../../runner/plan.js';
import { jwtSettingsOf, resolveTarget } from '../../runner/target.js';
import { findByIdentity } from '../../runner/find-by-identity.js';
import { accountExists } from '../../runner/account-pipeline.js';
import { EsignatureClient } from '../../client/esignature-client.js';
import { readJournal } from '../../state/journal.js';
import { checkStateTarget } from '../../state/state-target.js';
import { journalProgress } from '../../state/journal-progress.js';
import { SignrunError } from '../../errors/signrun-error.js';

/**
 * `signrun plan <paths...> [--out DIR] [--state DIR] [--format text|json]`:
 * what a run would do — create, adopt existing, up to date, drift, delete —
 * with the API calls it expects, against the target (DESIGN.md): from the
 * job files, the journal (read, never locked) and outputs of earlier runs,
 * and for envelopes neither knows, the service's status-changes listing
 * filtered by the identity custom field (GETs only). With no root URL
 * configured the run would start an empty in-process sandbox, so nothing is
 * asked. Read-only; validation first (exit 2 on invalid input).
 */
const plan: CommandHandler = async ({ args, options, io }) => {
  const patterns = (args[0] as string[] | undefined) ?? [];
  const prepared = await prepare(patterns, { cwd: io.cwd, env: io.env });
  if (!prepared.ok) {
    io.stderr.write(
      formatDiagnostics([...prepared.errors, ...prepared.warnings], 'text', { colour: useColour(io, 'stderr') }),
    );
    return ExitCode.invalid;
  }
  const outDir = path.resolve(io.cwd, (options['out'] as string | undefined) ?? prepared.config.outDir);
  const sources: PlanSources = {};
  let client: EsignatureClient | undefined;
  // The configured service: a root URL, or the JWT grant (its root comes from userinfo).
  let rootUrl = prepared.config.rootUrl?.replace(/\/+$/, '');
  if (rootUrl || jwtSettingsOf(prepared.config)) {
    // As `run`: the journal lives in the state folder only for a configured service.
    const stateDir = path.resolve(io.cwd, (options['state'] as string | undefined) ?? path.join(outDir, '.signrun'));
    // A journal of another service's runs would list envelopes this one never had.
    if (rootUrl) await checkStateTarget(stateDir, rootUrl);
    const target = await resolveTarget(prepared.config, () => {
      throw new SignrunError('SR_USAGE', 'plan never starts a sandbox');
    });
    if (!rootUrl) await checkStateTarget(stateDir, target.rootUrl);
    rootUrl = target.rootUrl;
    sources.journal = journalProgress((await readJournal(stateDir)).records);
    for (const warning of target.warnings) io.stderr.write(`warning: ${warning}\n`);
    client = EsignatureClient.create({ rootUrl: target.rootUrl, auth: target.auth });
  }
  let result;
  try {
    if (client) {
      const account = await client.login();
      sources.lookup = (identity) => findByIdentity(account, identity);
      const reader = client;
      sources.accountExists = (accountId, identity) => accountExists(reader, accountId, identity);
    }
    // Envelopes created on an in-process sandbox died with it: outputs count only for the configured service.
    result = await planRun(prepared.jobs, outDir, rootUrl ?? '(in-process sandbox)', sources);
  } finally {
    client?.close();
  }
  if (options['format'] === 'json') {
    io.stdout.write(`${JSON.stringify({ target: rootUrl ?? null, outDir, ...result }, null, 2)}\n`);
    return ExitCode.ok;
  }
  const lines: string[] = [];
  lines.push(
    rootUrl
      ? `Plan against ${rootUrl} (its envelopes, the journal and the outputs in ${path.relative(io.cwd, outDir) || '.'}):`
      : `Plan against the in-process sandbox (no DOCUSIGN_ROOT_URL configured; it starts empty), from the outputs in ${path.relative(io.cwd, outDir) || '.'}:`,
  );
  const width = Math.min(60, Math.max(...result.items.map((i) => planItemName(i).length), 10));
  for (const item of result.items) {
    const what = item.kind === 'account' ? `${item.action} account` : item.action;
    lines.push(
      `  ${what.padEnd(16)} ${planItemName(item).padEnd(width)} ${item.apiCalls} call(s)${item.envelopeId ? `  ${item.envelopeId}` : ''}${item.accountId ? `  ${item.accountId}` : ''}`,
    );
  }
  const count = (action: string) => result.items.filter((i) => i.action === action).length;
  lines.push(
    `${count('create')} to create, ${count('adopt')} to adopt, ${count('up-to-date')} up to date, ${count('drift')} drifted, ${count('delete')} to delete; about ${result.totalApiCalls} API calls (login and template reads included).`,
  );
  if (count('drift') > 0)
    lines.push(
      'Drifted envelopes were sent with other content: a run refuses them (SR_ENVELOPE_DRIFT) rather than send them again.',
    );
  io.stdout.write(`${lines.join('\n')}\n`);
  return ExitCode.ok;
};
export default plan;
