import type { ResolvedAccount, ResolvedEnvelope } from '../jobs/model.js';
import type { AccountProgress, EnvelopeProgress } from '../state/journal-progress.js';
import { claimIdentityOf, identityOf } from './identity.js';
import type {
  AccountDecision,
  AccountPlan,
  DocumentsWhen,
  EnvelopeDecision,
  EnvelopePlan,
  EnvelopeStep,
} from './plan-types.js';
import type { ServiceLedger } from './envelopes/service-ledger.js';
import { signersInTurn, viewKeyOf } from './envelopes/envelope-recipients.js';
import type { SigningUrls } from '../config/types.js';
import { isSettledEnvelope } from '../envelope/statuses.js';

/** A signing address with less than this left is asked for again. */
export const minViewLifeMs = 60_000;

/** What the decisions read besides the job: the journal, the service's listing, the run's settings. */
export interface DecisionSources {
  /** What the journal says of each identity (absent: no state folder). */
  journal?: { envelopes: Map<string, EnvelopeProgress>; accounts: Map<string, AccountProgress> };
  /** The service's listing (absent: offline, or a private in-process sandbox that starts empty). */
  ledger?: ServiceLedger;
  /** Whether another runner may race this one (drafts, then confirm). */
  arbitrate: boolean;
  documents: DocumentsWhen;
  now: Date;
  /** For accounts with a known id: does the service still have it? Absent: assumed present. */
  accountPresent?: Map<string, boolean>;
  /** `run --replace-drifted`: a drifted envelope is replaced instead of refused (issue 12). */
  replaceDrifted?: boolean;
  /** `on-demand`: the views step makes no call (signing.json lists the signers; addresses are made when they arrive). */
  signingUrls?: SigningUrls;
}

/**
 * The one decision for an envelope, and the steps and calls it takes — the
 * only place that decides (the run executes it; `signrun plan` prints it).
 * In order: the journal's `created` (the envelope this identity is), else
 * the service's listing (adopt the envelope that counts, or report drift),
 * else create.
 */
