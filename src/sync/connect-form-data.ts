import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { recipientsByKind, type EnvelopeRecipients } from '../envelope/index.js';
import { writeFileAtomic } from '../output/atomic-write.js';
import type { FormDataJson } from '../output/records.js';
import { formDataOf } from './form-data.js';

/**
 * Where `signrun listen` keeps the form data of completed envelopes that
 * Connect brought, in the state folder: `<state>/connect-form-data/<envelopeId>.json`
 * (mode 0600 in a 0700 folder: the values are personal data).
 */
export const connectFormDataFolderName = 'connect-form-data';

/** An envelope id that may name a file: DocuSign's are GUIDs; never a path (no dot, no slash). */
const safeEnvelopeId = /^[0-9a-z][0-9a-z-]{0,63}$/;

/**
 * The form data of a Connect JSON message about a completed envelope whose
 * `data.envelopeSummary.recipients` carry their tabs (a configuration whose
 * `eventData.includeData` has `tabs`): the same {@link FormDataJson} that
 * `formDataOf` makes of `GET …/recipients?include_tabs=true`, read now.
 * Undefined for any other message — not completed, or recipients without
 * tabs (Connect was not asked for them: an absent `tabs` then says nothing
 * of the values, so nothing is kept and sync asks the service).
 */
export function connectFormDataOf(body: unknown, readAt: Date): FormDataJson | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const data = (body as { data?: { envelopeId?: unknown; envelopeSummary?: unknown } }).data;
  const summary = data?.envelopeSummary as { status?: unknown; recipients?: unknown } | undefined;
  if (typeof data?.envelopeId !== 'string' || typeof summary?.status !== 'string') return undefined;
  const envelopeId = data.envelopeId.toLowerCase();
  if (summary.status.toLowerCase() !== 'completed' || !safeEnvelopeId.test(envelopeId)) return undefined;
  if (summary.recipients === null || typeof summary.recipients !== 'object') return undefined;
  const recipients = summary.recipients as EnvelopeRecipients;
  const carriesTabs = recipientsByKind(recipients).some(
    ({ recipient }) => recipient.tabs !== null && typeof recipient.tabs === 'object',
  );
  return carriesTabs ? formDataOf(envelopeId, 'completed', readAt.toISOString(), recipients) : undefined;
}

function fileOf(stateDir: string, envelopeId: string): string | undefined {
  const id = envelopeId.toLowerCase();
  return safeEnvelopeId.test(id) ? path.join(stateDir, connectFormDataFolderName, `${id}.json`) : undefined;
}

/**
 * Writes one envelope's form data whole (temp file, fsync, rename; mode
 * 0600), replacing what an earlier message of the same envelope left: a
 * completed envelope's values do not change, and Connect may send a message
 * twice.
 */
export async function writeConnectFormData(stateDir: string, formData: FormDataJson): Promise<void> {
  const file = fileOf(stateDir, formData.envelopeId);
  if (file === undefined) throw new Error('not an envelope id');
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${JSON.stringify(formData, null, 2)}\n`, 0o600);
}

/** The envelope ids whose form data listen kept (none when the folder does not exist). */
export async function connectFormDataIds(stateDir: string): Promise<Set<string>> {
  const names = await readdir(path.join(stateDir, connectFormDataFolderName)).catch(() => [] as string[]);
  return new Set(
    names
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -'.json'.length))
      .filter((id) => safeEnvelopeId.test(id)),
  );
}

/**
 * The form data listen kept of an envelope; undefined when there is none or
 * it is not what listen writes (then sync asks the service, as without Connect).
 */
export async function readConnectFormData(stateDir: string, envelopeId: string): Promise<FormDataJson | undefined> {
  const file = fileOf(stateDir, envelopeId);
  if (file === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
  const f = parsed as Partial<FormDataJson> | null;
  if (
    f === null ||
    typeof f !== 'object' ||
    f.envelopeId !== envelopeId.toLowerCase() ||
    f.status !== 'completed' ||
    !Array.isArray(f.recipients)
  )
    return undefined;
  return f as FormDataJson;
}

/** Removes what listen kept of an envelope once its form-data.json is collected: the values are kept once. */
export async function removeConnectFormData(stateDir: string, envelopeId: string): Promise<void> {
  const file = fileOf(stateDir, envelopeId);
  if (file !== undefined) await rm(file, { force: true });
}
