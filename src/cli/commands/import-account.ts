import path from 'node:path';
import type { CommandHandler } from '../command.js';
import { importTarget } from '../import-target.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { importAccount } from '../../runner/import/import-account.js';

/**
 * `signrun import account [<accountId or name>] [--organization ID] [--out FILE] [--force]`:
 * the library's `importAccount` against the configured service, logged in
 * as `signrun plan` logs in (a root URL, or the JWT grant). Writes the job
 * file (default `<key>.yaml` here), the templates' documents under
 * `templates/<key>/` and the brands' logos under `brands/<brand>/` beside
 * it; refuses to overwrite any of them without --force. With no service
 * configured there is nothing to import from (SR_IMPORT_NO_SERVICE). Says
 * which `${env.*}` the file needs set, never their values.
 */
const importAccountCommand: CommandHandler = async ({ args, options, io, signal }) => {
  const reference = typeof args[0] === 'string' && args[0] !== '' ? args[0] : undefined;
  const target = await importTarget(io, `account${reference !== undefined ? ` ${JSON.stringify(reference)}` : ''}`);
  if (!target) return ExitCode.invalid;
  try {
    const out = options['out'] as string | undefined;
    const organization = options['organization'] as string | undefined;
    const imported = await importAccount({
      target: {
        rootUrl: target.rootUrl,
        auth: target.auth,
        ...(target.adminBase ? { adminBase: target.adminBase } : {}),
      },
      ...(reference !== undefined ? { account: reference } : {}),
      ...(organization !== undefined && organization !== '' ? { organization } : {}),
      cwd: io.cwd,
      ...(out !== undefined ? { jobFile: out } : {}),
      ...(options['force'] === true ? { force: true } : {}),
      signal,
    });
    const shown = (file: string) => path.relative(io.cwd, file) || file;
    const lines = [
      `Imported account "${imported.accountName}" (${imported.accountId}) from ${target.rootUrl}: ${imported.countWords.join(', ')}; ${imported.apiCalls} API call(s).`,
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
