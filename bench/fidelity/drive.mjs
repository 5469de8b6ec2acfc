// Runs DocuSign's code-examples-node eSignature examples, unchanged, the way
// its web app runs them: its own JWT login (lib/DSJwtAuth.js), then for each
// example the form page (getController) and the form's submission
// (createController, or the example's own steps), with one session carried
// from example to example as the app's session does (eg002's envelope for
// eg003–eg007, eg008's template for eg009, eg032's paused envelope for eg033…).
//
// Started by run.mjs in the examples' folder with NODE_EXTRA_CA_CERTS set to
// the sandbox's CA. Environment: EXAMPLES_DIR, SANDBOX_ORIGIN, RESULTS_FILE,
// SEED_EMAIL, SEED_PASSWORD (the seed user's, for the consent page a person
// completes once). The examples print their own debug lines on stdout; the
// results go to RESULTS_FILE.

import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { examples as esignatureExamples } from './examples.mjs';
import { adminExamples } from './admin-examples.mjs';

const dir = process.env.EXAMPLES_DIR;
const origin = process.env.SANDBOX_ORIGIN;
const resultsFile = process.env.RESULTS_FILE;
// FIDELITY_API=admin: the Admin API examples (lib/admin), against the sandbox's /management.
const admin = process.env.FIDELITY_API === 'admin';
const examples = admin ? adminExamples : esignatureExamples;
const controllersDir = admin ? 'admin' : 'eSignature';
const fromExamples = createRequire(join(dir, 'package.json'));

// The examples' config has no setting for the account server: config/index.js
// derives dsOauthServer from `production` (account-d or account.docusign.com).
// The harness sets that field of the loaded config object; no file is edited.
const { config: dsConfig } = fromExamples('./config/index.js');
dsConfig.dsOauthServer = origin;
const DsJwtAuth = fromExamples('./lib/DSJwtAuth.js');
const localStorage = fromExamples('store2');

/**
 * The app fetches its texts (example names, result pages) from a manifest on
 * raw.githubusercontent.com; the controllers only read names and texts from
 * it, so a stand-in with the fields they read keeps them going offline.
 */
function manifest() {
  const example = (n) => ({
    ExampleNumber: n,
    ExampleName: `eg${String(n).padStart(3, '0')}`,
    ResultsPageText: 'done {0} {1} {2}',
    Forms: [{ Inputs: [] }],
    AdditionalPage: [
      'user_not_found',
      'authenticate_as_agent',
      'list_status_successful',
      'list_status_unsuccessful',
      'envelope_is_deleted',
      'folder_does_not_exist',
    ].map((Name) => ({ Name, ResultsPageText: `${Name} {0} {1} {2}` })),
  });
  return {
    APIs: ['eSignature', 'Admin'].map((Name) => ({
      Name,
      Groups: [{ Examples: Array.from({ length: 50 }, (_, i) => example(i + 1)) }],
    })),
    SupportingTexts: { HelpingTexts: { SubmitButtonDeleteText: 'Delete', SubmitButtonRestoreText: 'Restore' } },
  };
}
const appManifest = manifest();

/** Express's `res` as far as the controllers use it; records what they answer. */
function makeResponse() {
  const events = [];
  let settle;
  const answered = new Promise((resolve) => (settle = resolve));
  const chunks = [];
  const res = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(Buffer.from(chunk));
      cb();
    },
  });
  res.on('finish', () => {
    events.push({ kind: 'document', bytes: Buffer.concat(chunks) });
    settle();
  });
  res.locals = { manifest: appManifest, localStorage };
  res.render = (view, locals = {}) => {
    events.push({ kind: 'render', view, locals });
    settle();
  };
  res.redirect = (url) => {
    events.push({ kind: 'redirect', url });
    settle();
  };
  res.status = () => res;
  res.setHeader = (name, value) => events.push({ kind: 'header', name, value });
  return { res, events, answered };
}

/** The app's `req` for one page: the session and the user carried over, the form's body. */
function makeRequest(session, user, body) {
  const req = {
    session,
    user,
    body,
    flash: () => undefined,
    csrfToken: () => 'csrf',
    logout: (cb) => cb && cb(),
    login: (u, cb) => {
      req.user = u;
      cb();
    },
  };
  req.dsAuth = new DsJwtAuth(req);
  return req;
}

/** Calls one controller function as Express would, and waits for its answer (a page, a redirect, a document). */
async function callController(fn, req) {
  const { res, events, answered } = makeResponse();
  let thrown;
  const done = Promise.resolve()
    .then(() => fn(req, res))
    .catch((error) => {
      thrown = error;
    });
  await done;
  // A document is piped after the controller returns; wait for its end.
  if (events.length > 0 && events.every((e) => e.kind === 'header')) await answered;
  return { events, thrown };
}

