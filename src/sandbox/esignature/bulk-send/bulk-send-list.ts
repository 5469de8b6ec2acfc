import { apiErrors } from '../../platform/http/api-error.js';
import { hashPassword } from '../../platform/password-hash.js';
import type { BulkCopy, BulkCopyRecipient } from './repository.js';
import { bulkCopyRecipientFields } from '../../../envelope/bulk-send-copy.js';
import { camelCaseKeys } from '../envelopes/wire/camel-case-keys.js';
import { lenientArray, lenientObject, lenientString } from '../../platform/http/lenient.js';

/** DocuSign's limit of copies in one list and one batch (accountSettingsInformation.bulkSendMaxCopiesInBatch: 1,000). */
export const maxBulkCopies = 1000;

/**
 * Reads a bulk send list (`#/definitions/bulkSendingList`): its name and
 * copies, each copy's recipients (by recipientId or roleName, with name,
 * email, clientUserId, accessCode, host and tabs by label), custom fields,
 * subject and blurb. What the sandbox does not model is ignored, as
 * DocuSign ignores what it does not know.
 */
export async function parseBulkSendList(body: unknown): Promise<{ name: string; copies: BulkCopy[] }> {
  const list = lenientObject(camelCaseKeys(body), 'bulkSendingList');
  if (!list) throw apiErrors.invalidBody('Send a bulk send list as JSON.');
  const name = lenientString(list['name'], 'name');
  if (!name) throw apiErrors.invalidBody("'name' is required.");
  const raw = lenientArray(list['bulkCopies'], 'bulkCopies') ?? [];
  if (raw.length === 0) throw apiErrors.invalidBody("'bulkCopies' must list at least one copy.");
  if (raw.length > maxBulkCopies)
    throw apiErrors.invalidBody(`'bulkCopies' lists ${raw.length} copies; a list holds at most ${maxBulkCopies}.`);
  const copies = raw.map((c, i) => copyOf(c, `bulkCopies[${i}]`));
  // Access codes are hashed before the list is stored, as the envelope factory hashes an envelope's.
  for (const copy of copies)
    for (const r of copy.recipients) {
      const code = (r as { accessCode?: string }).accessCode;
      if (code === undefined) continue;
      delete (r as { accessCode?: string }).accessCode;
      r.accessCodeHash = await hashPassword(code);
    }
  return { name, copies };
}

function copyOf(value: unknown, where: string): BulkCopy {
  const copy = lenientObject(value, where) ?? {};
  const recipients = (lenientArray(copy['recipients'], `${where}.recipients`) ?? []).map((r, j) =>
    recipientOf(r, `${where}.recipients[${j}]`),
  );
  const customFields = (lenientArray(copy['customFields'], `${where}.customFields`) ?? []).map((f, j) => {
    const field = lenientObject(f, `${where}.customFields[${j}]`) ?? {};
    const name = lenientString(field['name'], 'name');
    if (!name) throw apiErrors.invalidBody(`${where}.customFields[${j}].name is required.`);
    return { name, value: lenientString(field['value'], 'value') ?? '' };
  });
  const out: BulkCopy = { recipients, customFields };
  const emailSubject = lenientString(copy['emailSubject'], 'emailSubject');
  const emailBlurb = lenientString(copy['emailBlurb'], 'emailBlurb');
  if (emailSubject !== undefined) out.emailSubject = emailSubject;
  if (emailBlurb !== undefined) out.emailBlurb = emailBlurb;
  return out;
}

function recipientOf(value: unknown, where: string): BulkCopyRecipient & { accessCode?: string } {
  const r = lenientObject(value, where) ?? {};
  const out: BulkCopyRecipient & { accessCode?: string } = {};
  for (const field of bulkCopyRecipientFields) {
    const text = lenientString(r[field], field);
    if (text !== undefined) out[field] = text;
  }
  if (out.recipientId === undefined && !out.roleName)
    throw apiErrors.invalidBody(`${where}: a recipient is named by recipientId or roleName.`);
  const tabs = lenientArray(r['tabs'], `${where}.tabs`);
  if (tabs)
    out.tabs = tabs.map((t, k) => {
      const tab = lenientObject(t, `${where}.tabs[${k}]`) ?? {};
      const tabLabel = lenientString(tab['tabLabel'], 'tabLabel');
      if (!tabLabel) throw apiErrors.invalidBody(`${where}.tabs[${k}].tabLabel is required.`);
      return { tabLabel, initialValue: lenientString(tab['initialValue'], 'initialValue') ?? '' };
    });
  return out;
}
