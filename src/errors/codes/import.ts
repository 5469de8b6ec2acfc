import { defineCodes } from '../catalogue-entry.js';

/** Codes of `signrun import template`: a template of the service written as a job file. */
export const importCodes = defineCodes({
  SR_IMPORT_NO_SERVICE: {
    exitCode: 2,
    summary:
      'No service is configured to import from: without DOCUSIGN_ROOT_URL (or the JWT grant) signrun would use an empty in-process sandbox, which has no template of yours.',
    hint: 'Set DOCUSIGN_ROOT_URL and the credentials of the account that holds the template (docs/docusign.md), or point DOCUSIGN_ROOT_URL at a running `npx signrun serve`, then import again.',
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
    summary: 'The job file or a document the import would write already exists.',
    hint: 'Choose another job file with --out FILE, or overwrite with --force (the documents go under templates/<key>/ beside the job file). Nothing was written.',
  },
});
