import path from 'node:path';
import type { CommandHandler } from '../command.js';
import { importTarget } from '../import-target.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { importTemplate } from '../../runner/import/import-template.js';

/**
 * `signrun import template <templateId or name> [--out FILE] [--force]`:
 * the library's `importTemplate` against the configured service, logged in
 * as `signrun plan` logs in (a root URL, or the JWT grant). Writes the job
 * file (default `<key>.yaml` here) and the template's documents under
 * `templates/<key>/` beside it; refuses to overwrite either without
 * --force. With no service configured there is nothing to import from
 * (SR_IMPORT_NO_SERVICE).
 */
const importTemplateCommand: CommandHandler = async ({ args, options, io, signal }) => {
  const reference = typeof args[0] === 'string' ? args[0] : '';
  const target = await importTarget(io, `template ${JSON.stringify(reference)}`);
  if (!target) return ExitCode.invalid;
  try {
    const out = options['out'] as string | undefined;
    const imported = await importTemplate({
      target: { rootUrl: target.rootUrl, auth: target.auth },
      template: reference,
      cwd: io.cwd,
      ...(out !== undefined ? { jobFile: out } : {}),
      ...(options['force'] === true ? { force: true } : {}),
      signal,
    });
    const shown = (file: string) => path.relative(io.cwd, file) || file;
    const lines = [
      `Imported template "${imported.name}" (${imported.templateId}) from ${target.rootUrl}: ${imported.documents.length} document(s), ${imported.roles} role(s), ${imported.apiCalls} API call(s).`,
      `  ${shown(imported.jobFile)}  (templates: key ${imported.key})`,
      ...imported.documents.map((d) => `  ${shown(d.path)}  (${d.size} bytes)`),
      `Next: npx signrun plan ${shown(imported.jobFile)}  (it should say "no change"), then commit both.`,
    ];
    io.stdout.write(`${lines.join('\n')}\n`);
    return ExitCode.ok;
  } finally {
    await target.close();
  }
};
export default importTemplateCommand;
