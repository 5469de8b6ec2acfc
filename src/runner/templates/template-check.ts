import { recipientsByKind, tabsByKind } from '../../envelope/wire.js';
import { labelMissingMessage, roleMissingMessage } from '../../envelope/template-roles.js';
import type { ResolvedEnvelope, ResolvedJob } from '../../jobs/model.js';
import type { AccountClient } from '../../client/esignature-client.js';
import { ClientHttpError } from '../../client/client-errors.js';
import type { ErrorCode } from '../../errors/catalogue.js';
import type { SourcePosition } from '../../jobs/model.js';
import { SignrunError } from '../../errors/signrun-error.js';

/** A plan-time finding: nothing is sent when there is one. */
export interface PreflightProblem {
  code: ErrorCode;
  message: string;
  source: SourcePosition;
}

/** What a template defines, as far as the runner needs it. */
export interface TemplateFacts {
  roleNames: string[];
  /** The tab labels of each role (a radio group by its groupName): what a role's tab can fill by label. */
  tabLabels: Map<string, Set<string>>;
}

/**
 * Reads every template the envelopes use, once each (service-api.md 4.12
 * sequence 2: read the template first), and checks that every roleName of
 * templateRoles exists in it, and that every tab a role fills by label (one
 * without a place of its own) has a tab of that label in the role: DocuSign
 * ignores a label it does not know, and the value would silently stay out. Returns the templates read and the problems;
 * the run refuses to start when there are problems.
 */
export async function checkTemplates(
  envelopes: Iterable<ResolvedEnvelope>,
  account: AccountClient,
  /** The role names of the job files' templates, by `<job>/<key>`: a composite envelope's roles may be theirs. */
  defined: ReadonlyMap<string, string[]> = new Map(),
): Promise<{ templates: Map<string, TemplateFacts>; problems: PreflightProblem[] }> {
  const templates = new Map<string, TemplateFacts | ClientHttpError | Error>();
  const problems: PreflightProblem[] = [];
  const reported = new Set<string>();
  const readOnce = async (id: string): Promise<TemplateFacts | Error> => {
    if (!templates.has(id)) templates.set(id, await factsOf(account, id));
    return templates.get(id)!;
  };
  for (const envelope of envelopes) {
    if (envelope.kind === 'composite') {
      problems.push(...(await compositeProblems(envelope, readOnce, defined, reported)));
      continue;
    }
    // A template of the job file (`template: <key>`) was checked offline, against its definition.
    if (envelope.kind !== 'template' || !envelope.templateId || envelope.templateKey !== undefined) continue;
    const id = envelope.templateId;
    const facts = await readOnce(id);
    if (facts instanceof Error) {
      // One problem per template and file/line, not one per forEach row.
      const where = `${id}@${envelope.source.file}:${envelope.source.line}`;
      if (!reported.has(where)) {
        reported.add(where);
        problems.push({
          code: 'SR_TEMPLATE_UNREADABLE',
          message: `template ${id} could not be read: ${facts.message}`,
          source: envelope.source,
        });
      }
      continue;
    }
    if (!facts) continue;
    for (const role of envelope.templateRoles) {
      if (role.roleName !== undefined && facts.roleNames.includes(role.roleName)) {
        const labels = facts.tabLabels.get(role.roleName) ?? new Set<string>();
        for (const tab of role.tabs) {
          const label = tab.fields?.['tabLabel'] ?? tab.fields?.['groupName'];
          if (tab.place !== undefined || tab.radios !== undefined || label === undefined || labels.has(label)) continue;
          const where = `${id}/${role.roleName}/${label}@${envelope.source.file}:${envelope.source.line}`;
          if (reported.has(where)) continue;
          reported.add(where);
          problems.push({
            code: 'SR_TEMPLATE_TAB_LABEL_MISSING',
            message: labelMissingMessage(role.roleName, id, label, labels),
            source: envelope.source,
          });
        }
        continue;
      }
      if (role.roleName === undefined) continue;
      const where = `${id}/${role.roleName}@${envelope.source.file}:${envelope.source.line}`;
      if (reported.has(where)) continue;
      reported.add(where);
      problems.push({
        code: 'SR_TEMPLATE_ROLE_MISSING',
        message: roleMissingMessage(role.roleName, id, facts.tabLabels),
        source: envelope.source,
      });
    }
  }
  const read = new Map<string, TemplateFacts>();
  for (const [id, facts] of templates) if (!(facts instanceof Error)) read.set(id, facts);
  return { templates: read, problems };
}