/** The sign-in and Allow a person does on the account server's consent page. */
async function consent(url, email = process.env.SEED_EMAIL, password = process.env.SEED_PASSWORD) {
  const page = await fetch(url);
  const html = await page.text();
  const form = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(
      name,
      value
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    );
  form.set('email', email);
  form.set('password', password);
  form.set('decision', 'allow');
  const answer = await fetch(new URL('/oauth/auth', origin), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: (page.headers.get('set-cookie') ?? '').split(';')[0],
    },
    body: form,
  });
  const location = answer.headers.get('location') ?? '';
  if (!location.includes('code='))
    throw new Error(`the consent page answered ${answer.status} ${location}: ${(await answer.text()).slice(0, 300)}`);
}

/**
 * What the signer does between two examples (eg032, then eg033): opens the
 * signing link of the newest message to them in the sandbox's outbox and
 * signs on the signing page, as a person does in a browser (its form, its
 * CSRF token, its session cookie).
 */
async function signAsPerson(email, name) {
  const outbox = await (await fetch(`${origin}/sandbox/outbox?format=json`)).json();
  const message = outbox.messages.filter((m) => m.to === email && m.kind === 'envelope-notification').at(-1);
  if (!message) throw new Error(`no message to ${email} in the sandbox's outbox`);
  const opened = await fetch(message.links[0], { redirect: 'manual' });
  const page = opened.headers.get('location');
  const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0];
  if (!page) throw new Error(`the signing link answered ${opened.status}`);
  const html = await (await fetch(new URL(page, origin), { headers: { cookie } })).text();
  const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(html)?.[1];
  if (!csrfToken) throw new Error('the signing page has no form');
  const signed = await fetch(new URL(`${page}/sign`, origin), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin },
    body: new URLSearchParams({ csrfToken, placements: '', signatureName: name }),
  });
  if (signed.status >= 400)
    throw new Error(`signing answered ${signed.status}: ${(await signed.text()).slice(0, 200)}`);
}

/** One "Log in with JWT" (DsJwtAuth.login) for the config's impersonated user: where it leads, and the user. */
function loginOnce(session) {
  return new Promise((resolve, reject) => {
    // DsJwtAuth.login logs an API error other than consent_required (on
    // stdout) and answers nothing: a guard, not a wait.
    const guard = setTimeout(
      () => reject(new Error('the JWT login answered nothing (see its DsJwtAuth lines)')),
      30_000,
    );
    const req = makeRequest(session, undefined, {});
    const res = {
      redirect: (url) => {
        clearTimeout(guard);
        resolve({ url, user: req.user });
      },
    };
    try {
      req.dsAuth.login(req, res, (error) => {
        clearTimeout(guard);
        reject(error);
      });
    } catch (error) {
      clearTimeout(guard);
      reject(error);
    }
  });
}

/**
 * What a user added through the API does with the invitation in their mailbox
 * (the sandbox's outbox): opens the activation link and, on the page it
 * opens, gives the activation code they were told and, having no password
 * yet, chooses one.
 */
async function activateMembership(email, activationAccessCode, password) {
  const outbox = await (await fetch(`${origin}/sandbox/outbox?format=json&to=${encodeURIComponent(email)}`)).json();
  const message = outbox.messages.filter((m) => m.kind === 'user-activation').at(-1);
  if (!message) throw new Error(`no invitation to ${email} in the sandbox's outbox`);
  const page = await (await fetch(message.links[0])).text();
  if (!page.includes('name="password"') || !page.includes('name="activationAccessCode"'))
    throw new Error(`the activation page asks for no password or no code: ${page.slice(0, 200)}`);
  const sent = await fetch(message.links[0], {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ activationAccessCode, password }),
  });
  if (!sent.ok) throw new Error(`activating answered ${sent.status}: ${(await sent.text()).slice(0, 200)}`);
}

/** The app's "Log in with JWT": DsJwtAuth.login, redirecting to the consent page when consent is missing. */
async function login(session) {
  const attempt = () => loginOnce(session);
  let first = await attempt();
  const consented = first.url.startsWith(`${origin}/oauth/auth`);
  if (consented) {
    await consent(first.url);
    first = await attempt();
  }
  if (first.url !== '/') throw new Error(`the JWT login ended at ${first.url}`);
  return { user: first.user, consented };
}

