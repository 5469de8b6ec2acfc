import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FileRecord } from './output-folder.js';
import type { EnvelopeFacts, RecipientFacts } from './status-fields.js';

/**
 * The per-envelope and per-account files of the output folder
 * (docs/outputs.md): their shapes (where they live: output-paths.ts).
 * `sign-url`, `plan` and a re-run read them back.
 */

/** `out/<job>/<key>/envelope.json`. */
export interface EnvelopeJson extends EnvelopeFacts {
  job: string;
  key: string;
  envelopeId: string;
  /** The status the service gave at creation (and later reads). */
  status?: string;
  /** Digest of the envelope's content when it was created (drift detection). */
  digest: string;
  transactionId: string;
  /** The service root it was created on. */
  rootUrl: string;
  /** True when a sandbox the run started in-process made it: the envelope ended with that run. */
  inProcessSandbox?: boolean;
  accountId: string;
  createdAt: string;
  updatedAt: string;
  recipients: RecipientRecord[];
  /** Downloaded documents and certificate, with size and sha256. */
  files: FileRecord[];
  // The status facts (status-fields.ts: when the status last changed, each stage's date, why) are written by `sync`.
  /** When `sync` last wrote this record. */
  syncedAt?: string;
  /** True once the completed documents and certificate (signed, sealed) replaced the ones of sending. */
  collected?: boolean;
  /** Earlier envelopes of this key, voided and replaced (`run --replace-drifted`). */
  replaced?: Array<{ envelopeId: string; voidedReason: string }>;
}

/** One recipient as the service listed it, with its status facts (status-fields.ts) once synced. */
export interface RecipientRecord extends RecipientFacts {
  recipientId: string;
  /** The recipient kind (`signer`, `carbonCopy`, `inPersonSigner`, …). */
  kind?: string;
  roleName?: string;
  userId?: string;
  status?: string;
}

/** `out/<job>/<key>/signing.json` (mode 0600: it holds signing addresses). */
export interface SigningJson {
  job: string;
  key: string;
  envelopeId: string;
  /** Where the signer is sent after signing; `sign-url` asks again with the same. */
  returnUrl: string;
  recipients: SigningEntry[];
}

/** A signing address, or why there is none yet. */
export interface SigningEntry {
  envelopeId: string;
  recipientId: string;
  clientUserId: string;
  /** For an in-person signer, the host's: the session is theirs. */
  email: string;
  /** For an in-person signer, the host's name (`signerName` is who signs). */
  userName: string;
  userId?: string;
  routingOrder?: string;
  /** The recipient kind when not a signer (`inPersonSigner`, `witness`, `certifiedDelivery`). */
  kind?: string;
  /** An in-person signer's name: who signs on the host's device. */
  signerName?: string;
  /**
   * `ready`: url is set; `on-demand`: their turn has come, and the address is
   * made when they arrive (`signrun links serve`, `signrun sign-url`);
   * `waiting-for-turn`: an earlier routing order must sign first (ask later
   * with `signrun sign-url`).
   */
  state: 'ready' | 'on-demand' | 'waiting-for-turn';
  url?: string;
  /** When the address stops working (it also works only once). */
  expiresAt?: string;
  issuedAt?: string;
  /** The stable link on `signrun links serve` that answers with a fresh address each time (docs/links.md). */
  link?: string;
}

/** `out/<job>/<key>/account.json` (no password, ever). */
export interface AccountJson {
  job: string;
  key: string;
  accountName: string;
  accountId: string;
  userId: string;
  rootUrl: string;
  state: 'awaiting-activation' | 'present' | 'deleted';
  createdAt?: string;
  deletedAt?: string;
}

/** `out/<job>/templates/<key>.json`: a template kept as code, in the account run against. */
export interface TemplateJson {
  job: string;
  key: string;
  name: string;
  templateId: string;
  rootUrl: string;
  state: 'present' | 'deleted';
  /** sha256 of the content written (the job file's), also on the template as a custom field. */
  digest?: string;
  /** What the last run did: created, updated, up-to-date, deleted. */
  lastAction: string;
  at: string;
}

// The old names collided with the journal's EnvelopeRecord/AccountRecord
// (src/state/journal-record.ts) and the sandbox's EnvelopeRecord (a database
// row). Kept only for the runner's pipelines, which are being rewritten: delete
// with their last use.
/** @deprecated Use {@link EnvelopeJson}. */
/** `out/<job>/<key>/form-data.json`: what a completed envelope's recipients entered (`sync`). */
export interface FormDataJson {
  envelopeId: string;
  /** The envelope's status when the values were read (completed). */
  status: string;
  /** When `sync` read them. */
  readAt: string;
  recipients: FormDataRecipient[];
}

/** One recipient of {@link FormDataJson} and its tabs, in the service's order. */
export interface FormDataRecipient {
  recipientId: string;
  /** The recipient kind (`signer`, `inPersonSigner`, …: src/envelope/recipient-kinds.ts). */
  kind: string;
  name?: string;
  email?: string;
  roleName?: string;
  tabs: FormDataTab[];
}

/** One tab: its label (a radio group's groupName), its kind (`text`, `checkbox`, …) and its final value. */
export interface FormDataTab {
  label: string;
  kind: string;
  /** The value as DocuSign's form data gives it ("X" for a ticked checkbox, a list's chosen value); "" for signatures. */
  value: string;
  /** A list's chosen item's text, when it differs from its value. */
  text?: string;
}

export type EnvelopeRecord = EnvelopeJson;
/** @deprecated Use {@link SigningJson}. */
export type SigningRecord = SigningJson;
/** @deprecated Use {@link AccountJson}. */
export type AccountRecord = AccountJson;

/**
 * The names in a folder of the output (`<job>`): an empty set when it does
 * not exist, undefined when it cannot be listed. Lets a command that would
 * read a record of every envelope skip the reads of folders that are not
 * there (a first run's sync: a failed open per envelope, issue 37).
 */
export async function folderEntries(root: string, relative: string): Promise<ReadonlySet<string> | undefined> {
  try {
    return new Set(await readdir(path.join(root, relative)));
  } catch (error) {
    return (error as { code?: string }).code === 'ENOENT' ? new Set() : undefined;
  }
}

/** Reads a JSON record; undefined when the file does not exist. */
export async function readRecord<T>(root: string, relative: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path.join(root, relative), 'utf8')) as T;
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}
