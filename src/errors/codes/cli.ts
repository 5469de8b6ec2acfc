import { defineCodes } from '../catalogue-entry.js';

/** Codes of the command line itself. */
export const cliCodes = defineCodes({
  SR_USAGE: {
    exitCode: 2,
    summary: 'The command line is not valid: unknown option, missing argument or bad value.',
    hint: 'Run `npx signrun --help` or `npx signrun <command> --help` for the usage.',
  },
  SR_INTERNAL: {
    exitCode: 1,
    summary:
      'An unexpected internal error: a bug in signrun, or the machine ran out of memory. Its details (the stack trace) are written to a log file in the system temp folder, whose place the message gives.',
    hint: 'Run again with --debug (or SIGNRUN_DEBUG=1) to see the stack trace, and report it with the log file the message names.',
  },
  SR_INTERRUPTED: {
    exitCode: 130,
    summary: 'The run was interrupted (Ctrl-C or SIGTERM); work in flight was finished and the report written.',
    hint: 'Run the same command again to continue where it stopped.',
  },
  SR_ROOT_URL_MISSING: {
    exitCode: 2,
    summary:
      'Credentials are configured but no root URL: signrun sends credentials only to the service configured with them, never to an address read from an output folder (which anyone who can write there could change).',
    hint: 'Set DOCUSIGN_ROOT_URL (or rootUrl in the config file) to the service the envelope was sent to, e.g. `DOCUSIGN_ROOT_URL=https://demo.docusign.net/restapi/v2 npx signrun sign-url out <key>`.',
  },
  SR_LINKS_START: {
    exitCode: 2,
    summary: 'The links server (`signrun links serve`) could not listen (port in use, address not available).',
    hint: 'Choose another --port or --host, e.g. `npx signrun links serve --out out --port 0`.',
  },
  SR_LINKS_OTHER_SERVICE: {
    exitCode: 1,
    summary:
      "A link's envelope was created on another service than the configured one (DOCUSIGN_ROOT_URL): credentials go only to the configured service, so no signing address is asked for.",
    hint: 'Run `npx signrun links serve` with the DOCUSIGN_ROOT_URL (and credentials) of the runs whose --out folder it serves.',
  },
  SR_LINKS_RATE_LINK: {
    exitCode: 1,
    summary:
      'One link was opened more often than the links server makes new signing addresses for a link (each costs the account two API calls): the visitor was asked to come back later (429, Retry-After).',
    hint: 'Nothing to do for a person who reloads; a link opened in a loop is in link-openings.jsonl. The limits are in docs/links.md.',
  },
  SR_LINKS_RATE_SERVER: {
    exitCode: 1,
    summary:
      "The links server made as many signing addresses as it may in its window (so that link holders cannot spend the account's hourly API budget): openings wait.",
    hint: 'See link-openings.jsonl for which links were opened; the limits are in docs/links.md.',
  },
  SR_LINKS_RETURN_URL: {
    exitCode: 1,
    summary:
      'A link has no usable returnUrl: the job files given to `links serve` do not have its envelope, or signing.json holds an address that is not http(s).',
    hint: 'Give `npx signrun links serve` the job files of the runs (`npx signrun links serve examples --out out`): the returnUrl is then taken from the job, never from an output file.',
  },
});
