import { defineCodes } from '../catalogue-entry.js';

/** Codes for job files: loading, schema and semantic validation, expansion. */
export const jobCodes = defineCodes({
  SR_NO_JOB_FILES: {
    exitCode: 2,
    summary: 'No job file matched the paths or globs given.',
    hint: 'Check the paths; a folder is searched for *.yaml and *.yml files.',
  },
  // Reading and parsing
  SR_FILE_UNREADABLE: {
    exitCode: 2,
    summary: 'A job file or CSV file could not be read.',
    hint: 'Check that the file exists and that you may read it.',
  },
  SR_FILE_TOO_LARGE: {
    exitCode: 2,
    summary:
      'A job file is larger than 4 MiB, or a CSV file larger than 64 MiB (limits that keep validation fast and safe).',
    hint: 'Split the job into several files, or the CSV into several files each with its own forEach.',
  },
  SR_FILE_NOT_TEXT: {
    exitCode: 2,
    summary: 'A job file or CSV file is not UTF-8 text (binary content or invalid byte sequences).',
    hint: 'Save the file as UTF-8 text; check that the path names the YAML or CSV file you meant.',
  },
  SR_YAML_SYNTAX: {
    exitCode: 2,
    summary: 'The job file is not valid YAML.',
    hint: 'Fix the YAML at the line shown (indentation, a missing colon or quote are the usual causes).',
  },
  SR_YAML_DUPLICATE_KEY: {
    exitCode: 2,
    summary: 'A mapping in the job file has the same key twice; YAML would silently keep only one of them.',
    hint: 'Remove or rename one of the two keys.',
  },
  SR_YAML_ALIAS_LIMIT: {
    exitCode: 2,
    summary: 'The job file uses too many YAML aliases (*name); this is how "billion laughs" documents blow up.',
    hint: 'Write the values out, or use `defaults` for what several envelopes share.',
  },
  SR_YAML_TOO_DEEP: {
    exitCode: 2,
    summary: 'The job file is nested more deeply than any valid job file can be (64 levels).',
    hint: 'Check the indentation and the brackets around the line shown.',
  },
  SR_YAML_NOT_A_JOB: {
    exitCode: 2,
    summary: 'The YAML document is empty or is not a mapping (a job file starts with `version: 1`).',
    hint: 'Start the file with `version: 1` and `job: <name>`; see docs/job-files.md.',
  },
  // Schema
  SR_SCHEMA_REQUIRED: {
    exitCode: 2,
    summary: 'A required field is missing.',
    hint: 'Add the field named in the message; see docs/job-files.md.',
  },
  SR_SCHEMA_UNKNOWN_PROPERTY: {
    exitCode: 2,
    summary: 'A field is not part of the job-file schema (often a typo).',
    hint: 'Fix the spelling (the message suggests the closest field) or remove it.',
  },
  SR_SCHEMA_TYPE: {
    exitCode: 2,
    summary: 'A field has the wrong type (for example text where a number or a list is expected).',
    hint: 'Give the field a value of the type named in the message.',
  },
  SR_SCHEMA_ENUM: {
    exitCode: 2,
    summary: 'A field has a value outside its allowed list.',
    hint: 'Use one of the values listed in the message.',
  },
  SR_CUSTOM_FIELD_RESERVED: {
    exitCode: 2,
    summary:
      "A custom field name starts with `signrun`: those names are signrun's own (the envelope's identity and digest, by which a re-run finds and adopts what an earlier run sent), so a job must not set them.",
    hint: 'Rename the custom field (e.g. `payrollRef`); nothing was sent.',
  },
  SR_SCHEMA_VALUE: {
    exitCode: 2,
    summary: 'A field value breaks a rule of the schema (pattern, range, length, empty list, version).',
    hint: 'Change the value as the message says; see docs/job-files.md.',
  },
  // References
  SR_REFERENCE_INVALID: {
    exitCode: 2,
    summary: 'A `${...}` reference is malformed; only `${row.column}` and `${env.NAME}` exist.',
    hint: 'Write `${row.<column>}` inside a forEach envelope, or `${env.<NAME>}` for the environment.',
  },
  SR_ENV_NOT_SET: {
    exitCode: 2,
    summary:
      'A `${env.NAME}` reference names a variable that is neither in the environment nor in the .env file of the job folder.',
    hint: 'Export the variable, or add NAME=value to a .env file next to the job file (never commit real secrets).',
  },
  SR_ROW_COLUMN_MISSING: {
    exitCode: 2,
    summary: 'A `${row.column}` reference names a column the CSV (or an item of the inline list) does not have.',
    hint: 'Fix the column name, or add the column to the CSV header.',
  },
  SR_ROW_OUTSIDE_FOREACH: {
    exitCode: 2,
    summary: 'A `${row.column}` reference is used outside an envelope with forEach.',
    hint: 'Add `forEach: { csv: <file> }` to the envelope, or write the value out.',
  },
  SR_SECRET_OUTSIDE_CREDENTIAL: {
    exitCode: 2,
    summary:
      'A credential variable (`${env.DOCUSIGN_PASSWORD}`, an access token or private key, the distributor password, or a variable the job file uses as a password) is used in a field that is not a password: its value would reach the service, the reports, envelope.json and file names.',
    hint: 'Use credential variables only in initialUser.password; write the text you meant, or use another variable that holds no secret.',
  },
  SR_ACCESS_CODE_LITERAL: {
    exitCode: 2,
    summary:
      "A recipient's accessCode is written in the job file; access codes are secrets, only ever `${env.NAME}` references.",
    hint: 'Replace the value with `${env.NAME}` and set NAME in the environment (or a .env file kept out of git); tell the recipient the code another way.',
  },
  SR_PASSWORD_LITERAL: {
    exitCode: 2,
    summary: 'A password is written in the job file; passwords are only ever `${env.NAME}` references.',
    hint: 'Replace the value with `${env.NAME}` and set NAME in the environment (or a .env file kept out of git).',
  },
  // forEach and CSV
  SR_CSV_NOT_FOUND: {
    exitCode: 2,
    summary: 'The CSV file named by forEach does not exist.',
    hint: 'Check the path; it is relative to the job file.',
  },
  SR_CSV_OUTSIDE_JOB_FOLDER: {
    exitCode: 2,
    summary:
      "The CSV file named by forEach is outside the job file's folder (a ../ path or a symbolic link leading out).",
    hint: 'Move the CSV next to (or below) the job file.',
  },
  SR_CSV_INVALID: {
    exitCode: 2,
    summary: 'The CSV file cannot be parsed (unbalanced quotes, rows with a different number of cells, no header).',
    hint: 'Fix the CSV at the line shown; the first line must be the header with the column names.',
  },
  SR_CSV_TOO_MANY_ROWS: {
    exitCode: 2,
    summary: 'A forEach expands to more than 100,000 rows.',
    hint: 'Split the CSV into several files, each used by its own envelope with forEach (or its own job).',
  },
  SR_FOREACH_EMPTY: {
    exitCode: 2,
    summary: 'A forEach has no rows, so its envelope would produce nothing (warning).',
    hint: 'Add rows to the CSV or items to the list, or remove the envelope.',
  },
  // Uniqueness
  SR_JOB_NAME_DUPLICATE: {
    exitCode: 2,
    summary: 'Two job files use the same job name; (job, key) must identify an envelope forever.',
    hint: 'Rename one of the jobs.',
  },
  SR_JOB_EMPTY: {
    exitCode: 2,
    summary: 'The job has no envelopes, templates or accounts.',
    hint: 'Add `envelopes:`, `templates:` or `accounts:`, or delete the file.',
  },
  SR_DUPLICATE_ENVELOPE_KEY: {
    exitCode: 2,
    summary: 'Two envelopes of a job have the same key (after forEach expansion).',
    hint: 'Make keys unique; with forEach, put a unique column in the key, e.g. `key: renewal-${row.employeeId}`.',
  },
  SR_DUPLICATE_ACCOUNT_KEY: {
    exitCode: 2,
    summary: 'Two accounts of a job have the same key.',
    hint: 'Give each account its own key.',
  },
  SR_IDENTITY_TOO_LONG: {
    exitCode: 2,
    summary:
      "An envelope's, template's or account's identity (`<job>/<key>`) is longer than DocuSign lets a custom field value be (100 characters); signrun writes it in one, so DocuSign would refuse the item at send.",
    hint: 'Shorten the job name or the key (the message gives both lengths). Renaming a job or a key makes signrun treat its items as new: do it before the first run.',
  },
  SR_DUPLICATE_TEMPLATE_KEY: {
    exitCode: 2,
    summary: 'Two templates of a job have the same key.',
    hint: 'Give each template its own key: envelopes name a template by it (`template: <key>`).',
  },
  SR_TEMPLATE_ROLE_DUPLICATE: {
    exitCode: 2,
    summary: 'Two recipients of a template have the same roleName.',
    hint: 'Give each role its own roleName: envelopes fill a role by its name.',
  },
  SR_TEMPLATE_KEY_UNKNOWN: {
    exitCode: 2,
    summary:
      'An envelope names by `template:` a key that no template of its job file has (or one declared `state: absent`), or an account entry’s `templates:` names a key that no template of its job file has.',
    hint: 'Name the key of a template of the same file’s `templates:` (present, for an envelope), or give a stored template by `templateId`.',
  },
  SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT: {
    exitCode: 2,
    summary:
      'An envelope names (`template:` or `templates:`) a template of its job file that account entries list (`accounts[].templates`) but the entry of the account envelopes are sent from (the configured account signrun logs in to) does not: such a template is kept only in the accounts that list it. Found by `validate` when no listing entry can be the sending account (none has an accountId), else by `plan` and `run` before anything is sent. Nothing was sent.',
    hint: 'List the template on the sending account’s entry too (an entry with that account’s `accountId` and `userId`, `templates: [<key>]`), or remove it from the accounts’ `templates` lists to keep it in the configured account; then `npx signrun plan <paths>`.',
  },
  SR_DUPLICATE_DOCUMENT_ID: {
    exitCode: 2,
    summary: 'Two documents of an envelope have the same documentId.',
    hint: 'Give each document its own documentId, or leave documentId out to number them 1, 2, …',
  },
  SR_DUPLICATE_RECIPIENT_ID: {
    exitCode: 2,
    summary: 'Two recipients of an envelope have the same recipientId.',
    hint: 'Give each recipient its own recipientId, or leave recipientId out to number them 1, 2, …',
  },
  SR_RECIPIENT_NOT_EMBEDDABLE: {
    exitCode: 2,
    summary:
      'A recipient of a kind that DocuSign gives no signing address (a carbon copy, an editor, an agent, an intermediary) has a clientUserId.',
    hint: 'Remove clientUserId: such recipients are reached by email. Only signers, in-person signers, witnesses and certified deliveries may be embedded.',
  },
  SR_WITNESS_FOR_UNKNOWN: {
    exitCode: 2,
    summary: "A witness's witnessFor names no signer or in-person signer of the envelope.",
    hint: 'Set witnessFor to the recipientId of the signer the witness signs for (recipientIds are 1, 2, … in order unless given).',
  },
  SR_DUPLICATE_CLIENT_USER_ID: {
    exitCode: 2,
    summary: 'Two embedded recipients of an envelope have the same clientUserId.',
    hint: 'clientUserId identifies an embedded signer: give each one its own.',
  },
  // Envelope content
  SR_ENVELOPE_CONTENT_MISSING: {
    exitCode: 2,
    summary: 'An envelope has neither documents (with recipients) nor a templateId (with templateRoles).',
    hint: 'Add `documents` and `recipients`, or `templateId` and `templateRoles`.',
  },
  SR_DOCUMENTS_AND_TEMPLATE: {
    exitCode: 2,
    summary: 'An envelope mixes documents/recipients with templateId/templateRoles.',
    hint: 'Use either documents + recipients or templateId + templateRoles, not both.',
  },
  SR_RECIPIENTS_MISSING: {
    exitCode: 2,
    summary: 'An envelope has no recipients (signers for documents, templateRoles for a template).',
    hint: 'Add at least one recipient.',
  },
  SR_EMAIL_SUBJECT_MISSING: {
    exitCode: 2,
    summary: 'An envelope has no emailSubject, neither its own nor from `defaults`.',
    hint: 'Add `emailSubject` to the envelope or to `defaults`.',
  },
  SR_FIELD_TOO_LONG: {
    exitCode: 2,
    summary:
      "A text field is longer than DocuSign takes: emailSubject 100 characters, emailBlurb 10000, a recipient's name and email 100, note 1000, a custom field's value 100, a document's name 100.",
    hint: 'Shorten the value at the place shown (with forEach, the CSV cell); the limits are in docs/job-files.md.',
  },
  SR_EMAIL_INVALID: {
    exitCode: 2,
    summary: 'An email address is not valid.',
    hint: 'Fix the address (name@example.com); with forEach, fix the CSV cell shown.',
  },
  SR_VOIDED_REASON_MISSING: {
    exitCode: 2,
    summary:
      'An envelope has `status: voided` but no `voidedReason` (DocuSign requires one and shows it to the recipients).',
    hint: "Add `voidedReason: <why>` beside `status: voided`; with forEach, where the status comes from a CSV column, give voidedReason from one too (`voidedReason: ${row.<column>}`) and fill that row's cell.",
  },
  SR_URL_INVALID: {
    exitCode: 2,
    summary: 'A URL (returnUrl, eventNotification.url) is not an absolute http or https URL.',
    hint: 'Use a full address such as https://example.com/signing-done.',
  },
  SR_LANGUAGE_INVALID: {
    exitCode: 2,
    summary: 'supportedLanguage is not a language code the service knows.',
    hint: 'Use a code such as en, fr, de, es, it, nl, pt_BR (the message suggests the closest).',
  },
  SR_RETURN_URL_MISSING: {
    exitCode: 2,
    summary: 'An envelope has an embedded recipient (clientUserId) but no returnUrl to send the signer back to.',
    hint: 'Add `returnUrl` to the envelope or to `defaults`.',
  },
  // Documents and tabs
  SR_DOC_NOT_FOUND: {
    exitCode: 2,
    summary: 'A document file does not exist.',
    hint: 'Check the path; `file` is relative to the job file.',
  },
  SR_DOC_OUTSIDE_JOB_FOLDER: {
    exitCode: 2,
    summary:
      "A document file is outside the job file's folder (a ../ path, an absolute path or a symbolic link leading out).",
    hint: 'Move the PDF next to (or below) the job file and name it by a relative path.',
  },
  SR_DOC_INFLATE_LIMIT: {
    exitCode: 2,
    summary:
      'A document\'s compressed object or cross-reference streams inflate to more than 64 MiB while it is read: a real PDF needs a few MiB at most, a "zip bomb" would take all memory.',
    hint: 'Save the PDF again from a PDF tool (e.g. `qpdf --object-streams=disable in.pdf out.pdf`) and check where it came from.',
  },
  SR_DOC_NOT_PDF: {
    exitCode: 2,
    summary:
      'A document file is not a readable PDF, and its extension is not one of the kinds DocuSign converts that signrun reads (.docx, .html, .htm, .txt).',
    hint: 'Check that the file is a PDF (it starts with %PDF-) and opens in a PDF reader; a Word, HTML or text document needs its extension (.docx, .html, .htm, .txt).',
  },
  SR_DOC_NOT_CONVERTIBLE: {
    exitCode: 2,
    summary:
      "A DOCX, HTML or TXT document cannot be turned into the PDF rendition of its text that the service makes of it: it is not a readable file of its kind (a .docx that is not a Word document), or it goes past the converter's limits (2,000 pages, 2 million characters of text, a word of 10,000 characters, 20,000 paragraphs, 64 MiB unpacked or 10,000 parts in a .docx, 20 s).",
    hint: 'Open the file in the program that made it and save it again (or save it as a PDF and use that); split a very long document.',
  },
  SR_DOC_TOO_LARGE: {
    exitCode: 2,
    summary: 'A document file is larger than 25 MB, the largest document the eSignature service accepts.',
    hint: 'Compress the PDF or split it into several documents.',
  },
  SR_TAB_DOCUMENT_UNKNOWN: {
    exitCode: 2,
    summary: 'A tab names a documentId that the envelope does not have.',
    hint: 'Use the documentId of one of the envelope documents (1, 2, … in order when not given).',
  },
  SR_TAB_PAGE_OUT_OF_RANGE: {
    exitCode: 2,
    summary: 'A tab names a page that its PDF does not have.',
    hint: 'Use a pageNumber between 1 and the page count given in the message.',
  },
  SR_TAB_POSITION_OUTSIDE_PAGE: {
    exitCode: 2,
    summary: 'A tab position (xPosition, yPosition, in points from the top left) falls outside its page.',
    hint: 'Use coordinates inside the page size given in the message.',
  },
  SR_TAB_OFF_PAGE: {
    exitCode: 2,
    summary:
      "A tab's box (its width and height, or its kind's default size, from its position or its anchor's) runs off its page, though its corner is on it.",
    hint: 'Move the tab up or left (or its anchor offsets), or give it a smaller width/height.',
  },
  SR_ANCHOR_NOT_FOUND: {
    exitCode: 2,
    summary:
      "A tab's anchorString (after ${row.*} substitution) is in no document of its envelope: DocuSign would refuse the envelope, or with anchorIgnoreIfNotPresent leave the tab out.",
    hint: 'Fix the anchor text (case and spacing as in the PDF; check with pdftotext), or set `anchorIgnoreIfNotPresent: true` if the tab is optional.',
  },
  SR_DOCGEN_FIELD_MISSING: {
    exitCode: 2,
    summary:
      "A merge field of a Word document (DocuSign's Document Generation, `{{FieldName}}` in the DOCX) has no value in the document's `docGenFormFields`, or its value is empty (with forEach, the CSV cell): DocuSign would refuse to send the envelope.",
    hint: "Give the field a value under the document's `docGenFormFields` (or fill the CSV cell shown); the message names the fields the DOCX has.",
  },
  SR_DOCGEN_FIELD_UNKNOWN: {
    exitCode: 2,
    summary:
      "A document's `docGenFormFields` gives a value for a merge field the DOCX does not have (a typo, or a field removed from the Word template), or gives `docGenFormFields` to a document that is not a DOCX.",
    hint: 'Fix the field name (merge fields are `{{FieldName}}` in the DOCX; the message names those it has, and the closest), or remove the value.',
  },
  SR_ANCHOR_TOO_MANY: {
    exitCode: 2,
    summary:
      "A tab's anchorString is found more than 1,000 times in its envelope's documents: each occurrence would become a tab, and the sandbox refuses an anchor that makes more than 1,000 tabs; validate refuses it first, at the anchor's line.",
    hint: 'Use a longer, more distinctive anchor (e.g. `/sig1/` written in the document for the purpose), or `anchorMatchWholeWord: true`.',
  },
  SR_TAB_VALUE_INVALID: {
    exitCode: 2,
    summary:
      "A tab's value is one its kind cannot hold: not a number for a number tab, not a date for a date tab, not an option of the list, more than one radio or list item selected, longer than maxLength, or not matching validationPattern (or the pattern is not a regular expression); or a Date or Number merge field of `docGenFormFields` given a value that is no date or number.",
    hint: 'Fix the value (or the CSV cell it comes from) as the message says.',
  },
  SR_DOC_TEXT_LIMIT: {
    exitCode: 2,
    summary:
      "A document's text was not read to find anchors: it has more pages or text than validation reads (2,000 pages, 500,000 text runs, 20 s), so its anchors were not checked (a warning).",
    hint: 'Check the anchors of this document by hand, or split it; real contracts are far below these limits.',
  },
  // Accounts
  SR_ACCOUNT_FIELD_MISSING: {
    exitCode: 2,
    summary: 'An account with `state: present` lacks initialUser or planInformation, needed to create it.',
    hint: 'Add initialUser (with a `${env.*}` password) and planInformation.planId.',
  },
  SR_ACCOUNT_CLONE_UNKNOWN: {
    exitCode: 2,
    summary:
      "An account entry's `cloneOf` names no account: neither an account entry's key of the same job file with the same organizationId, nor an account of the organisation.",
    hint: "Give the key of another account entry of this organisation, or an accountId the organisation's asset-group accounts list.",
  },
  SR_ACCOUNT_SETTING_UNKNOWN: {
    exitCode: 2,
    summary:
      "An account entry's `settings` names a setting DocuSign's accountSettingsInformation does not have (the eSignature v2.1 Swagger's names).",
    hint: 'Use the name DocuSign gives it (the message suggests the nearest one), e.g. enableSequentialSigningAPI.',
  },
  SR_ACCOUNT_CLONE_CYCLE: {
    exitCode: 2,
    summary:
      "Account entries clone each other in a circle (`cloneOf`): none of them can be made first, since a clone's source is created before it.",
    hint: "Let one of them be created from the organisation's plan item (no cloneOf), or clone it from an accountId the organisation already has.",
  },
  SR_ORG_GROUP_UNSUPPORTED: {
    exitCode: 2,
    summary:
      "A group of an account with organizationId asks for what the organisation cannot keep: its groups are DocuSign's DS groups, kept by name through the Admin API, with no permission profile.",
    hint: "Leave permissionProfileName out of the organisation's account's groups (give the users their permission profile in organization.users instead), or keep the account without organizationId.",
  },
  SR_ORG_USER_ACCOUNT_UNKNOWN: {
    exitCode: 2,
    summary:
      'A user of `organization.users` (or of its CSV) is assigned to an account that is not in the organisation: no account entry of the job with this organizationId has that key.',
    hint: "Give the key of an account entry whose organizationId is the organization's id, or an accountId of the organisation.",
  },
  SR_ACCOUNT_NAME_DUPLICATE: {
    exitCode: 2,
    summary:
      'An account entry names the same permission profile, group (DocuSign keeps their names unique per account, ignoring case), user email, brand or Connect configuration (found by name, ignoring case) twice; or two account entries of one organisation have the same accountName, ignoring case (the organisation finds its accounts by name).',
    hint: 'Keep one entry per profile, group, user, brand, Connect configuration and organisation account: merge the two, or rename one.',
  },
  SR_ACCOUNT_NAME_UNKNOWN: {
    exitCode: 2,
    summary:
      'A group or user of an account entry names a permission profile or group that the entry does not define and DocuSign does not give every account (Account Administrator, DocuSign Sender, DocuSign Viewer; Administrators, Everyone).',
    hint: "Define it under the account's permissionProfiles or groups, or use one of the names the message lists.",
  },
  SR_BRAND_NAME_UNKNOWN: {
    exitCode: 2,
    summary:
      'An envelope (or `defaults`) names by `brand:` a brand that no account entry of its job file keeps (present) in its `brands:`.',
    hint: 'Name a brand of the file’s account entries by its brandName (case does not matter), or give DocuSign’s `brandId` instead.',
  },
  SR_BRAND_AND_BRAND_ID: {
    exitCode: 2,
    summary: 'An envelope (or `defaults`) gives both `brand` (a brand kept as code, by name) and `brandId`.',
    hint: 'Keep one of the two: `brand` for a brand of the repository, `brandId` for any brand of the sending account.',
  },
  SR_LOGO_NOT_FOUND: {
    exitCode: 2,
    summary: "A brand's logo file does not exist (or is not a file).",
    hint: 'Name the image by a path relative to the job file.',
  },
  SR_LOGO_OUTSIDE_JOB_FOLDER: {
    exitCode: 2,
    summary:
      "A brand's logo file is outside the job file's folder (a ../ path, an absolute path or a symbolic link leading out).",
    hint: 'Move the image next to (or below) the job file and name it by a relative path.',
  },
  SR_LOGO_NOT_IMAGE: {
    exitCode: 2,
    summary:
      "A brand's logo file is not a PNG, JPEG or GIF image (told by its first bytes, as DocuSign takes them), or is larger than 5 MB.",
    hint: 'Export the logo as a PNG, JPEG or GIF of a few hundred kilobytes at most.',
  },
});
