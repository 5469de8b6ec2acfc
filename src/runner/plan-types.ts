import type { ResolvedAccount, ResolvedEnvelope, ResolvedTemplate } from '../jobs/model.js';
import type { RateLimitInfo } from '../client/rate-limit.js';
import type { GroupWire, PermissionProfileWire, UserWire } from '../client/account-people.js';

/**
 * The steps a run can take for one envelope, in order. `draft`: create it as
 * a draft carrying its identity; `confirm`: ask the batched listing which
 * envelope of that identity is the earliest (the one that counts) and delete
 * the later drafts; `docgen`: set the draft's DocGen form fields (GET then
 * PUT …/docGenFormFields: DocuSign generates its Word letters); `send`: send the winning draft; `views`: one signing
 * address per embedded signer whose turn has come; `documents`,
 * `certificate`: download them (only with `documents: 'at-send'`).
 */
export const envelopeSteps = ['draft', 'confirm', 'docgen', 'send', 'views', 'documents', 'certificate'] as const;
export type EnvelopeStep = (typeof envelopeSteps)[number];

/**
 * What the plan decided for one envelope: the one decision a run executes
 * (nothing else decides). A discriminated union on `action`, so later issues
 * add theirs (`void`, `sync`, `collect` …) as new members.
 */
export type EnvelopeDecision =
  /** Neither the journal nor the service knows it: create it (as a draft, then confirm and send, when runners may race). */
  | { action: 'create' }
  /**
   * The service holds an envelope with this identity and the same content
   * that the journal does not know (a lost state folder, another checkout,
   * a runner racing this one): take it over. `draft`: it is still a draft,
   * so the run sends it (whoever sends it first, it is sent once).
   */
  | {
      action: 'adopt';
      envelopeId: string;
      draft: boolean;
      /** This run sent it, through Bulk Send (bulk-send-phase.ts): recorded as created by the run, not found. */
      bulkSent?: true;
    }
  /** The journal knows it and some steps remain (a crash, an expired signing address, downloads). */
  | { action: 'resume'; envelopeId?: string }
  /** Every step is done and still valid. */
  | { action: 'up-to-date'; envelopeId: string }
  /** It was sent with other content: never sent again; reported (SR_ENVELOPE_DRIFT). */
  | { action: 'drift'; envelopeId: string; sentDigest: string }
  /**
   * Issue 12. Completed, declined or voided (as the last sync recorded), or
   * declared voided and never sent: nothing more happens to it (no signing
   * address, no failure). `status` is the service's word, or `not sent`.
   */
  | { action: 'settled'; envelopeId?: string; status: string }
  /** Declared `status: voided` in its job file and not voided yet: the run voids it first (once). */
  | { action: 'void'; envelopeId: string; reason: string }
  /** Drifted, and the run was asked to `--replace-drifted`: voided with a reason, the new content sent under the same key. */
  | { action: 'replace'; envelopeId: string; sentDigest: string };

export type EnvelopeAction = EnvelopeDecision['action'];

/** What the plan decided for one subsidiary account. */
export type AccountDecision =
  /**
   * No id known: claim it (when runners may race), then create it; with
   * `organization`, through the organisation's Admin API instead
   * (organization/organization-accounts.ts).
   */
  | { action: 'create'; organization?: OrganizationProvision }
  /** Not in the journal, but a claim on the service names the account a run created: take it. */
  | { action: 'adopt'; accountId: string }
  /** Known (journal or job file) and present on the service. */
  | { action: 'up-to-date'; accountId: string }
  /** Known, and the service answers that it is gone: created again. */
  | { action: 'recreate'; accountId: string }
  /** `organizationId`: an organisation's account, closed as its administrator (organization/organization-accounts.ts). */
  | { action: 'delete'; accountId: string; organizationId?: string }
  /** Declared absent and no id known. */
  | { action: 'already-absent' };

export type AccountAction = AccountDecision['action'];

/** How an account entry with organizationId is provisioned by its organisation. */
export interface OrganizationProvision {
  /** Cloned from (an account entry's key, or an accountId); absent: created from the organisation's plan item. */
  cloneOf?: string;
  /** The organisation's creation or clone of it, still running (a run stopped while it ran): followed, never asked again. */
  follow?: { kind: 'create' | 'clone'; assetGroupId: string; workId: string };
}

/** One envelope of a plan: its decision, the steps a run takes for it and the API calls they cost. */
export interface EnvelopePlan {
  kind: 'envelope';
  job: string;
  key: string;
  /** `<job>/<key>`. */
  identity: string;
  decision: EnvelopeDecision;
  /** The steps a run takes, in order (empty: nothing to do). */
  steps: EnvelopeStep[];
  /** API calls those steps cost (a confirm counts 0: its listing is shared, see `Plan.listingCalls`). */
  apiCalls: number;
  /** The envelope as the job files resolve it; dropped by `planJobs` unless kept (the CLI's `plan` does not need it). */
  envelope?: ResolvedEnvelope;
  /** Sent by Bulk Send (`signrun plan --bulk-send`, or `bulkSend: true`): its draft and send are its batch's. */
  bulkSend?: true;
}

/** One account of a plan. */
export interface AccountPlan {
  kind: 'account';
  job: string;
  key: string;
  identity: string;
  decision: AccountDecision;
  apiCalls: number;
  account?: ResolvedAccount;
  /** What it keeps inside the account, each kind of the catalogue (resources/resource-kinds.ts); absent: the entry keeps none. */
  contents?: AccountContentsPlan;
}

/**
 * What is kept as code inside an account: the name of a kind of the
 * catalogue (resources/resource-kinds.ts, which lists them once, in the
 * order a run converges them; their union is its `ResourceKindName`). A
 * string here, not that union: the kinds' modules import this file, and a
 * new kind's items must type-check before `npm run docs:kinds` (which
 * builds first) has put its name in the catalogue.
 */