/**
 * GET on the eSignature API with the session's token; the cheap read-back after an example.
 * The recipients' tabs come only with `include=tabs` (as at DocuSign: the Swagger's `include` lists them apart).
 */
async function readEnvelope(session, user, envelopeId) {
  const url = `${session.basePath}/v2.1/accounts/${session.accountId}/envelopes/${envelopeId}?include=recipients,tabs,documents`;
  const answer = await fetch(url, { headers: { authorization: `Bearer ${user.accessToken}` } });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) return { ok: false, status: answer.status, errorCode: body.errorCode, message: body.message };
  const recipients = body.recipients ?? {};
  // Each recipient's kind and status (signers: ['sent', 'created']).
  const statuses = Object.fromEntries(
    Object.entries(recipients)
      .filter(([, list]) => Array.isArray(list) && list.length > 0)
      .map(([kind, list]) => [kind, list.map((r) => r.status)]),
  );
  const workflowAnswer = await fetch(url.replace('?include=recipients,tabs,documents', '/workflow'), {
    headers: { authorization: `Bearer ${user.accessToken}` },
  });
  const workflow = workflowAnswer.ok ? await workflowAnswer.json() : { status: workflowAnswer.status };
  // The first signer's tabs by collection (label and value), and the envelope's text custom fields.
  const firstSigner = recipients.signers?.[0];
  const tabs = Object.fromEntries(
    Object.entries(firstSigner?.tabs ?? {}).map(([collection, list]) => [
      collection,
      list.map((t) => [
        t.tabLabel ?? t.groupName ?? '',
        t.radios
          ? (t.radios.find((r) => r.selected === 'true')?.value ?? '')
          : t.value || t.numericalValue || t.selected || '',
      ]),
    ]),
  );
  const customFields = Object.fromEntries((body.customFields?.textCustomFields ?? []).map((f) => [f.name, f.value]));
  const documents = (body.envelopeDocuments ?? []).filter((d) => d.type === 'content').map((d) => d.name);
  return { ok: true, status: body.status, recipients: statuses, documents, tabs, customFields, workflow };
}

/** What an answer means for the example: pass, or fail with the sandbox's error. */
function judge(example, { events, thrown }) {
  const first = events.find((e) => e.kind !== 'header');
  if (first?.kind === 'render' && first.view === 'pages/error') {
    const { err, errorCode, errorMessage } = first.locals;
    const status = err?.response?.status ?? err?.status;
    return {
      ok: false,
      reason: 'the example showed its error page',
      status,
      errorCode: errorCode ?? err?.response?.body?.errorCode ?? err?.response?.data?.errorCode,
      message: errorMessage ?? err?.response?.body?.message ?? err?.response?.data?.message ?? err?.message,
    };
  }
  if (thrown) {
    const stack = String(thrown?.stack ?? thrown);
    // A ReferenceError raised in the examples' own controller is a fault of
    // the example, not of the service: it fails the same against DocuSign.
    const own =
      thrown instanceof ReferenceError &&
      stack.split('\n')[1]?.includes(join(dir, 'lib', controllersDir, 'controllers'));
    return {
      ok: false,
      reason: own
        ? "the example's own controller fails after the API answered (it fails the same against DocuSign)"
        : 'the controller threw',
      cause: own ? 'example' : 'unknown',
      message: stack.split('\n').slice(0, 2).join(' '),
    };
  }
  if (!first) return { ok: false, reason: 'the controller answered nothing' };
  if (example.expect === 'done') {
    if (first.kind === 'render' && first.view === 'pages/example_done') {
      // What the example shows on its results page (its API answer, as JSON), kept short.
      const shown = typeof first.locals.json === 'string' ? first.locals.json : undefined;
      // The results page's message names the envelope of examples that keep it out of the session (eg040).
      const named = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.exec(
        String(first.locals.message ?? ''),
      );
      return {
        ok: true,
        page: first.view,
        ...(shown ? { shown: shown.length > 4000 ? `${shown.slice(0, 4000)}…` : shown } : {}),
        ...(named ? { envelopeId: named[0] } : {}),
      };
    }
  } else if (example.expect === 'redirect') {
    if (first.kind === 'redirect' && example.url !== undefined && first.url === example.url)
      return { ok: true, url: first.url };
    if (first.kind === 'redirect' && example.url === undefined && first.url.startsWith(origin))
      return { ok: true, url: new URL(first.url).pathname.split('/').slice(0, 2).join('/') };
  } else if (example.expect === 'page') {
    // A page of the example's own (eg004's status page).
    if (first.kind === 'render' && first.view === example.view) return { ok: true, page: first.view };
  } else if (example.expect === 'embed') {
    const url = first.locals?.url;
    if (first.kind === 'render' && typeof url === 'string' && url.startsWith(origin))
      return { ok: true, page: first.view };
  } else if (example.expect === 'document') {
    const doc = events.find((e) => e.kind === 'document');
    const type = events.find((e) => e.kind === 'header' && e.name === 'Content-Type')?.value;
    if (doc && doc.bytes.length > 0) return { ok: true, bytes: doc.bytes.length, contentType: type };
  }
  const seen =
    first.kind === 'render'
      ? `the page ${first.view}`
      : first.kind === 'redirect'
        ? `a redirect to ${first.url}`
        : first.kind;
  return { ok: false, reason: `expected ${example.expect}, the example answered ${seen}` };
}

