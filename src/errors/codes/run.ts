import { defineCodes } from '../catalogue-entry.js';

/** Codes for executing a plan: runner, journal, outputs, reports. */
export const runCodes = defineCodes({
  SR_ENVELOPE_FAILED: {
    exitCode: 1,
    summary: 'An envelope could not be completed.',
    hint: 'The report says which step failed and why; fix it and run again: finished steps are not repeated.',
  },
  SR_ENVELOPE_DRIFT: {
    exitCode: 1,
    summary: 'The envelope was already sent by an earlier run, and its content has changed since.',
    hint: 'A sent contract is never replaced silently: `npx signrun run <paths> --replace-drifted` voids the old one with a reason and sends the new content under the same key (`npx signrun plan <paths> --replace-drifted` shows which); or give the changed envelope a new key.',
  },
  SR_BULK_SEND_UNFIT: {
    exitCode: 2,
    summary:
      'An envelope marked for Bulk Send (`bulkSend: true`, or `run --bulk-send` for every forEach envelope) has rows that cannot be copies of one model: they differ in documents, recipients, tab places, unlabelled tab values or something else a bulk send list cannot change per copy, or the envelope uses several templates. Nothing was sent.',
    hint: "Bulk Send copies one draft and changes per row only recipients (name, email, clientUserId, access code), labelled tabs' values, custom field values, emailSubject and emailBlurb: give the tabs whose values differ a tabLabel, or send the envelope without bulkSend (`npx signrun run <paths>` without --bulk-send).",
  },
  SR_ACCOUNT_FAILED: {
    exitCode: 1,
    summary:
      'An account could not be created or deleted, or some of its permission profiles, groups or users could not be converged.',
    hint: 'The report says which call failed and the service errorCode; fix it and run again.',
  },
  SR_TEMPLATE_FAILED: {
    exitCode: 1,
    summary: 'A template kept as code could not be created, updated or deleted; envelopes that use it were not sent.',
    hint: 'The report says which call failed and the service errorCode; fix it and run again: the template is found by its identity, never made twice.',
  },
  SR_TEMPLATE_ROLE_MISSING: {
    exitCode: 2,
    summary: 'A templateRoles entry names a roleName that the stored template does not define.',
    hint: 'Use one of the roleNames the message lists (read from the template: its `templates:` entry, or the service for a templateId); nothing was sent.',
  },
  SR_TEMPLATE_TAB_LABEL_MISSING: {
    exitCode: 2,
    summary:
      "A template role's tab fills a tab by its tabLabel, and the stored template's role has no tab of that label (DocuSign would ignore the value).",
    hint: 'Use one of the labels the message lists (read from the template: its `templates:` entry, or the service for a templateId), or give the tab a place (anchorString, or pageNumber/xPosition/yPosition) to add it; nothing was sent.',
  },
  SR_BRAND_NOT_IN_ACCOUNT: {
    exitCode: 2,
    summary:
      'An envelope names by `brand:` a brand that the account it is sent from (the configured account signrun logs in to) does not have: found by `plan` and `run` before anything is sent.',
    hint: 'Envelopes are sent from the configured account: keep the brand there (an account entry for that account with its accountId and userId, converged by a run first), or give the `brandId` of a brand it has. Nothing was sent.',
  },
  SR_TEMPLATE_UNREADABLE: {
    exitCode: 2,
    summary: 'A template named by templateId could not be read from the service.',
    hint: 'Check the templateId against the templates of the account; nothing was sent.',
  },
  SR_CREDENTIALS_MISSING: {
    exitCode: 2,
    summary: 'A root URL is configured but the credentials to log in are not.',
    hint: "Set up DocuSign's JWT grant (DOCUSIGN_INTEGRATOR_KEY, DOCUSIGN_USER_ID, DOCUSIGN_PRIVATE_KEY_FILE, DOCUSIGN_OAUTH_BASE: docs/docusign.md), or DOCUSIGN_ACCESS_TOKEN, or for the sandbox DOCUSIGN_USERNAME/DOCUSIGN_PASSWORD/DOCUSIGN_INTEGRATOR_KEY (or unset DOCUSIGN_ROOT_URL to use the built-in sandbox).",
  },
  SR_DISTRIBUTOR_MISSING: {
    exitCode: 1,
    summary: 'An account must be created but no distributor code and password are configured.',
    hint: 'Set DOCUSIGN_DISTRIBUTOR_CODE and DOCUSIGN_DISTRIBUTOR_PASSWORD (or the config file fields).',
  },
  SR_ACCOUNT_IDS_UNKNOWN: {
    exitCode: 1,
    summary: 'An account with state: absent has a password but no known accountId/userId to log in with.',
    hint: 'Give accountId and userId in the job file, or keep the account.json written by the run that created it.',
  },
  SR_OUTPUT_OUTSIDE: {
    exitCode: 2,
    summary: 'A file would be written outside the output folder.',
    hint: 'Job and key names become folder names; remove `..` and path separators from them.',
  },
  SR_DOC_CHANGED: {
    exitCode: 1,
    summary:
      'A document file changed (or was replaced, by a link or another file) between validation and sending: its sha256 is not the one validated, so it was not sent.',
    hint: 'Leave the documents alone while a run is going; check what changed the file, then run again (the envelope is validated afresh).',
  },
  SR_OUTPUT_LINK: {
    exitCode: 2,
    summary:
      'A folder or file under the output folder (or the state folder in it) is a symbolic link: signrun writes only under the output folder, so it never follows or replaces a link there (the output folder itself may be one).',
    hint: 'Remove the link named in the message (and check who put it there), then run again.',
  },
  SR_OUTPUT_WRITE: {
    exitCode: 1,
    summary: 'An output file could not be written.',
    hint: 'Check free disk space and the permissions of the output folder.',
  },
  SR_OUTPUT_NOT_FOUND: {
    exitCode: 2,
    summary: 'The output folder or the envelope in it was not found.',
    hint: 'Give the --out folder of an earlier `npx signrun run` and a key listed in its report.json.',
  },
  SR_RECIPIENT_NOT_FOUND: {
    exitCode: 2,
    summary: 'No embedded recipient of that envelope matches the one asked for.',
    hint: 'Name the recipient by clientUserId, email, name or recipientId as listed in signing.json.',
  },
  SR_REPORT_INVALID: {
    exitCode: 2,
    summary: 'A report.json given to `report merge` is missing or does not match schemas/report.schema.json.',
    hint: 'Give report.json files (or output folders) written by `npx signrun run`.',
  },
  SR_CALL_BUDGET_SPENT: {
    exitCode: 1,
    summary:
      'The hourly call budget (--max-calls-per-hour, or what the service says is left this hour) could not cover more work: the run started nothing new and finished what was in flight.',
    hint: 'Run the same command again after the time report.json gives in callBudget.resumeAt: finished envelopes are skipped, the rest are sent. Or let one run wait for each next hour: `npx signrun run <paths> --spread-over-hours`.',
  },
  SR_STATE_LOCKED: {
    exitCode: 2,
    summary: 'Another run holds the lock of the state folder (one run per state folder, so no envelope is sent twice).',
    hint: 'Wait for the run named in the message to finish, or give this one another --state folder; nothing was sent.',
  },
  SR_STATE_OTHER_TARGET: {
    exitCode: 2,
    summary:
      'The state folder belongs to runs against another service; its journal speaks of envelopes that service holds.',
    hint: 'Give runs against this service their own --out (or --state) folder; nothing was sent.',
  },
});