export function decideEnvelope(
  envelope: ResolvedEnvelope,
  sources: DecisionSources,
  /** Keep the envelope on the item (the run does: `PlanInputs.keepItems`). */
  keep = false,
): EnvelopePlan {
  const identity = identityOf(envelope);
  const journalled = sources.journal?.envelopes.get(identity);
  const callsOf = (steps: EnvelopeStep[], progress = journalled) =>
    steps.reduce((n, step) => n + callsOfStep(step, envelope, progress, sources), 0);
  // `otherCalls`: what is not a step of this envelope's pipeline (a void, made by the run's sync).
  // Literals, not a spread of shared fields: V8 gave each object spread and then added to (the
  // plan's `envelope`) a hidden class of its own, some 290 bytes an item at 100,000 rows; and the
  // kept envelope in the literal is in the object, not in a property array of its own (issue 37).
  const finish = (decision: EnvelopeDecision, steps: EnvelopeStep[], otherCalls = 0): EnvelopePlan => {
    const { job, key } = envelope;
    const apiCalls = otherCalls + callsOf(steps);
    return keep
      ? { kind: 'envelope', job, key, identity, decision, steps, apiCalls, envelope }
      : { kind: 'envelope', job, key, identity, decision, steps, apiCalls };
  };
  /**
   * The steps of an envelope the service does not have yet: a draft confirmed and sent when runners may
   * race. Word letters (DocuSign's Document Generation) always go as DocuSign's API takes them: a draft,
   * its form fields set, then sent.
   */
  const docGen = hasDocGenDocuments(envelope);
  const creation = (): EnvelopeStep[] => [
    ...(sources.arbitrate || docGen
      ? ([
          'draft',
          ...(sources.arbitrate ? (['confirm'] as const) : []),
          ...(docGen ? (['docgen'] as const) : []),
          ...(envelope.status === 'sent' ? (['send'] as const) : []),
        ] as const)
      : (['draft'] as const)),
    ...laterSteps(envelope, undefined, sources, false),
  ];
  // Voiding is one call (PUT …/envelopes/{envelopeId}, status voided), made by the run's sync.
  const voidCall = 1;

  const known = journalled?.created;
  if (known) {
    // Issue 12: what the last sync (or a void) recorded of this envelope.
    const recorded = journalled.status?.envelopeId === known.envelopeId.toLowerCase() ? journalled.status : undefined;
    const status = journalled.voided?.envelopeId === known.envelopeId.toLowerCase() ? 'voided' : recorded?.facts.status;
    if (known.digest !== envelope.digest && !isSettledEnvelope(status))
      return sources.replaceDrifted
        ? // The old one voided, then the new content sent under the same key, in the same run.
          finish(
            { action: 'replace', envelopeId: known.envelopeId, sentDigest: known.digest },
            [],
            voidCall + callsOf(creation(), undefined),
          )
        : finish({ action: 'drift', envelopeId: known.envelopeId, sentDigest: known.digest }, []);
    if (envelope.status === 'voided' && status !== 'voided' && !isSettledEnvelope(status))
      return finish(
        { action: 'void', envelopeId: known.envelopeId, reason: envelope.voidedReason ?? '' },
        [],
        voidCall,
      );
    if (isSettledEnvelope(status))
      return finish({ action: 'settled', envelopeId: known.envelopeId, status: status! }, []);
    if (known.digest !== envelope.digest)
      return finish({ action: 'drift', envelopeId: known.envelopeId, sentDigest: known.digest }, []);
    // A draft killed before its Word letters were generated (or sent): its form fields are set first.
    const letters = docGen && !journalled.sent && journalled.docGen?.envelopeId !== known.envelopeId.toLowerCase();
    const steps: EnvelopeStep[] = [
      // Drafts of this identity besides the one the journal knows: a create that committed after the
      // listing that confirmed it (DocuSign gives no bound on that). Deleted, never sent.
      ...(hasStrayDrafts(envelope, known.envelopeId, sources) ? (['confirm'] as const) : []),
      ...(letters ? (['docgen'] as const) : []),
      ...laterSteps(envelope, journalled, sources, !journalled.sent && envelope.status === 'sent'),
    ];
    return finish(
      steps.length === 0
        ? { action: 'up-to-date', envelopeId: known.envelopeId }
        : { action: 'resume', envelopeId: known.envelopeId },
      steps,
    );
  }
  const winner = sources.ledger?.winnerOf(identity);
  if (winner) {
    if (winner.digest !== undefined && winner.digest !== envelope.digest)
      return finish({ action: 'drift', envelopeId: winner.envelopeId, sentDigest: winner.digest }, []);
    const draft = winner.status === 'created';
    const losers = sources.ledger?.losersOf(identity, winner) ?? [];
    const steps: EnvelopeStep[] = [
      ...(losers.length > 0 ? (['confirm'] as const) : []),
      // A draft found on the service (a run killed before it was sent): its Word letters set, then sent.
      ...(draft && docGen ? (['docgen'] as const) : []),
      ...laterSteps(envelope, undefined, sources, draft && envelope.status === 'sent'),
    ];
    return finish({ action: 'adopt', envelopeId: winner.envelopeId, draft }, steps);
  }
  // Declared voided and never sent: it is not sent.
  if (envelope.status === 'voided') return finish({ action: 'settled', status: 'not sent' }, []);
  // A draft or an intent the journal knows but the listing does not show: it
  // was never made (or was deleted): create, as for a new one.
  return finish(journalled ? { action: 'resume' } : { action: 'create' }, creation());
}

/** The steps after the envelope exists: send, views not valid, downloads not journalled. */
function laterSteps(
  envelope: ResolvedEnvelope,
  journalled: EnvelopeProgress | undefined,
  sources: DecisionSources,
  send: boolean,
): EnvelopeStep[] {
  const steps: EnvelopeStep[] = send ? ['send'] : [];
  // Issue 12: an address an earlier run made is refreshed on demand
  // (`signrun sign-url`, when someone is about to sign), not by every run;
  // only a signer who never had one gets one.
  const stale = signersInTurn(envelope).some((s) => !journalled?.views.get(viewKeyOf(s)));
  if (stale) steps.push('views');
  if (sources.documents === 'at-send') {
    const documents = envelope.kind === 'documents' ? envelope.documents.length : 1;
    if ((journalled?.documents.size ?? 0) < documents) steps.push('documents');
    if (!journalled?.certificate) steps.push('certificate');
  }
  return steps;
}

