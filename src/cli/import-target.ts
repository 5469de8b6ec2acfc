import { formatDiagnostics } from './format-diagnostics.js';
import { useColour, type CommandIO } from './io.js';
import { SignrunError } from '../errors/signrun-error.js';
import { loadConfig } from '../config/index.js';
import { jwtSettingsOf, resolveTarget, type ResolvedTarget } from '../runner/target.js';

/**
 * The service an `import` reads from, logged in as `signrun plan` logs in
 * (a root URL, or the JWT grant), with the configuration's warnings
 * printed. Undefined, after printing its errors, when the configuration is
 * invalid. An import never starts a sandbox: with no service configured
 * there is nothing to import (SR_IMPORT_NO_SERVICE; `what` names it).
 */
export async function importTarget(io: CommandIO, what: string): Promise<ResolvedTarget | undefined> {
  const loaded = await loadConfig({ cwd: io.cwd, env: io.env });
  if (!loaded.ok) {
    io.stderr.write(formatDiagnostics(loaded.errors, 'text', { colour: useColour(io, 'stderr') }));
    return undefined;
  }
  if (loaded.warnings.length > 0)
    io.stderr.write(formatDiagnostics(loaded.warnings, 'text', { colour: useColour(io, 'stderr') }));
  if (!loaded.config.rootUrl && !jwtSettingsOf(loaded.config))
    throw new SignrunError(
      'SR_IMPORT_NO_SERVICE',
      `no service is configured (DOCUSIGN_ROOT_URL or the JWT grant): there is no ${what} to import`,
    );
  const target = await resolveTarget(loaded.config, () => {
    throw new SignrunError('SR_USAGE', 'import never starts a sandbox');
  });
  for (const warning of target.warnings) io.stderr.write(`warning: ${warning}\n`);
  return target;
}
