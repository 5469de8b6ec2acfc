import { readFileSync } from 'node:fs';
import { Command, Option, InvalidArgumentError } from 'commander';
import type { CommandHandler } from './command.js';
import type { CommandIO } from './io.js';

/** The command table. Each command's module is loaded only when it runs, so `--help` stays fast. */
const commands = {
  validate: () => import('./commands/validate.js'),
  preview: () => import('./commands/preview.js'),
  plan: () => import('./commands/plan.js'),
  run: () => import('./commands/run.js'),
  serve: () => import('./commands/serve.js'),
  'sign-url': () => import('./commands/sign-url.js'),
  sync: () => import('./commands/sync.js'),
  status: () => import('./commands/status.js'),
  remind: () => import('./commands/remind.js'),
  listen: () => import('./commands/listen.js'),
  'report-merge': () => import('./commands/report-merge.js'),
  'auth-check': () => import('./commands/auth.js').then((m) => ({ default: m.check })),
  'auth-consent-url': () => import('./commands/auth.js').then((m) => ({ default: m.consent })),
  links: () => import('./commands/links.js'),
  'import-template': () => import('./commands/import-template.js'),
  'import-account': () => import('./commands/import-account.js'),
} satisfies Record<string, () => Promise<{ default: CommandHandler }>>;

export type CommandName = keyof typeof commands;

/**
 * signrun's own version, from its package.json (dist/cli → ../../). Not
 * npm_package_version: under `npx signrun` in someone's project that is
 * their package's version.
 */
function ownVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number of 1 or more');
  return n;
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number of 0 or more');
  return n;
}

export function pageScale(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0.25 || n > 4) throw new InvalidArgumentError('must be a number from 0.25 to 4');
  return n;
}

export function portNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number, 0 to 65535');
  return n;
}

/**
 * Builds the commander program. `dispatch` is called with the chosen command;
 * commander only parses, it never exits the process (exitOverride).
 */