/** What a stored template defines, read once (GET …/templates/{id}); the error when it cannot be read. */
async function factsOf(account: AccountClient, id: string): Promise<TemplateFacts | Error> {
  try {
    const template = await account.getTemplate(id, { tag: 'templates' });
    const roles = recipientsByKind(template.recipients).filter(({ recipient }) => recipient.roleName);
    return {
      roleNames: roles.map(({ recipient }) => recipient.roleName!),
      tabLabels: new Map(
        roles.map(({ recipient }) => [
          recipient.roleName!,
          new Set(
            tabsByKind(recipient.tabs).flatMap(({ tab }) =>
              [tab.tabLabel, tab['groupName']].filter((l): l is string => typeof l === 'string'),
            ),
          ),
        ]),
      ),
    };
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * A composite envelope's stored templates: each readable, its role names
 * noted on its ref (where each templateRoles entry goes), and every
 * templateRoles roleName a role of one of the envelope's templates.
 */
async function compositeProblems(
  envelope: ResolvedEnvelope,
  read: (id: string) => Promise<TemplateFacts | Error>,
  defined: ReadonlyMap<string, string[]>,
  reported: Set<string>,
): Promise<PreflightProblem[]> {
  const problems: PreflightProblem[] = [];
  const once = (where: string, problem: PreflightProblem) => {
    if (reported.has(where)) return;
    reported.add(where);
    problems.push(problem);
  };
  const roles = new Set<string>();
  let known = true;
  for (const ref of envelope.templateRefs ?? []) {
    if (ref.key !== undefined) {
      const names = defined.get(`${envelope.job}/${ref.key}`);
      if (names) for (const n of names) roles.add(n);
      else known = false;
      continue;
    }
    if (!ref.templateId) continue;
    const facts = await read(ref.templateId);
    if (facts instanceof Error) {
      known = false;
      once(`${ref.templateId}@${envelope.source.file}:${envelope.source.line}`, {
        code: 'SR_TEMPLATE_UNREADABLE',
        message: `template ${ref.templateId} could not be read: ${facts.message}`,
        source: envelope.source,
      });
      continue;
    }
    ref.roleNames = facts.roleNames;
    for (const n of facts.roleNames) roles.add(n);
  }
  if (!known) return problems;
  for (const role of envelope.templateRoles)
    if (role.roleName !== undefined && !roles.has(role.roleName))
      once(`composite/${role.roleName}@${envelope.source.file}:${envelope.source.line}`, {
        code: 'SR_TEMPLATE_ROLE_MISSING',
        message: `roleName "${role.roleName}" is not a role of any of the envelope's templates; their roles are: ${[...roles].map((r) => `"${r}"`).join(', ') || '(none)'}`,
        source: envelope.source,
      });
  return problems;
}

/** The role names of the job files' templates kept as code, by `<job>/<key>`. */
export function definedRoles(jobs: readonly ResolvedJob[]): Map<string, string[]> {
  const roles = new Map<string, string[]>();
  for (const job of jobs)
    for (const t of job.templates ?? [])
      roles.set(
        `${t.job}/${t.key}`,
        t.recipients.flatMap((r) => (r.roleName !== undefined ? [r.roleName] : [])),
      );
  return roles;
}

/** Thrown before anything is sent when a plan-time check fails (exit 2). */
export class PreflightError extends SignrunError {
  readonly problems: PreflightProblem[];
  constructor(problems: PreflightProblem[]) {
    const first = problems[0];
    super(
      first?.code ?? 'SR_TEMPLATE_ROLE_MISSING',
      `${problems.length} problem(s) found before sending anything${first ? `: ${first.message}` : ''}`,
      {
        ...(first ? { location: first.source } : {}),
        details: { problems },
      },
    );
    this.name = 'PreflightError';
    this.problems = problems;
  }
}
