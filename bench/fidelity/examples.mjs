// The eSignature examples of DocuSign's code-examples-node
// (lib/eSignature/controllers/egNNN*.js), in the order a person walks them in
// the examples' app, with what that person types into each example's form
// (views/pages/examples/egNNN*.ejs). Select boxes take the option the page
// would submit: the page's options come from the example's own form page
// (getController), as in the app. Every option of the permission-profile and
// brand lists is marked `selected`, so a browser submits the last one.
//
// `outOfScope` names what a local sandbox cannot offer; those examples are
// listed but not run.

const signer = { signerEmail: 'signer@example.com', signerName: 'Sam Signer' };
const cc = { ccEmail: 'cc@example.com', ccName: 'Cee Cee' };
const twoSigners = {
  signer1Email: 'signer1@example.com',
  signer1Name: 'Ann First',
  signer2Email: 'signer2@example.com',
  signer2Name: 'Bob Second',
};
const last = (list) => (Array.isArray(list) && list.length > 0 ? list[list.length - 1] : undefined);

/**
 * What the envelope an example made must look like when read back
 * (GET …/envelopes/{id}?include=recipients and …/workflow): each kind's
 * recipient statuses in order, and what the workflow must say. Returns what
 * differs, or undefined.
 */
const envelopeLike =
  (recipients, workflow = () => undefined) =>
  (read) => {
    // Delivered once a recipient has opened it (eg032's signer, on the signing page).
    if (read.status !== 'sent' && read.status !== 'delivered') return `the envelope is ${read.status}, not sent`;
    for (const [kind, statuses] of Object.entries(recipients)) {
      const got = read.recipients[kind] ?? [];
      if (JSON.stringify(got) !== JSON.stringify(statuses))
        return `its ${kind} are ${JSON.stringify(got)}, expected ${JSON.stringify(statuses)}`;
    }
    return workflow(read.workflow ?? {}, read);
  };

/** The first signer's tabs must hold these [collection, label, value] (value: what it holds or selects). */
const holding = (expected) => (_workflow, read) => {
  for (const [collection, label, value] of expected) {
    const found = (read.tabs?.[collection] ?? []).find(([l]) => l === label);
    if (!found || found[1] !== value)
      return `its signer's ${collection} ${label} holds ${JSON.stringify(found?.[1] ?? null)}, expected ${JSON.stringify(value)}`;
  }
  return undefined;
};
const signerSentCcWaiting = envelopeLike({ signers: ['sent'], carbonCopies: ['created'] });
/** eg002's and eg010's three documents (HTML, DOCX, PDF; eg010 sends them as multipart parts), in order. */
const threeDocuments = envelopeLike({ signers: ['sent'], carbonCopies: ['created'] }, (_w, read) => {
  const expected = ['Order acknowledgement', 'Battle Plan', 'Lorem Ipsum'];
  return JSON.stringify(read.documents) === JSON.stringify(expected)
    ? undefined
    : `its documents are ${JSON.stringify(read.documents)}, expected ${JSON.stringify(expected)}`;
});
const signerSent = envelopeLike({ signers: ['sent'] });
/** eg032's pause before routing order 2: nobody has signed, so it has not paused yet. */
const pauseBeforeTwo = envelopeLike({ signers: ['sent', 'created'] }, (w) => {
  const step = w.workflowSteps?.[0];
  if (
    w.workflowStatus !== 'in_progress' ||
    step?.action !== 'pause_before' ||
    step?.itemId !== '2' ||
    step?.status !== 'pending'
  )
    return `its workflow is ${JSON.stringify(w)}, expected a pending pause_before step at routing order 2`;
  return undefined;
});

/** A day after today, as an `<input type="date">` submits it (YYYY-MM-DD). */
const tomorrow = () => new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 10);

/**
 * @typedef {object} Example
 * @property {string} eg            egNNN
 * @property {string} controller    the controller's file name under lib/eSignature/controllers
 * @property {string} [outOfScope]  why a local sandbox does not serve it
 * @property {(ctx: object) => object} [body]  the form as submitted; ctx.form holds the form page's render locals, ctx.session the session
 * @property {Array<{name: string, body?: (ctx: object) => object}>} [steps]  controller functions after the form page (default: createController)
 * @property {string} [expect]      'done' (the example's results page), 'redirect' (to the sandbox), 'embed' (a page embedding a sandbox URL), 'document' (bytes streamed)
 * @property {string[]} [sets]      session keys the example must set
 * @property {string} [envelope]    the session key of an envelope it makes; the harness reads it back
 * @property {(read: object) => string | undefined} [check]  what that envelope must look like (envelopeLike)
 * @property {{signs: {email: string, name: string}, check: (read: object) => string | undefined}} [then]  a signer who signs after the example (on the signing page), and what the envelope must look like then
 * @property {Record<string, string[]>} [visibility]  the documents each recipient sees of the envelope its results page names
 */

