import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import type { OutputFolder } from '../output/output-folder.js';
import { readRecord, type SigningEntry, type SigningRecord } from '../output/records.js';
import { itemFile } from '../output/output-paths.js';

/**
 * `out/<job>/<key>/links.json` (mode 0600: its tokens open signing
 * sessions): the stable token of each embedded recipient of the envelope.
 * Written once per recipient and never changed, so a link handed out stays
 * the same across restarts of `signrun links serve` and re-runs.
 */
export interface LinksRecord {
  job: string;
  key: string;
  envelopeId: string;
  recipients: LinkToken[];
}

/** One recipient's token. */
export interface LinkToken {
  recipientId: string;
  clientUserId: string;
  /** 32 random bytes, base64url: unguessable. */
  token: string;
  createdAt: string;
}

/** What a token opens: an envelope folder and one recipient in it. */
export interface LinkTarget {
  /** `<job>/<key>`, relative to the output folder. */
  folder: string;
  job: string;
  key: string;
  recipientId: string;
  clientUserId: string;
}

/** A listed link, as `signrun links list` prints it. */
export interface ListedLink extends LinkTarget {
  token: string;
  link: string;
  userName: string;
  email: string;
}

/** Tokens are 43 base64url characters; anything else is refused before any lookup. */
export const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** The address of a token on the links server. */
export function linkOf(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/l/${token}`;
}

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function sameRecipient(a: { recipientId: string; clientUserId: string }, b: SigningEntry): boolean {
  return a.recipientId === b.recipientId && a.clientUserId === b.clientUserId;
}

async function folders(root: string): Promise<string[]> {
  const dirs = async (at: string) => {
    try {
      return (await readdir(at, { withFileTypes: true }))
        .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
        .map((d) => d.name)
        .sort();
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT' || (error as { code?: string }).code === 'ENOTDIR') return [];
      throw error;
    }
  };
  const found: string[] = [];
  for (const job of await dirs(root)) for (const key of await dirs(`${root}/${job}`)) found.push(`${job}/${key}`);
  return found;
}

/**
 * Gives every embedded recipient of every envelope in the output folder a
 * token (kept in links.json, 0600) and its `link` in signing.json (also
 * 0600, rewritten only when the link is missing or its base address
 * changed). Returns the links, in folder order.
 */
export async function ensureLinks(out: OutputFolder, baseUrl: string): Promise<ListedLink[]> {
  const listed: ListedLink[] = [];
  for (const folder of await folders(out.root)) {
    const signing = await readRecord<SigningRecord>(out.root, itemFile(folder, 'signing'));
    if (!signing || signing.recipients.length === 0) continue;
    const existing = await readRecord<LinksRecord>(out.root, itemFile(folder, 'links'));
    // A folder reused for a new envelope (another envelopeId) gets new tokens: old links must not open it.
    const kept = existing?.envelopeId === signing.envelopeId ? existing.recipients : [];
    const tokens = [...kept];
    for (const entry of signing.recipients) {
      if (!tokens.some((t) => sameRecipient(t, entry)))
        tokens.push({
          recipientId: entry.recipientId,
          clientUserId: entry.clientUserId,
          token: newToken(),
          createdAt: new Date().toISOString(),
        });
    }
    if (tokens.length !== kept.length || existing?.envelopeId !== signing.envelopeId) {
      const record: LinksRecord = {
        job: signing.job,
        key: signing.key,
        envelopeId: signing.envelopeId,
        recipients: tokens,
      };
      await out.writeJson(itemFile(folder, 'links'), record, { mode: 0o600 });
    }
    let changed = false;
    const recipients = signing.recipients.map((entry) => {
      const token = tokens.find((t) => sameRecipient(t, entry))?.token ?? '';
      const link = linkOf(baseUrl, token);
      listed.push({
        folder,
        job: signing.job,
        key: signing.key,
        recipientId: entry.recipientId,
        clientUserId: entry.clientUserId,
        token,
        userName: entry.userName,
        email: entry.email,
        link,
      });
      if (entry.link === link) return entry;
      changed = true;
      return { ...entry, link };
    });
    if (changed) await out.writeJson(itemFile(folder, 'signing'), { ...signing, recipients }, { mode: 0o600 });
  }
  return listed;
}

/** The token → recipient index the server answers from (tokens given where missing). */
export async function linkIndex(out: OutputFolder, baseUrl: string): Promise<Map<string, LinkTarget>> {
  const index = new Map<string, LinkTarget>();
  for (const l of await ensureLinks(out, baseUrl))
    index.set(l.token, {
      folder: l.folder,
      job: l.job,
      key: l.key,
      recipientId: l.recipientId,
      clientUserId: l.clientUserId,
    });
  return index;
}
