import type { OutputFolder } from '../output/output-folder.js';
import { readRecord, type EnvelopeRecord, type SigningRecord } from '../output/records.js';
import { itemFile } from '../output/output-paths.js';
import { ClientHttpError } from '../client/client-errors.js';
import { SignrunError } from '../errors/signrun-error.js';
import { freshRecipientView } from '../runner/envelopes/recipient-view.js';
import { isSettledEnvelope } from '../envelope/statuses.js';
import type { LinkTarget } from './link-store.js';
import type { Opening } from './openings-log.js';
import type { ServiceSessions } from './service-sessions.js';
import { notYetPage, settledPage, unavailablePage } from './link-pages.js';

const notInTurnCodes = /RECIPIENT_NOT_IN_SEQUENCE|OUT_OF_SEQUENCE|NOT_IN_SEQUENCE/;

/** What the server answers an opening with. */
export type LinkAnswer = (
  | { kind: 'redirect'; url: string; opening: Opening }
  | { kind: 'page'; status: number; title: string; body: string; opening: Opening }
) & {
  /** The service was asked (calls spent): counted against the rate of new signing addresses. */
  calledService?: boolean;
};

/**
 * Opens a link: an envelope already settled (envelope.json's status, as
 * `signrun sync` keeps it, or the service's own answer) gets a page saying
 * so; otherwise the service is asked for a fresh recipient view (DocuSign's
 * long-lived link pattern: the address is made when the person arrives,
 * never stored or mailed) and the person is redirected to it.
 */
export async function openLink(
  out: OutputFolder,
  target: LinkTarget,
  sessions: ServiceSessions,
  now: () => Date = () => new Date(),
  /** Where signers go after signing, by envelope folder, from the job files (`links serve <paths>`): signing.json's is then not used. */
  returnUrls?: ReadonlyMap<string, string>,
): Promise<LinkAnswer> {
  const base = { at: now().toISOString(), recipientId: target.recipientId, clientUserId: target.clientUserId };
  const settled = (status: string): LinkAnswer => ({
    kind: 'page',
    status: 200,
    ...settledPage(status),
    opening: { ...base, outcome: 'settled', status },
  });
  const unavailable = (code: string): LinkAnswer => ({
    kind: 'page',
    status: 503,
    ...unavailablePage,
    opening: { ...base, outcome: 'unavailable', code },
  });

  const envelope = await readRecord<EnvelopeRecord>(out.root, itemFile(target.folder, 'envelope'));
  const signing = await readRecord<SigningRecord>(out.root, itemFile(target.folder, 'signing'));
  const entry = signing?.recipients.find(
    (r) => r.recipientId === target.recipientId && r.clientUserId === target.clientUserId,
  );
  if (!envelope || !signing || !entry) return unavailable('SR_OUTPUT_NOT_FOUND');
  // The job's returnUrl when the server was given the job files; signing.json's (an output anyone with
  // the folder can edit) only when it was not, and only an http(s) address.
  const returnUrl = returnUrls?.get(target.folder) ?? (returnUrls ? undefined : signing.returnUrl);
  if (returnUrl === undefined || !/^https?:\/\//i.test(returnUrl)) return unavailable('SR_LINKS_RETURN_URL');
  if (envelope.status !== undefined && isSettledEnvelope(envelope.status)) return settled(envelope.status);

  try {
    return { ...(await askService()), calledService: true };
  } catch (error) {
    if (error instanceof ClientHttpError && notInTurnCodes.test(error.serviceErrorCode ?? ''))
      return {
        kind: 'page',
        status: 200,
        ...notYetPage,
        opening: { ...base, outcome: 'not-yet' },
        calledService: true,
      };
    if (error instanceof ClientHttpError)
      return { ...unavailable(error.serviceErrorCode ?? error.code), calledService: true };
    if (error instanceof SignrunError) return unavailable(error.code);
    throw error;
  }

  async function askService(): Promise<LinkAnswer> {
    const account = await sessions.accountFor(envelope!.rootUrl);
    // The recorded status may be old (no sync since): the service's is the truth.
    const current = await account.getEnvelope(envelope!.envelopeId);
    if (current.status !== undefined && isSettledEnvelope(current.status)) return settled(current.status);
    const view = await freshRecipientView(account, envelope!.envelopeId, returnUrl!, entry!);
    return { kind: 'redirect', url: view.url, opening: { ...base, outcome: 'redirected' } };
  }
}