// eslint-disable-next-line max-lines-per-function -- commander's declaration of every command and its options, one after another: the command line as a table, not logic.
export function buildProgram(
  io: CommandIO,
  dispatch: (
    name: CommandName,
    load: () => Promise<{ default: CommandHandler }>,
    args: unknown[],
    options: Record<string, unknown>,
  ) => void,
): Command {
  const program = new Command('signrun')
    .description('Envelope-as-code for electronic signatures (eSignature REST API v2).')
    .version(ownVersion())
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .showHelpAfterError('(run with --help for usage)');

  const on =
    (name: CommandName) =>
    (...all: unknown[]) => {
      // commander passes positional args, then the options object, then the Command.
      const cmd = all[all.length - 1] as Command;
      const args = all.slice(0, -2);
      dispatch(name, commands[name], args, cmd.opts());
    };

  program
    .command('validate')
    .description('Check job files offline: schema, files, references. Exit 0 valid, 2 invalid.')
    .argument('<paths...>', 'job files, folders or globs')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'github']).default('text'))
    .action(on('validate'));

  program
    .command('preview')
    .description(
      'Draw every envelope with its tabs, offline: <out>/<job>/<key>/preview.pdf, a PNG per page, and preview.html. Exit 1 on a warning.',
    )
    .argument('<paths...>', 'job files, folders or globs')
    .option('--out <dir>', 'output folder (default: preview)')
    .option('--key <key...>', 'only these envelope keys (key or job/key)')
    .addOption(
      new Option('--format <format>', 'how warnings are printed').choices(['text', 'json', 'github']).default('text'),
    )
    .option('--warnings-ok', 'exit 0 even when a warning is found (a layout to look at, not to stop on)')
    .option(
      '--scale <pixels>',
      'pixels per point of the page images (default 1: 72 dots per inch, the page size)',
      pageScale,
    )
    .action(on('preview'));

  program
    .command('plan')
    .description('Show what a run would do against the target, without changing anything.')
    .argument('<paths...>', 'job files, folders or globs')
    .option('--out <dir>', 'output folder whose state the plan reads')
    .option('--state <dir>', 'state folder (default: <out>/.signrun)')
    .addOption(
      new Option(
        '--documents <when>',
        'download documents and certificate right after sending (at-send) or later, signed (on-completion); default: at-send for the in-process sandbox, else on-completion',
      ).choices(['at-send', 'on-completion']),
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--bulk-send', 'count the calls as `run --bulk-send` would make them (forEach envelopes through Bulk Send)')
    .option('--replace-drifted', 'show drifted envelopes as `run --replace-drifted` would replace them')
    .action(on('plan'));

  program
    .command('run')
    .description(
      'Validate, then create envelopes and accounts; write signing addresses, documents, certificates and a report.',
    )
    .argument('<paths...>', 'job files, folders or globs')
    .option('--out <dir>', 'output folder (default: out)')
    .option(
      '--concurrency <n>',
      'envelopes in progress, and API requests in flight, at most at once (default: 8)',
      positiveInt,
    )
    .option('--state <dir>', 'state folder for the journal (default: <out>/.signrun)')
    .option('--shard <k/n>', 'take only shard K of N (1-based) of the envelopes')
    .option('--max-calls-per-hour <n>', 'hourly API call budget (default: what the service says)', positiveInt)
    .option(
      '--spread-over-hours',
      'when the hourly budget is spent, wait for the next hour and go on (saying when) instead of stopping',
    )
    .option(
      '--replace-drifted',
      'void each envelope whose content changed since it was sent, and send the new content under the same key',
    )
    .addOption(
      new Option(
        '--signing-urls <when>',
        'embedded signers’ addresses: at-send (made right after sending, 5 minutes each) or on-demand (made when the person arrives, by links serve or sign-url: 2 calls an envelope); default: the config file’s signingUrls, else at-send',
      ).choices(['at-send', 'on-demand']),
    )
    .addOption(
      new Option(
        '--documents <when>',
        'download documents and certificate right after sending (at-send) or later, signed (on-completion); default: at-send for the in-process sandbox, else on-completion',
      ).choices(['at-send', 'on-completion']),
    )
    .option(
      '--bulk-send',
      "send every forEach envelope through DocuSign's Bulk Send: one list of up to 1,000 rows and one call to send it (rows may differ only in recipients, labelled tab values, custom field values, subject and blurb)",
    )
    // Mostly for tests and benchmarks: a small campaign then makes several lists.
    .option('--bulk-list-size <n>', 'rows per bulk send list with --bulk-send (default and most: 1,000)', positiveInt)
    .action(on('run'));

  program
    .command('sync')
    .description(
      'Ask the service what became of the envelopes sent (one status listing per account) and collect the completed ones.',
    )
    .argument('<paths...>', 'job files, folders or globs')
    .option('--out <dir>', 'output folder (default: out)')
    .option('--state <dir>', 'state folder (default: <out>/.signrun)')
    .option('--force', "list now even if the last listing is more recent than DocuSign's 15-minute polling rule")
    .option('--combined', 'also download each completed envelope as one combined PDF')
    .option(
      '--min-interval <seconds>',
      "minimum time between two listings (default 900, DocuSign's rule)",
      nonNegativeInt,
    )
    .action(on('sync'));

  program
    .command('status')
    .description("Print each envelope's status and who is still to sign, from the state alone (no call).")
    .argument('<paths...>', 'job files, folders or globs')
    .option('--out <dir>', 'output folder (default: out)')
    .option('--state <dir>', 'state folder (default: <out>/.signrun)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(on('status'));

  program
    .command('remind')
    .description("Send the notification again to the recipients who have not signed (DocuSign's resend).")
    .argument('<paths...>', 'job files, folders or globs')
    .option('--key <key...>', 'only these envelope keys (key or job/key)')
    .option('--out <dir>', 'output folder (default: out)')
    .option('--state <dir>', 'state folder (default: <out>/.signrun)')
    .option('--max-calls-per-hour <n>', 'hourly API call budget (default: what the service says)', positiveInt)
    .option('--force', 'also remind envelopes reminded less than 24 hours ago')
    .action(on('remind'));

  program
    .command('listen')
    .description(
      'Receive DocuSign Connect events (HMAC-verified) and record them in the state for sync (keys in DOCUSIGN_CONNECT_HMAC_KEYS).',
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', portNumber, 8081)
    .option('--out <dir>', 'output folder (default: out)')
    .option('--state <dir>', 'state folder (default: <out>/.signrun)')
    .action(on('listen'));

  program
    .command('serve')
    .description('Run the local eSignature API v2 sandbox.')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--public-url <url>',
      'address clients reach the sandbox at, when not the one it listens on (a name on the network, a proxy): the links it hands out start with it, and only it, localhost and IP addresses are answered',
    )
    .option(
      '--allow-key-generation',
      'with --public-url: still make and register key pairs and secrets of integration keys (POST /sandbox/integrations/{key}/rsa-keys; always behind sign-in)',
    )
    .option('--port <port>', 'port to listen on (0: any free port)', portNumber, 8080)
    .option('--tls', "HTTPS with a certificate from the sandbox's own CA (GET /sandbox/ca.pem)")
    .option('--data <dir>', 'data folder (SQLite + documents); default: in memory')
    .option('--seed <file>', 'YAML seed replacing the built-in one')
    .option('--latency <ms>', 'fixed delay added to every API response', nonNegativeInt)
    .option(
      '--hourly-limit <n>',
      'API calls per hour per account before HOURLY_APIINVOCATION_LIMIT_EXCEEDED',
      positiveInt,
    )
    .option(
      '--hourly-window <seconds>',
      "length of the hourly limit's window (default 3600, DocuSign's clock hour; shorter to try a campaign over several)",
      positiveInt,
    )
    .option('--burst-limit <n>', 'API calls per 30 s per account before the burst limit answers', positiveInt)
    .option('--token-ttl <seconds>', 'lifetime of signing-view tokens (default 300)', positiveInt)
    .option('--faults <spec>', 'fault injection, e.g. "429=0.02,500=0.02,reset-after=0.02"')
    .option('--fault-seed <n>', 'seed for reproducible fault injection', nonNegativeInt)
    .addOption(
      new Option(
        '--polling-rule <rule>',
        "none: sync may list status changes at every call; docusign: clients keep DocuSign's 15-minute polling rule, as against DocuSign",
      )
        .choices(['none', 'docusign'])
        .default('none'),
    )
    .action(on('serve'));

  program
    .command('sign-url')
    .description('Ask the service for a fresh signing address for a recipient of an envelope of an earlier run.')
    .argument('<out-dir>', 'output folder of the run')
    .argument('<envelope-key>', 'the envelope key, or job/key when several jobs share the folder')
    .argument(
      '[recipient]',
      'recipient: clientUserId, email, name or recipientId (default: the first whose turn it is)',
    )
    .action(on('sign-url'));

  const report = program.command('report').description('Work with run reports.');
  report
    .command('merge')
    .description('Combine the report.json files of shards into one report.')
    .argument('<reports...>', 'report.json files or output folders')
    .requiredOption('--out <dir>', 'folder for the merged report.json, report.md and junit.xml')
    .action(on('report-merge'));

  const auth = program
    .command('auth')
    .description("Check the credentials for DocuSign's JWT grant, or get the consent URL.");
  auth
    .command('check')
    .description(
      'Log in with the configured credentials and show who they are: user, account, API root and version, token expiry, rate limit left. No secret is shown.',
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(on('auth-check'));
  auth
    .command('consent-url')
    .description('Print the address where the user allows the integration key to act for them (once per user).')
    .option(
      '--redirect-uri <uri>',
      "where the browser goes after consent; one of the integration key's redirect URIs",
      'https://developers.docusign.com/platform/auth/consent',
    )
    .action(on('auth-consent-url'));
  const importer = program
    .command('import')
    .description('Bring what the service holds under version control as a job file.');
  importer
    .command('template')
    .description(
      'Write a job file with one `templates:` entry and its documents (under templates/<key>/) from a template of the configured account; `plan` of it then says no change.',
    )
    .argument('<template>', 'the templateId, or the exact name of the template')
    .option('--out <file>', 'job file to write (default: <key>.yaml in the current folder)')
    .option('--force', 'overwrite the job file and documents when they exist')
    .action(on('import-template'));
  importer
    .command('account')
    .description(
      'Write a job file whose `accounts:` entry describes an account as it is (permission profiles, groups, users, brands with their logos under brands/<brand>/, Connect configurations, and its templates under templates/<key>/); `plan` of it then says no change.',
    )
    .argument(
      '[account]',
      'the accountId, or the exact name, of an account the credentials reach (default: the configured account)',
    )
    .option('--out <file>', 'job file to write (default: <key>.yaml in the current folder)')
    .option(
      '--organization <id>',
      "the account is one of this DocuSign organisation's (Admin API): the entry gets organizationId and its settings",
    )
    .option('--force', 'overwrite the job file, documents and logos when they exist')
    .action(on('import-account'));
  const links = program
    .command('links')
    .description('Stable signing links: each opening asks the service for a fresh signing address (docs/links.md).');
  const linksAction =
    (action: 'serve' | 'list') =>
    (...all: unknown[]) => {
      const cmd = all[all.length - 1] as Command;
      const paths = Array.isArray(all[0]) ? (all[0] as string[]) : [];
      dispatch('links', commands.links, [action, paths], cmd.opts());
    };
  links
    .command('serve')
    .description("Answer every embedded recipient's stable link with a redirect to a fresh signing address.")
    .argument(
      '[paths...]',
      "job files of the runs: each envelope's returnUrl is taken from its job, not from signing.json",
    )
    .requiredOption('--out <dir>', 'output folder of the runs whose recipients get links')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', portNumber, 8090)
    .option('--base-url <url>', 'public address of this server, e.g. behind a reverse proxy (default http://HOST:PORT)')
    .action(linksAction('serve'));
  links
    .command('list')
    .description("Print every embedded recipient's stable link (giving links to recipients that have none yet).")
    .requiredOption('--out <dir>', 'output folder of the runs')
    .option('--host <host>', 'host the links server listens on', '127.0.0.1')
    .option('--port <port>', 'port the links server listens on', portNumber, 8090)
    .option('--base-url <url>', 'public address of the links server (as given to `links serve`)')
    .addOption(
      new Option(
        '--format <format>',
        'text: one line per recipient; csv: job, key, recipientId, clientUserId, name, email, link (for a mail merge)',
      )
        .choices(['text', 'csv'])
        .default('text'),
    )
    .action(linksAction('list'));

  return program;
}
