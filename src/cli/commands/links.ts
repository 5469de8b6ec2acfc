import path from 'node:path';
import type { CommandHandler } from '../command.js';
import { formatDiagnostics } from '../format-diagnostics.js';
import { useColour } from '../io.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { loadConfig } from '../../config/index.js';
import { OutputFolder } from '../../output/output-folder.js';
import { ensureLinks } from '../../links/link-store.js';
import { startLinksServer } from '../../links/links-server.js';
import { stat } from 'node:fs/promises';
import { stringify } from 'csv-stringify/sync';
import { spreadsheetSafe } from '../../output/spreadsheet-cell.js';
import { itemFolder } from '../../output/output-paths.js';
import { loadJobs } from '../../jobs/index.js';

async function existingOut(cwd: string, out: string): Promise<string> {
  const dir = path.resolve(cwd, out);
  const s = await stat(dir).catch(() => undefined);
  if (!s?.isDirectory())
    throw new SignrunError('SR_OUTPUT_NOT_FOUND', `the output folder ${out} does not exist`, {
      hint: 'Give the --out folder of an earlier `npx signrun run`.',
    });
  return dir;
}

/**
 * `signrun links serve --out DIR [--host] [--port] [--base-url]`: the links
 * server until Ctrl-C / SIGTERM (docs/links.md). Prints
 * `links listening on http://HOST:PORT` once ready.
 * `signrun links list --out DIR [--base-url] [--format text|csv]`: gives
 * missing tokens and prints one line per embedded recipient (`job/key
 * clientUserId link`), or a CSV with names and emails for a mail merge.
 */
const linksCommand: CommandHandler = async ({ args, options, io, signal }) => {
  const action = args[0] as 'serve' | 'list';
  const outDir = await existingOut(io.cwd, (options['out'] as string | undefined) ?? 'out');
  const baseUrl = options['baseUrl'] as string | undefined;
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl))
    throw new SignrunError('SR_USAGE', `--base-url ${baseUrl} is not an http(s) address`);

  if (action === 'list') {
    const base =
      baseUrl ??
      `http://${(options['host'] as string | undefined) ?? '127.0.0.1'}:${(options['port'] as number | undefined) ?? 8090}`;
    const links = await ensureLinks(new OutputFolder(outDir), base);
    if (options['format'] === 'csv') {
      // For a mail merge: one row per embedded recipient, with a header (RFC 4180 quoting by csv-stringify;
      // a name a spreadsheet would run as a formula is quoted).
      io.stdout.write(
        stringify(
          links.map((l) =>
            [l.job, l.key, l.recipientId, l.clientUserId, l.userName, l.email, l.link].map(spreadsheetSafe),
          ),
          { header: true, columns: ['job', 'key', 'recipientId', 'clientUserId', 'name', 'email', 'link'] },
        ),
      );
    } else for (const l of links) io.stdout.write(`${l.folder} ${l.clientUserId} ${l.link}\n`);
    io.stderr.write(
      `${links.length} link(s); they open while \`npx signrun links serve --out ${(options['out'] as string | undefined) ?? 'out'}\` answers at ${base}.\n`,
    );
    return ExitCode.ok;
  }

  const loaded = await loadConfig({ cwd: io.cwd, env: io.env });
  if (!loaded.ok) {
    io.stderr.write(formatDiagnostics(loaded.errors, 'text', { colour: useColour(io, 'stderr') }));
    return ExitCode.invalid;
  }
  // Where signers go after signing: from the job files when given (signing.json is an output anyone with the folder can edit).
  const paths = (args[1] as string[] | undefined) ?? [];
  let returnUrls: Map<string, string> | undefined;
  if (paths.length > 0) {
    const jobs = await loadJobs(paths, { cwd: io.cwd, env: io.env });
    if (!jobs.ok) {
      io.stderr.write(formatDiagnostics(jobs.errors, 'text', { colour: useColour(io, 'stderr') }));
      return ExitCode.invalid;
    }
    returnUrls = new Map(
      jobs.jobs.flatMap((j) =>
        j.envelopes.flatMap((e) =>
          e.returnUrl !== undefined ? [[itemFolder(e.job, e.key), e.returnUrl] as const] : [],
        ),
      ),
    );
  }
  const server = await startLinksServer({
    outDir,
    config: loaded.config,
    ...(returnUrls ? { returnUrls } : {}),
    host: options['host'] as string | undefined,
    port: options['port'] as number | undefined,
    ...(baseUrl !== undefined ? { baseUrl } : {}),
  });
  io.stdout.write(`links listening on ${server.origin}\n`);
  if (!returnUrls)
    io.stdout.write(
      `  returnUrls are read from signing.json; give the job files (\`npx signrun links serve <paths> --out ${(options['out'] as string | undefined) ?? 'out'}\`) to take them from the jobs\n`,
    );
  if (server.baseUrl !== server.origin) io.stdout.write(`  links are addressed as ${server.baseUrl}/l/<token>\n`);
  await new Promise<void>((resolveWait) => {
    if (signal.aborted) resolveWait();
    else signal.addEventListener('abort', () => resolveWait(), { once: true });
  });
  await server.close();
  io.stdout.write('links stopped\n');
  return ExitCode.ok;
};
export default linksCommand;