/** API calls of one step. The confirm's listing is shared by the drafts of a batch: counted by the plan, not here. */
function callsOfStep(
  step: EnvelopeStep,
  envelope: ResolvedEnvelope,
  journalled: EnvelopeProgress | undefined,
  sources: DecisionSources,
): number {
  switch (step) {
    case 'draft':
    case 'send':
    case 'certificate':
      return 1;
    case 'docgen':
      // GET …/docGenFormFields (the documents' GUIDs), then PUT the values.
      return 2;
    case 'confirm':
      return sources.ledger && identityHasLosers(envelope, sources.ledger) ? 1 : 0;
    case 'views':
      return sources.signingUrls === 'on-demand' ? 0 : signersInTurn(envelope).length;
    case 'documents':
      // A template's documents are known only from the service's list.
      return envelope.kind !== 'documents'
        ? 2
        : envelope.documents.length - Math.min(journalled?.documents.size ?? 0, envelope.documents.length);
  }
}

/** Whether the envelope carries Word letters to generate (a document with `docGenFormFields`). */
export function hasDocGenDocuments(envelope: ResolvedEnvelope): boolean {
  return envelope.kind === 'documents' && envelope.documents.some((d) => d.docGenFormFields !== undefined);
}

/** The service's listing shows drafts of this identity that lost to `envelopeId`, the one that counts. */
function hasStrayDrafts(envelope: ResolvedEnvelope, envelopeId: string, sources: DecisionSources): boolean {
  const ledger = sources.ledger;
  if (!ledger) return false;
  const identity = identityOf(envelope);
  const winner = ledger.winnerOf(identity);
  return (
    winner !== undefined &&
    winner.envelopeId.toLowerCase() === envelopeId.toLowerCase() &&
    ledger.losersOf(identity, winner).length > 0
  );
}

function identityHasLosers(envelope: ResolvedEnvelope, ledger: ServiceLedger): boolean {
  const identity = identityOf(envelope);
  const winner = ledger.winnerOf(identity);
  return winner !== undefined && ledger.losersOf(identity, winner).length > 0;
}

/**
 * The one decision for a subsidiary account. Its id comes from the job file
 * or the journal (never from account.json: outputs are not inputs).
 */
export function decideAccount(account: ResolvedAccount, sources: DecisionSources): AccountPlan {
  const identity = identityOf(account);
  const journalled = sources.journal?.accounts.get(identity);
  const accountId = account.accountId ?? (journalled?.present ? journalled.accountId : undefined);
  const base = { kind: 'account' as const, job: account.job, key: account.key, identity };
  let decision: AccountDecision;
  let apiCalls: number;
  const claimed = sources.ledger?.winnerOf(claimIdentityOf(account.job, account.key))?.accountId;
  if (account.state === 'present') {
    if (!accountId && claimed) [decision, apiCalls] = [{ action: 'adopt', accountId: claimed }, 0];
    // Claim (a draft), create, note the account on the claim; directly when no runner can race.
    else if (!accountId) [decision, apiCalls] = [{ action: 'create' }, sources.arbitrate ? 3 : 1];
    else if (sources.accountPresent?.get(accountId) === false)
      [decision, apiCalls] = [{ action: 'recreate', accountId }, 1];
    else [decision, apiCalls] = [{ action: 'up-to-date', accountId }, 0];
  } else if (accountId ?? claimed) [decision, apiCalls] = [{ action: 'delete', accountId: (accountId ?? claimed)! }, 2];
  else [decision, apiCalls] = [{ action: 'already-absent' }, 0];
  return { ...base, decision, apiCalls };
}
