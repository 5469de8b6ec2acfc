import { defineCodes } from '../catalogue-entry.js';

/** Codes of `signrun import template` and `signrun import account`: what the service holds written as a job file. */
export const importCodes = defineCodes({
  SR_IMPORT_NO_SERVICE: {
    exitCode: 2,
    summary:
      'No service is configured to import from: without DOCUSIGN_ROOT_URL (or the JWT grant) signrun would use an empty in-process sandbox, which has no template or account of yours.',
    hint: 'Set DOCUSIGN_ROOT_URL and the credentials of the account that holds the template or that you import (docs/docusign.md), or point DOCUSIGN_ROOT_URL at a running `npx signrun serve`, then import again.',
  },
  SR_TEMPLATE_NOT_FOUND: {
    exitCode: 2,
    summary: 'The account has no template with that id, or none named exactly that.',
    hint: 'Check the id (DocuSign shows it in the template’s details) or the name: it must match exactly, case included; the message lists templates whose name holds the text given.',
  },
  SR_TEMPLATE_NAME_AMBIGUOUS: {
    exitCode: 2,
    summary: 'Several templates of the account have that name.',
    hint: 'Import by templateId instead: the message lists each template of that name with its id.',
  },
  SR_TEMPLATE_NOT_IMPORTABLE: {
    exitCode: 2,
    summary:
      'The template holds something a job file cannot say (a recipient without a role name, a kind of recipient or tab signrun does not model, text with `${`); managing it as code would lose it at the next update.',
    hint: 'The message lists what; change the template in DocuSign (or keep it outside signrun and use it by templateId), then import again. Nothing was written.',
  },
  SR_IMPORT_FILE_EXISTS: {
    exitCode: 2,
    summary: 'The job file, or a document or logo the import would write, already exists.',
    hint: 'Choose another job file with --out FILE (in a new folder), or overwrite with --force (documents go under templates/<key>/ and logos under brands/<brand>/ beside the job file). Nothing was written.',
  },
  SR_IMPORT_ACCOUNT_NOT_FOUND: {
    exitCode: 2,
    summary:
      'The configured credentials reach no account of that accountId or name (the accounts of their login: login_information, or userinfo with the JWT grant).',
    hint: 'The message lists the accounts these credentials reach, with their ids: import one of them, or log in as a user of the account to import (its userId as DOCUSIGN_USERNAME with its password, or as DOCUSIGN_USER_ID with the JWT grant), then run `npx signrun import account <accountId>` again.',
  },
  SR_IMPORT_ACCOUNT_CLOSED: {
    exitCode: 2,
    summary:
      'The organisation made that account (its creations and clones name it) but closed it: its asset-group accounts no longer list it.',
    hint: "A closed account cannot be imported; only DocuSign can reopen it. Keep its entry with `state: absent`, or import another of the organisation's accounts (the message lists them). Nothing was written.",
  },
  SR_IMPORT_ACCOUNT_AMBIGUOUS: {
    exitCode: 2,
    summary: 'Several accounts the credentials reach have that name.',
    hint: 'Import by accountId instead: the message lists each account of that name with its id.',
  },
  SR_IMPORT_PATH_OUTSIDE: {
    exitCode: 2,
    summary:
      "A file the import would write (a template's document, a brand's logo) falls outside the job file's folder.",
    hint: 'Nothing was written. Report it: names from the service are made into safe file names, so this points at a bug; meanwhile import into another folder with --out.',
  },
});