/** @type {Example[]} */
export const examples = [
  { eg: 'eg001', controller: 'eg001EmbeddedSigning', body: () => ({ ...signer }), expect: 'redirect' },
  {
    eg: 'eg002',
    controller: 'eg002SigningViaEmail',
    body: () => ({ ...signer, ...cc }),
    expect: 'done',
    sets: ['envelopeId'],
    envelope: 'envelopeId',
    check: threeDocuments,
  },
  { eg: 'eg003', controller: 'eg003ListEnvelopes', expect: 'done' },
  { eg: 'eg004', controller: 'eg004EnvelopeInfo', expect: 'done' },
  { eg: 'eg005', controller: 'eg005EnvelopeRecipients', expect: 'done' },
  { eg: 'eg006', controller: 'eg006EnvelopeDocs', expect: 'done', sets: ['envelopeDocuments'] },
  {
    eg: 'eg007',
    controller: 'eg007EnvelopeGetDoc',
    // The form lists the envelope's documents (the session's, from eg006); the first is selected.
    body: ({ form }) => ({ docSelect: form.documentOptions?.[0]?.documentId }),
    expect: 'document',
  },
  { eg: 'eg008', controller: 'eg008CreateTemplate', expect: 'done', sets: ['templateId'] },
  {
    eg: 'eg009',
    controller: 'eg009UseTemplate',
    body: () => ({ ...signer, ...cc }),
    expect: 'done',
    sets: ['envelopeId'],
    envelope: 'envelopeId',
    check: signerSentCcWaiting,
  },
  {
    eg: 'eg010',
    controller: 'eg010SendBinaryDocs',
    body: () => ({ ...signer, ...cc }),
    expect: 'done',
    sets: ['envelopeId'],
    envelope: 'envelopeId',
    check: threeDocuments,
  },
  {
    eg: 'eg011',
    controller: 'eg011EmbeddedSending',
    body: () => ({ ...signer, ...cc, startingView: 'Tagger' }),
    expect: 'redirect',
  },
  { eg: 'eg012', controller: 'eg012EmbeddedConsole', body: () => ({ startingView: 'frontPage' }), expect: 'redirect' },
  {
    eg: 'eg013',
    controller: 'eg013AddDocToTemplate',
    body: () => ({ ...signer, ...cc, item: 'Avocados', quantity: '20' }),
    expect: 'redirect',
  },
  { eg: 'eg014', controller: 'eg014CollectPayment', outOfScope: 'a payment gateway' },
  { eg: 'eg015', controller: 'eg015EnvelopeTabData', expect: 'done' },
  {
    eg: 'eg016',
    controller: 'eg016SetTabValues',
    body: () => ({ ...signer }),
    expect: 'redirect',
    sets: ['envelopeId'],
    envelope: 'envelopeId',
    check: envelopeLike(
      { signers: ['sent'] },
      holding([
        ['textTabs', 'Legal name', 'Sam Signer'],
        ['textTabs', 'Familiar name', 'Sam Signer'],
        ['numericalTabs', 'Salary', '123000'],
      ]),
    ),
  },
  {
    eg: 'eg017',
    controller: 'eg017SetTemplateTabValues',
    body: () => ({ ...signer, ...cc }),
    expect: 'redirect',
    sets: ['envelopeId'],
    envelope: 'envelopeId',
    check: envelopeLike(
      { signers: ['sent'], carbonCopies: ['created'] },
      holding([
        ['textTabs', 'text', 'Jabberwocky!'],
        ['listTabs', 'list', 'green'],
        ['checkboxTabs', 'ckAgreement', 'true'],
        ['radioGroupTabs', 'radio1', 'white'],
      ]),
    ),
  },
  { eg: 'eg018', controller: 'eg018EnvelopeCustomFieldData', expect: 'done' },
  {
    eg: 'eg019',
    controller: 'eg019AccessCodeAuthentication',
    body: () => ({ ...signer, accessCode: 'nj9@d1' }),
    expect: 'done',
    sets: ['envelopeId'],
    envelope: 'envelopeId',
    check: signerSent,
  },
  { eg: 'eg020', controller: 'eg020PhoneAuthentication', outOfScope: 'phone authentication (IDV service)' },
  { eg: 'eg022', controller: 'eg022KbaAuthentication', outOfScope: 'knowledge-based authentication (KBA service)' },
  { eg: 'eg023', controller: 'eg023IdvAuthentication', outOfScope: 'ID verification (IDV service)' },
  {
    eg: 'eg024',
    controller: 'eg024CreatePermission',
    body: () => ({ profileName: 'Fidelity profile' }),
    expect: 'done',
  },
  {
    eg: 'eg025',
    controller: 'eg025PermissionSetUserGroup',
    body: ({ form }) => ({
      permissionProfileId: last(form.permissions)?.permissionProfileId,
      userGroupId: last(form.groups)?.groupId,
    }),
    expect: 'done',
  },
  {
    eg: 'eg026',
    controller: 'eg026PermissionChangeSingleSetting',
    body: ({ form }) => ({ profileId: last(form.profiles)?.permissionProfileId }),
    expect: 'done',
  },
  {
    eg: 'eg027',
    controller: 'eg027DeletePermission',
    body: ({ form }) => ({ profileId: last(form.profiles)?.permissionProfileId }),
    expect: 'done',
  },
  {
    eg: 'eg028',
    controller: 'eg028CreateBrand',
    body: () => ({ brandName: 'Fidelity brand', defaultBrandLanguage: 'en' }),
    expect: 'done',
    sets: ['brandId'],
  },
  {
    eg: 'eg029',
    controller: 'eg029ApplyBrandToEnvelope',
    body: ({ form }) => ({ ...signer, brandId: last(form.brands)?.brandId }),
    expect: 'done',
    sets: ['envelopeId'],
    envelope: 'envelopeId',
    check: signerSent,
  },
  {
    eg: 'eg030',
    controller: 'eg030ApplyBrandToTemplate',
    body: ({ form }) => ({ ...signer, ...cc, brandId: last(form.brands)?.brandId }),
    expect: 'done',
  },
  {
    eg: 'eg031',
    controller: 'eg031BulkSendEnvelope',
    body: () => ({
      signerEmail1: 'bulk1@example.com',
      signerName1: 'Bulk One',
      ccEmail1: 'bulkcc1@example.com',
      ccName1: 'Bulk Cc One',
      signerEmail2: 'bulk2@example.com',
      signerName2: 'Bulk Two',
      ccEmail2: 'bulkcc2@example.com',
      ccName2: 'Bulk Cc Two',
    }),
    expect: 'done',
  },
  {
    eg: 'eg032',
    controller: 'eg032PauseSignatureWorkflow',
    body: () => ({ ...twoSigners }),
    expect: 'done',
    sets: ['pausedEnvelopeId'],
    envelope: 'pausedEnvelopeId',
    check: pauseBeforeTwo,
    // The person signs in their email before running eg033: the envelope then pauses before order 2.
    then: {
      signs: { email: 'signer1@example.com', name: 'Ann First' },
      check: envelopeLike({ signers: ['completed', 'created'] }, (w) =>
        w.workflowStatus === 'paused' && w.workflowSteps?.[0]?.status === 'paused'
          ? undefined
          : `its workflow is ${JSON.stringify(w)}, expected paused at routing order 2`,
      ),
    },
  },
  {
    eg: 'eg033',
    controller: 'eg033UnpauseSignatureWorkflow',
    expect: 'done',
    envelope: 'pausedEnvelopeId',
    // On the wire its update is `PUT …/envelopes/{id}?resend_envelope=true` with the body `{}`:
    // docusign-esign's EnvelopesApi.update reads `opts.envelope`, and the example passes
    // `envelopeDefinition`, so its `workflow` is never sent. DocuSign documents only
    // `{"workflow":{"workflowStatus":"in_progress"}}` as unpausing; the envelope stays paused.
    // (test/sandbox/envelope-workflow.test.ts sends the documented body.)
    check: envelopeLike({ signers: ['completed', 'created'] }, (w) =>
      w.workflowStatus === 'paused' ? undefined : `its workflow is ${JSON.stringify(w)}, expected still paused`,
    ),
  },
  {
    eg: 'eg034',
    controller: 'eg034UseConditionalRecipients',
    body: () => ({
      signer1Email: 'signer1@example.com',
      signer1Name: 'Ann First',
      signer2aEmail: 'signer2a@example.com',
      signer2aName: 'Cat Conditional',
      signer2bEmail: 'signer2b@example.com',
      signer2bName: 'Dan Conditional',
    }),
    expect: 'done',
    sets: ['pausedEnvelopeId'],
  },
  {
    eg: 'eg035',
    controller: 'eg035ScheduledSending',
    body: () => ({ ...signer, resumeDate: tomorrow() }),
    expect: 'done',
    sets: ['envelopeId'],
    envelope: 'envelopeId',
    // Scheduled for tomorrow: nobody is sent anything yet.
    check: envelopeLike({ signers: ['created'] }, (w) =>
      w.scheduledSending?.status === 'started'
        ? undefined
        : `its scheduledSending is ${JSON.stringify(w.scheduledSending)}, expected started`,
    ),
  },
  {
    eg: 'eg036',
    controller: 'eg036DelayedRouting',
    body: () => ({ ...twoSigners, delay: '2' }),
    expect: 'done',
    sets: ['envelopeId'],
    envelope: 'envelopeId',
    // Routing order 2 waits for order 1, then two hours.
    check: envelopeLike({ signers: ['sent', 'created'] }, (w) =>
      w.workflowSteps?.[0]?.delayedRouting?.rules?.[0]?.delay === '0.2:00:00'
        ? undefined
        : `its workflow is ${JSON.stringify(w)}, expected a delayed routing of 0.2:00:00 before order 2`,
    ),
  },
  { eg: 'eg037', controller: 'eg037SmsDelivery', outOfScope: 'SMS and WhatsApp delivery' },
  { eg: 'eg038', controller: 'eg038ResponsiveSigning', body: () => ({ ...signer, ...cc }), expect: 'redirect' },
  { eg: 'eg039', controller: 'eg039SigningInPerson', body: () => ({ signerName: 'Ina Person' }), expect: 'redirect' },
  {
    eg: 'eg040',
    controller: 'eg040SetDocumentVisibility',
    body: () => ({ ...twoSigners, ...cc }),
    expect: 'done',
    // Signer 1 sees document 1, signer 2 documents 2 and 3, the carbon copy all three.
    visibility: { 1: ['1'], 2: ['2', '3'], 3: ['1', '2', '3'] },
  },
  {
    eg: 'eg041',
    controller: 'eg041CFREmbeddedSigning',
    outOfScope: 'CFR Part 11 (SMS authentication of a CFR account)',
  },
  {
    eg: 'eg042',
    controller: 'eg042DocumentGeneration',
    body: () => ({
      candidate_email: 'candidate@example.com',
      candidate_name: 'Cara Candidate',
      manager_name: 'Max Manager',
      job_title: 'Software Engineer',
      salary: '120000',
      rsus: '5000',
      start_date: tomorrow(),
    }),
    expect: 'done',
    sets: ['envelopeId'],
    envelope: 'envelopeId',
    // A template with the DOCX, a draft from it, its docGenFormFields read and set, then sent: the
    // signer's two anchored tabs are on the generated letter, the one document the template gave.
    check: envelopeLike({ signers: ['sent'] }, (_w, read) => {
      if (JSON.stringify(read.documents) !== JSON.stringify(['OfferLetterDemo.docx']))
        return `its documents are ${JSON.stringify(read.documents)}, expected ["OfferLetterDemo.docx"]`;
      const kinds = Object.keys(read.tabs ?? {}).sort();
      return JSON.stringify(kinds) === JSON.stringify(['dateSignedTabs', 'signHereTabs'])
        ? undefined
        : `its signer's tabs are ${JSON.stringify(kinds)}, expected dateSignedTabs and signHereTabs`;
    }),
  },
  {
    eg: 'eg043',
    controller: 'eg043SharedAccess',
    body: () => ({ email: 'agent@example.com', user_name: 'Agent Smith', activation: 'activation-1' }),
    // The app's four pages: the agent user, the authorization, the
    // principal's logout (to the envelopes page), then — logged in with JWT
    // as the agent (the user the example created) — the principal's envelopes,
    // listed on their behalf (X-DocuSign-Act-On-Behalf). Before the fourth,
    // the agent's first JWT login must lead to the consent page
    // (consent_required); the agent activates its membership from the
    // invitation in the outbox (the activation code the form gave, a password
    // it chooses), allows there, logs in.
    steps: [
      { name: 'createController' },
      { name: 'createAuthorizationController' },
      { name: 'reauthenticate', expect: 'redirect', url: 'eg043envelopes' },
    ],
    agentLogin: 'agentUserId',
    agentStep: 'listEnvelopes',
    // The principal has sent envelopes in the examples before: the list is not empty.
    agentShows: /^Principal's envelopes visible/,
    expect: 'done',
  },
  {
    eg: 'eg044',
    controller: 'eg044FocusedView',
    body: () => ({ ...signer }),
    expect: 'embed',
    sets: ['envelopeId'],
    envelope: 'envelopeId',
    check: signerSent,
  },
  {
    eg: 'eg045',
    controller: 'eg045DeleteRestoreEnvelope',
    form: 'getDeleteController',
    // The delete page is prefilled with the session's envelope; the restore page asks for a folder name.
    steps: [
      { name: 'deleteController', body: ({ form }) => ({ envelopeId: form.envelopeId }) },
      { name: 'restoreController', body: () => ({ folderName: 'Sent Items' }) },
    ],
    expect: 'done',
  },
  { eg: 'eg046', controller: 'eg046MultipleDelivery', outOfScope: 'SMS and WhatsApp delivery' },
];
