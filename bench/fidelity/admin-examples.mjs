// The Admin API examples of DocuSign's code-examples-node
// (lib/admin/controllers/egNNN*.js), in the app's order, with what a person
// types into each form (views/pages/admin-examples/egNNN*.ejs). Select boxes
// take the option the page would submit, from the example's own form page.
//
// `memory` carries what one example's results page showed to the next, as the
// person reads it off the page and types it in (eg001's new user, for eg006,
// eg007, eg010 and eg011).

const last = (list) => (Array.isArray(list) && list.length > 0 ? list[list.length - 1] : undefined);

/** The user eg001 adds: later examples look them up, change their profile and redact them. */
const newUser = {
  user_name: 'Ada Fidelity',
  first_name: 'Ada',
  last_name: 'Fidelity',
  email: 'ada.fidelity@example.com',
};

/** @type {import('./examples.mjs').Example[]} */
export const adminExamples = [
  {
    eg: 'eg001',
    controller: 'eg001CreateUser',
    // The form lists the account's permission profiles and groups (eSignature API); a browser submits the last of each.
    body: ({ form }) => ({
      ...newUser,
      permissionProfileId: last(form.permissionProfiles)?.permissionProfileId,
      groupId: last(form.groups)?.groupId,
    }),
    expect: 'done',
    remember: (shown, memory) => {
      memory.userId = shown.id;
      memory.email = shown.email;
    },
  },
  { eg: 'eg002', controller: 'eg002CreateCLMESignUser', outOfScope: 'CLM (DocuSign Contract Lifecycle Management)' },
  { eg: 'eg003', controller: 'eg003BulkExportUserData', expect: 'done' },
  {
    eg: 'eg004',
    controller: 'eg004ImportUser',
    // The import, then its status page; a person checks again until it says completed.
    steps: [
      { name: 'createController' },
      {
        name: 'checkStatus',
        expect: 'page',
        view: 'pages/admin-examples/eg004CheckStatus',
        until: (locals) => locals.status === 'completed',
      },
    ],
    expect: 'done',
    sets: ['importId'],
  },
  { eg: 'eg005', controller: 'eg005AuditUsers', expect: 'done' },
  {
    eg: 'eg006',
    controller: 'eg006GetUserProfileByEmail',
    body: ({ memory }) => ({ email: memory.email }),
    expect: 'done',
  },
  {
    eg: 'eg007',
    controller: 'eg007GetUserProfileByUserId',
    body: ({ memory }) => ({ userId: memory.userId }),
    expect: 'done',
  },
  {
    eg: 'eg008',
    controller: 'eg008UpdateUserProductPermissionProfile',
    // eg002 (out of scope) leaves its user's email in the session for eg008 and eg009: eg001's user stands in.
    session: ({ memory }) => ({ clmEmail: memory.email }),
    body: ({ form }) => ({
      productId: form.products?.find((p) => p.product_name === 'eSignature')?.product_id,
      eSignPermissionProfileId: last(form.eSignPermissionProfiles)?.permission_profile_id,
    }),
    expect: 'done',
  },
  {
    eg: 'eg009',
    controller: 'eg009DeleteUserProductPermissionProfile',
    session: ({ memory }) => ({ clmEmail: memory.email }),
    body: ({ form }) => ({ productId: form.permissionProfileList?.[0]?.productId }),
    expect: 'done',
  },
  {
    eg: 'eg010',
    controller: 'eg010DeleteUserDataFromOrganization',
    body: ({ memory }) => ({ email: memory.email }),
    expect: 'done',
  },
  {
    eg: 'eg011',
    controller: 'eg011DeleteUserDataFromAccount',
    body: ({ memory }) => ({ userId: memory.userId }),
    expect: 'done',
  },
  {
    eg: 'eg012',
    controller: 'eg012CloneAccount',
    // The form lists the organisation's accounts; the first is selected.
    body: ({ form }) => ({
      sourceAccountId: form.accounts?.[0]?.accountId,
      targetAccountName: 'Fidelity Clone',
      targetAccountFirstName: 'Cleo',
      targetAccountLastName: 'Clone',
      targetAccountEmail: 'cleo.clone@example.com',
    }),
    expect: 'done',
  },
  {
    eg: 'eg013',
    controller: 'eg013CreateAccount',
    body: () => ({ email: 'nora.new@example.com', firstName: 'Nora', lastName: 'New' }),
    expect: 'done',
  },
];