async function main() {
  const session = {};
  const results = [];
  // What a results page showed that a person types into a later example's form (admin-examples.mjs).
  const memory = {};
  const { user, consented } = await login(session);
  const loginResult = { accountId: Boolean(session.accountId), basePath: session.basePath, consentPage: consented };
  process.stderr.write(
    `logged in with DsJwtAuth (${consented ? 'after the consent page' : 'consent already given'})\n`,
  );

  for (const example of examples) {
    if (example.outOfScope) {
      results.push({ eg: example.eg, controller: example.controller, result: 'out of scope', why: example.outOfScope });
      continue;
    }
    const controller = fromExamples(`./lib/${controllersDir}/controllers/${example.controller}.js`);
    if (example.session) Object.assign(session, example.session({ memory }));
    const before = { ...session };
    const record = { eg: example.eg, controller: example.controller };
    try {
      // The form page, as the app shows it (some read the account to fill their lists).
      const formPage = await callController(
        controller[example.form ?? 'getController'],
        makeRequest(session, user, {}),
      );
      const formRender = formPage.events.find((e) => e.kind === 'render');
      if (
        formPage.thrown ||
        !formRender ||
        formRender.view === 'pages/error' ||
        formRender.view === 'pages/invalid_with_cfr'
      ) {
        Object.assign(record, { result: 'fail', step: 'form page' }, judge({ expect: 'form' }, formPage));
        results.push(record);
        continue;
      }
      const form = formRender.locals;
      const steps = example.steps ?? [{ name: 'createController' }];
      let verdict;
      for (const step of steps) {
        const makeBody = step.body ?? example.body ?? (() => ({}));
        let answer = await callController(
          controller[step.name],
          makeRequest(session, user, makeBody({ form, session, memory })),
        );
        // A page a person reloads until it says what they wait for (eg004's import status), ten times at most.
        for (let tries = 1; step.until && tries < 10; tries++) {
          const locals = answer.events.find((e) => e.kind === 'render')?.locals ?? {};
          if (step.until(locals)) break;
          await new Promise((resolve) => setTimeout(resolve, 1000));
          answer = await callController(
            controller[step.name],
            makeRequest(session, user, makeBody({ form, session, memory })),
          );
        }
        // A step may expect its own answer (eg043's third page redirects to its fourth).
        verdict = judge({ ...example, expect: step.expect ?? example.expect, url: step.url, view: step.view }, answer);
        if (verdict.ok && step.until && !step.until(answer.events.find((e) => e.kind === 'render')?.locals ?? {}))
          Object.assign(verdict, { ok: false, reason: 'its page never said what the person waits for' });
        if (!verdict.ok) {
          verdict.step = step.name;
          break;
        }
      }
      if (verdict.ok && example.agentLogin) {
        // What the person does before eg043's fourth page: log in with JWT as the agent user the example
        // created (the config's impersonated user set to it, as the app's settings would be). The agent
        // has not consented to the integration key yet: the login must lead to the consent page.
        const impersonated = dsConfig.impersonatedUserGuid;
        dsConfig.impersonatedUserGuid = localStorage.get(example.agentLogin);
        try {
          const agentSession = {};
          const agent = await loginOnce(agentSession);
          verdict.agentLogin = agent.url.split('?')[0];
          if (!agent.url.startsWith(`${origin}/oauth/auth`))
            Object.assign(verdict, {
              ok: false,
              step: 'agent login',
              reason: `the agent's JWT login ended at ${agent.url}, expected the consent page`,
            });
          else {
            // The agent activates its membership (choosing its password), allows on the consent page, logs in.
            const { email, activation } = example.body({});
            const password = 'agent-password-1';
            await activateMembership(email, activation, password);
            await consent(agent.url, email, password);
            const again = await loginOnce(agentSession);
            if (again.url !== '/') throw new Error(`the agent's JWT login ended at ${again.url} after consent`);
            // The fourth page, as the agent: the principal's envelopes, on their behalf.
            const answer = await callController(
              controller[example.agentStep],
              makeRequest(agentSession, again.user, {}),
            );
            const listed = judge(example, answer);
            const title = answer.events.find((e) => e.kind === 'render')?.locals?.title;
            Object.assign(verdict, { agentPage: title });
            if (!listed.ok) Object.assign(verdict, listed, { step: example.agentStep });
            else if (!example.agentShows.test(String(title)))
              Object.assign(verdict, {
                ok: false,
                step: example.agentStep,
                reason: `its page says "${title}", expected ${example.agentShows}`,
              });
          }
        } catch (error) {
          Object.assign(verdict, { ok: false, step: 'agent login', reason: String(error?.message ?? error) });
        } finally {
          dsConfig.impersonatedUserGuid = impersonated;
        }
      }
      const { ok, ...detail } = verdict;
      Object.assign(record, { result: ok ? 'pass' : 'fail' }, detail);
      if (ok && example.remember && detail.shown) {
        try {
          example.remember(JSON.parse(detail.shown), memory);
        } catch {
          Object.assign(record, {
            result: 'fail',
            reason: 'its results page shows no JSON the next examples can read',
          });
        }
      }
      if (ok) {
        const missing = (example.sets ?? []).filter(
          (key) => session[key] === undefined || session[key] === before[key],
        );
        if (missing.length > 0)
          Object.assign(record, {
            result: 'fail',
            reason: `the example did not set the session's ${missing.join(', ')}`,
          });
      }
      if (record.result === 'pass' && example.visibility) {
        // Which documents each recipient sees (GET …/recipients/{id}/document_visibility).
        const seen = {};
        for (const recipientId of Object.keys(example.visibility)) {
          const url = `${session.basePath}/v2.1/accounts/${session.accountId}/envelopes/${record.envelopeId}/recipients/${recipientId}/document_visibility`;
          const answer = await fetch(url, { headers: { authorization: `Bearer ${user.accessToken}` } });
          const body = await answer.json().catch(() => ({}));
          seen[recipientId] = answer.ok
            ? (body.documentVisibility ?? []).filter((d) => d.visible === 'true').map((d) => d.documentId)
            : `${answer.status} ${body.errorCode ?? ''}`;
        }
        record.visibility = seen;
        if (JSON.stringify(seen) !== JSON.stringify(example.visibility))
          Object.assign(record, {
            result: 'fail',
            reason: `its recipients see ${JSON.stringify(seen)}, expected ${JSON.stringify(example.visibility)}`,
          });
      }
      if (record.result === 'pass' && example.envelope) {
        const read = await readEnvelope(session, user, session[example.envelope]);
        record.envelope = read;
        if (!read.ok) Object.assign(record, { result: 'fail', reason: 'its envelope could not be read back' });
        const differs = read.ok && example.check ? example.check(read) : undefined;
        if (differs) Object.assign(record, { result: 'fail', reason: `its envelope, read back: ${differs}` });
      }
    } catch (error) {
      Object.assign(record, {
        result: 'fail',
        reason: 'the harness could not run it',
        message: String(error?.message ?? error),
      });
    }
    if (record.result === 'pass' && example.then) {
      // What the person does before the next example, and what the envelope must look like after it.
      try {
        await signAsPerson(example.then.signs.email, example.then.signs.name);
        const read = await readEnvelope(session, user, session[example.envelope]);
        const differs = read.ok ? example.then.check(read) : `it could not be read back (${read.status})`;
        record.afterSigning = read;
        if (differs)
          Object.assign(record, { result: 'fail', reason: `after ${example.then.signs.email} signed: ${differs}` });
      } catch (error) {
        Object.assign(record, {
          result: 'fail',
          reason: 'the signer could not sign',
          message: String(error?.message ?? error),
        });
      }
    }
    process.stderr.write(
      `${record.eg} ${record.result}${record.result === 'fail' ? `: ${record.errorCode ?? ''} ${record.message ?? record.reason ?? ''}` : ''}\n`,
    );
    results.push(record);
  }
  writeFileSync(resultsFile, JSON.stringify({ login: loginResult, examples: results }, null, 2));
}

main().catch((error) => {
  const body = error?.response?.body ?? error?.response?.data;
  writeFileSync(
    resultsFile,
    JSON.stringify({ login: { error: String(error?.message ?? error), body }, examples: [] }, null, 2),
  );
  process.exitCode = 1;
});
