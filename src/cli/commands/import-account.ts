import path from 'node:path';
import type { CommandHandler } from '../command.js';
import { formatDiagnostics } from '../format-diagnostics.js';
import { useColour } from '../io.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { loadConfig } from '../../config/index.js';
import { jwtSettingsOf, resolveTarget } from '../../runner/target.js';
import { importAccount } from '../../runner/import-account.js';

/**
 * `signrun import account [<accountId or name>] [--out FILE] [--force]`:
 * the library's `importAccount` against the configured service, logged in
 * as `signrun plan` logs in (a root URL, or the JWT grant). Writes the job
 * file (default `<key>.yaml` here), the templates' documents under
 * `templates/<key>/` and the brands' logos under `brands/<brand>/` beside
 * it; refuses to overwrite any of them without --force. With no service
 * configured there is nothing to import from (SR_IMPORT_NO_SERVICE). Says
 * which `${env.*}` the file needs set, never their values.
 */
const importAccountCommand: CommandHandler = async ({ args, options, io }) => {
  const reference = typeof args[0] === 'string' && args[0] !== '' ? args[0] : undefined;
  const loaded = await loadConfig({ cwd: io.cwd, env: io.env });
  if (!loaded.ok) {
    io.stderr.write(formatDiagnostics(loaded.errors, 'text', { colour: useColour(io, 'stderr') }));
    return ExitCode.invalid;
  }
  if (loaded.warnings.length > 0)
    io.stderr.write(formatDiagnostics(loaded.warnings, 'text', { colour: useColour(io, 'stderr') }));
  const config = loaded.config;
  if (!config.rootUrl && !jwtSettingsOf(config))
    throw new SignrunError(
      'SR_IMPORT_NO_SERVICE',
      `no service is configured (DOCUSIGN_ROOT_URL or the JWT grant): there is no account${reference !== undefined ? ` ${JSON.stringify(reference)}` : ''} to import`,
    );
  const target = await resolveTarget(config, () => {
    throw new SignrunError('SR_USAGE', 'import never starts a sandbox');
  });
  for (const warning of target.warnings) io.stderr.write(`warning: ${warning}\n`);
  try {
    const out = options['out'] as string | undefined;
    const imported = await importAccount({
      target: { rootUrl: target.rootUrl, auth: target.auth },
      ...(reference !== undefined ? { account: reference } : {}),
      cwd: io.cwd,
      ...(out !== undefined ? { jobFile: out } : {}),
      ...(options['force'] === true ? { force: true } : {}),
    });
    const shown = (file: string) => path.relative(io.cwd, file) || file;
    const c = imported.counts;
    const lines = [
      `Imported account "${imported.accountName}" (${imported.accountId}) from ${target.rootUrl}: ${c.permissionProfiles} permission profile(s), ${c.groups} group(s), ${c.users} user(s), ${c.brands} brand(s), ${c.connect} Connect configuration(s), ${c.templates} template(s); ${imported.apiCalls} API call(s).`,
      `  ${shown(imported.jobFile)}  (accounts: key ${imported.key})`,
      ...imported.files.map((f) => `  ${shown(f.path)}  (${f.size} bytes)`),
      ...(imported.leftOut.length > 0
        ? ['Left out (the account keeps them as they are):', ...imported.leftOut.map((l) => `  - ${l}`)]
        : []),
      ...(imported.variables.length > 0
        ? [
            'Set before plan and run (secrets are never written to the file):',
            ...imported.variables.map((v) => `  ${v.name}  ${v.purpose}`),
          ]
        : []),
      `Next: npx signrun plan ${shown(imported.jobFile)}  (it should say "no change" for every item), then commit the folder.`,
    ];
    io.stdout.write(`${lines.join('\n')}\n`);
    return ExitCode.ok;
  } finally {
    await target.close();
  }
};
export default importAccountCommand;
