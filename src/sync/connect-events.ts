import { open, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Where `signrun listen` records the Connect events it accepted, in the state folder. */
export const connectEventsFileName = 'connect-events.jsonl';

/** One accepted Connect event, as recorded. */
export interface ConnectEventRecord {
  /** When it was received. */
  receivedAt: string;
  event: string;
  envelopeId: string;
  /** The envelope's status in the message's summary (or from the event's name). */
  status?: string;
  generatedDateTime?: string;
}

/** The record of a Connect JSON message; undefined when it is not one. */
export function connectEventOf(body: unknown, receivedAt: Date): ConnectEventRecord | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const m = body as {
    event?: unknown;
    generatedDateTime?: unknown;
    data?: { envelopeId?: unknown; envelopeSummary?: { status?: unknown } };
  };
  if (typeof m.event !== 'string' || typeof m.data?.envelopeId !== 'string') return undefined;
  const record: ConnectEventRecord = {
    receivedAt: receivedAt.toISOString(),
    event: m.event,
    envelopeId: m.data.envelopeId.toLowerCase(),
  };
  const summaryStatus = m.data.envelopeSummary?.status;
  const named = /^envelope-(sent|delivered|completed|declined|voided)$/.exec(m.event)?.[1];
  const status = typeof summaryStatus === 'string' ? summaryStatus.toLowerCase() : named;
  if (status !== undefined) record.status = status;
  if (typeof m.generatedDateTime === 'string') record.generatedDateTime = m.generatedDateTime;
  return record;
}

/** Appends one event and fsyncs it: acknowledged (200) only once on disk. */
export async function appendConnectEvent(stateDir: string, record: ConnectEventRecord): Promise<void> {
  const file = await open(path.join(stateDir, connectEventsFileName), 'a', 0o600);
  try {
    await file.appendFile(`${JSON.stringify(record)}\n`, 'utf8');
    await file.datasync();
  } finally {
    await file.close();
  }
}

/** The latest status each envelope's events gave (by envelopeId), with when it was generated. */
export async function latestConnectStatuses(stateDir: string): Promise<Map<string, { status: string; at: string }>> {
  const latest = new Map<string, { status: string; at: string }>();
  let text: string;
  try {
    text = await readFile(path.join(stateDir, connectEventsFileName), 'utf8');
  } catch {
    return latest;
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let r: ConnectEventRecord;
    try {
      r = JSON.parse(line) as ConnectEventRecord;
    } catch {
      continue; // a torn last line: its event was never acknowledged, Connect sends it again
    }
    if (!r.status) continue;
    const at = r.generatedDateTime ?? r.receivedAt;
    const prior = latest.get(r.envelopeId);
    if (!prior || prior.at <= at) latest.set(r.envelopeId, { status: r.status, at });
  }
  return latest;
}