export type AccountItemKind = string;

/**
 * What the plan decided for one profile, group or user. `update.outside`:
 * the account differs from the file while the file is what signrun last
 * wrote (the journal's digest): someone changed it outside signrun, and the
 * run puts the file's version back.
 */
export type AccountItemAction = 'create' | 'update' | 'up-to-date' | 'delete' | 'already-absent';

export interface AccountItemPlan {
  kind: AccountItemKind;
  /** What names it in its account, as its kind says (a profile's or brand's name, a user's email, a template's key …). */
  name: string;
  /** `<job>/<key>#<kind>:<name, lower case>`: the journal's id of it. */
  identity: string;
  action: AccountItemAction;
  outside: boolean;
  /** What differs, account → file, in words (update). */
  differences: string[];
  /** Its id in the account (profile, group or user id), when it is there. */
  id?: string;
  /** Digest of the file's declaration of it. */
  digest: string;
  /** A template's copies of its identity beyond the one that counts (a race's, a lost answer's): deleted by the run. */
  duplicates?: string[];
}

/**
 * What the account holds, as the service lists it: its people (the three
 * name each other, so they are read together), and whatever else a kind of
 * the catalogue reads, each such field declared in its kind's own module
 * (`declare module '../plan-types.js'`: brands, Connect, settings, the
 * organisation's users), read only when the entry keeps some.
 */
export interface FoundPeople {
  profiles: PermissionProfileWire[];
  groups: GroupWire[];
  /** Open users (closed ones are not listed), each with their groups. */
  users: UserWire[];
}

/** What the plan decided for what an account entry keeps inside the account. */
export interface AccountContentsPlan {
  /** One per profile, group and user, in the order a run converges them. */
  items: AccountItemPlan[];
  /**
   * Why the account's people were not read (the account is to be created and
   * awaits activation; its user cannot log in yet): every item is `create`,
   * and a run after the activation converges them.
   */
  unread?: string;
  /** What the listings found (kept for the run, which converges from it). */
  found?: FoundPeople;
}

export type PlanItem = EnvelopePlan | AccountPlan;

/** What the plan decided for one template kept as code. */
export type TemplateDecision =
  /** The account has no template of this identity: create it (then confirm it is the earliest, when runners may race). */
  | { action: 'create' }
  /**
   * The account's template differs from the file: write the file's version.
   * `outside`: the account's template is not what signrun last wrote (someone
   * changed it outside signrun) while the file is; signrun puts the file's
   * version back.
   */
  | { action: 'update'; templateId: string; outside: boolean }
  /** The account's template is the file's. */
  | { action: 'up-to-date'; templateId: string }
  | { action: 'delete'; templateId: string }
  /** Declared absent, and the account has no template of this identity. */
  | { action: 'already-absent' };

export type TemplateAction = TemplateDecision['action'];

/** One template of a plan: its decision, what differs, the calls it costs. */
export interface TemplatePlan {
  kind: 'template';
  job: string;
  key: string;
  /** `<job>/<key>`. */
  identity: string;
  decision: TemplateDecision;
  /** What differs between the file and the account (update), in words; empty otherwise. */
  differences: string[];
  apiCalls: number;
  /** Templates of this identity beyond the one that counts (a race's or a crash's duplicates): deleted by the run. */
  duplicates: string[];
  template?: ResolvedTemplate;
}

/** When documents and certificates are downloaded. */
export type DocumentsWhen = 'at-send' | 'on-completion';

/** What a run will do: made by `planJobs`, executed by `runJobs`, printed by `signrun plan`. */
export interface Plan {
  items: PlanItem[];
  /** Templates kept as code, converged before any envelope starts (envelopes may use them). */
  templates: TemplatePlan[];
  /** `at-send`: downloaded right after sending; `on-completion`: later (signed copies), not by this run. */
  documents: DocumentsWhen;
  /**
   * True when another runner may work on the same service at the same time
   * (any service but this run's own in-process sandbox): envelopes are then
   * created as drafts and confirmed before they are sent.
   */
  arbitrate: boolean;
  /** Calls made once: login, template reads, and the listings the plan made. */
  runCalls: number;
  /** Status-changes listings made (or to make) to confirm drafts, estimated. */
  listingCalls: number;
  /** Calls of Bulk Send's lists, sends and batch looks (bulk-send-estimate.ts), when envelopes go that way. */
  bulkSendCalls?: number;
  totalApiCalls: number;
  /** What the service said of its hourly limit when the plan asked it (absent: offline, or no headers). */
  rateLimit?: RateLimitInfo;
}

/** DocuSign's default hourly API limit of an account (its API rules), when the service sends no X-RateLimit headers. */
export const defaultHourlyCalls = 3000;

/**
 * How long the plan's calls take at the account's hourly limit: within what
 * is left of this hour, or about `hours` hours (the first one what is left,
 * then a full limit each).
 */
export function callHours(plan: Pick<Plan, 'totalApiCalls' | 'rateLimit'>): {
  limit: number;
  remaining: number;
  hours: number;
  fitsNow: boolean;
  fromHeaders: boolean;
} {
  const limit = plan.rateLimit?.limit ?? defaultHourlyCalls;
  const remaining = Math.min(plan.rateLimit?.remaining ?? limit, limit);
  const calls = plan.totalApiCalls;
  const fitsNow = calls <= remaining;
  const hours = fitsNow ? 1 : 1 + Math.ceil((calls - remaining) / Math.max(limit, 1));
  return { limit, remaining, hours, fitsNow, fromHeaders: plan.rateLimit?.limit !== undefined };
}
