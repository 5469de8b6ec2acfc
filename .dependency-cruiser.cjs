// @ts-check
/**
 * The architecture of signrun, as rules `npm run lint` checks (dependency-cruiser).
 *
 * Layers, lowest first; a folder imports only from some of the layers listed
 * before it (and itself, Node's built-ins and its npm libraries):
 *
 *   src/errors, src/secret.ts   the catalogue of SR_* codes, SignrunError, Secret
 *   src/envelope                DocuSign's envelope model: wire types, the tab and recipient catalogues, statuses
 *   src/pdf                     text with positions (anchors) and drawing tabs, for validation, sandbox and preview
 *   src/sandbox                 the service (DocuSign's eSignature API, our own): the model, the PDF layer, errors
 *   src/client                  the HTTP client and the DocuSign knowledge table
 *   src/output                  the output folder's disk writer (atomic files, records, spool)
 *   src/jobs                    YAML job files → validated model (may check names against the disk writer's)
 *   src/config                  signrun's own configuration (YAML through src/jobs; the client's settings)
 *   src/state                   the journal, locks, exactly-once building blocks
 *   src/runner                  executes a plan; produces the run summary and its verdict
 *   src/sync                    brings earlier runs up to date (uses the runner's pieces), when present
 *   src/reporters               content from the summary: json, md, junit, console, progress
 *   src/links                   `signrun links serve`: stable signing links that ask the runner for fresh addresses
 *   src/preview                 `signrun preview`: every envelope drawn with its tabs, offline
 *   src/cli, src/index.ts       the command line and the library entry, on top
 *
 * Each rule below allows only layers listed above its own, so the order is
 * strict: no cycle between folders can pass. `no-circular` catches the cycles
 * inside a folder.
 */

/** Paths every layer may import: Node's built-ins and npm libraries are not layers. */
const outside = ['^node:', '^(?!src/)'];

/**
 * One rule per layer: files under `from` may import only `allowed` (plus
 * their own folder and `outside`).
 * @param {string} name
 * @param {string} comment
 * @param {string} from
 * @param {string[]} allowed
 * @returns {import('dependency-cruiser').IForbiddenRuleType}
 */
function layer(name, comment, from, allowed) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: `^${from}` },
    to: { pathNot: [`^${from}`, ...allowed, ...outside], dependencyTypesNot: ['core'] },
  };
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'Data flows one way: a module that (indirectly) imports itself cannot be understood, tested or ' +
        'moved alone, and a cycle across folders means two layers each depend on the other.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    layer(
      'errors-at-the-bottom',
      'Every layer builds its errors from the catalogue: the catalogue itself may depend on nothing of signrun, ' +
        'or an error could not be raised from the lowest layer.',
      'src/(errors/|secret\\.ts$)',
      ['^src/errors/', '^src/secret\\.ts$'],
    ),
    layer(
      'envelope-model-at-the-bottom',
      "DocuSign's envelope model (wire types, the catalogues of tab and recipient kinds, statuses) is shared by " +
        'the job loader, the client, the runner and the sandbox alike: it is DocuSign\'s, not any one of theirs, ' +
        'so it may depend on nothing of signrun but the errors.',
      'src/envelope/',
      ['^src/errors/'],
    ),
    layer(
      'pdf-below-its-users',
      'Finding text (anchors) and drawing tabs in a PDF is one layer, used by validation, the sandbox and the ' +
        'preview, so that a tab is drawn the same way wherever it is drawn; it knows the envelope model only.',
      'src/pdf/',
      ['^src/errors/', '^src/envelope/'],
    ),
    layer(
      'sandbox-imports-only-the-model',
      'The sandbox plays the remote service: it knows nothing of the runner, the client, jobs or state, so it ' +
        'behaves as DocuSign would for any client, and `signrun serve` stays a separable program. It shares ' +
        "DocuSign's envelope model and the PDF layer with the rest.",
      'src/sandbox/',
      ['^src/errors/', '^src/envelope/', '^src/pdf/'],
    ),
    {
      name: 'sandbox-platform-at-the-bottom',
      comment:
        "The sandbox's platform (database, clock, HTTP plumbing and DocuSign's error shape, limits, faults, TLS, " +
        "seal, PDF helpers, the outbox) serves every API group and page: it may not import any of them, or a group " +
        "could not be read, moved or tested alone. A group that keeps tables of its own (the account server, the " +
        'Admin API) defines them itself; services.ts hands them to openDatabase.',
      severity: 'error',
      from: { path: '^src/sandbox/platform/' },
      to: { path: '^src/sandbox/', pathNot: ['^src/sandbox/platform/'] },
    },
    {
      name: 'sandbox-api-below-its-pages',
      comment:
        "DocuSign's eSignature REST API (src/sandbox/esignature, one folder per API group) holds the accounts, " +
        'envelopes and templates; the pages and servers around it (the signing page, the console, the account ' +
        'server, the /sandbox control routes, the seed) read and move them through it, never the other way, so ' +
        'an API group never depends on how a page is drawn. Nor does it import services.ts, which assembles every ' +
        'group above them: a function that reads a few stores names them (PeopleStores, ProfileStores).',
      severity: 'error',
      from: { path: '^src/sandbox/esignature/' },
      to: {
        path: '^src/sandbox/',
        pathNot: ['^src/sandbox/esignature/', '^src/sandbox/platform/'],
      },
    },
    {
      name: 'sandbox-groups-below-their-assembly',
      comment:
        "The API groups (the eSignature API, the account server, the Admin API) keep their routes, storage and " +
        'wire shapes; services.ts assembles their stores and applies the seed, and the pages (signing, console, ' +
        '/sandbox control) and app.ts stand on top. A group imports none of those: where it needs a few of the ' +
        'services it names them (AdminServices, PeopleStores), so no arrow runs back up and no two folders import ' +
        'each other.',
      severity: 'error',
      from: { path: '^src/sandbox/(esignature|oauth|admin)/' },
      to: { path: '^src/sandbox/(services\\.ts$|seed/|signing/|console/|control/|app\\.ts$|server\\.ts$|index\\.ts$)' },
    },
    layer(
      'client-knows-no-yaml-no-state',
      'The HTTP client speaks the eSignature API and nothing else: no job files (src/jobs), no journal ' +
        '(src/state), no runner; what DocuSign error codes mean lives here, once, for every caller.',
      'src/client/',
      ['^src/errors/', '^src/secret\\.ts$', '^src/envelope/'],
    ),
    layer(
      'jobs-read-files-only',
      'Loading and validating job files is pure input handling: it runs before any network call, so it may ' +
        "not reach the client, the state or the runner (only the disk writer's rules for names in the output folder).",
      'src/jobs/',
      ['^src/errors/', '^src/secret\\.ts$', '^src/envelope/', '^src/pdf/', '^src/output/'],
    ),
    layer(
      'disk-writer-below-the-runner',
      'The output folder writer (temp + rename, records, the result spool) is a tool the runner and the state ' +
        'use; it must not know the runner, or the runner and its writer import each other.',
      'src/output/',
      ['^src/errors/'],
    ),
    layer(
      'config-reads-through-jobs',
      "signrun's configuration is YAML read with the job loader's positions and schema checks, and it checks " +
        "the client's settings (API version, OAuth) with the client's own helpers; it never reaches the state or the runner.",
      'src/config/',
      ['^src/errors/', '^src/envelope/', '^src/envelope/', '^src/secret\\.ts$', '^src/jobs/', '^src/client/'],
    ),
    layer(
      'state-below-the-runner',
      'The journal and locks record what the runner did; they write through the disk writer and classify ' +
        "failures with the client's table, but never call into the runner.",
      'src/state/',
      ['^src/errors/', '^src/envelope/', '^src/secret\\.ts$', '^src/output/', '^src/client/'],
    ),
    layer(
      'runner-below-reporters-and-cli',
      'The runner executes a plan and produces one summary; reporters and the CLI read that summary. It may ' +
        "use the sandbox's contract (types of an in-process sandbox) but not the sandbox itself, which the CLI starts.",
      'src/runner/',
      [
        '^src/errors/', '^src/envelope/',
        '^src/secret\\.ts$',
        '^src/client/',
        '^src/jobs/',
        '^src/output/',
        '^src/config/',
        '^src/state/',
        '^src/sandbox/contract\\.ts$',
      ],
    ),
    layer(
      'sync-above-the-runner',
      "Bringing earlier runs up to date reuses the runner's pieces, so it sits above the runner; the runner must " +
        'not import it back (what both need, such as status facts, belongs in src/state or src/client).',
      'src/sync/',
      [
        '^src/errors/', '^src/envelope/',
        '^src/secret\\.ts$',
        '^src/client/',
        '^src/jobs/',
        '^src/output/',
        '^src/config/',
        '^src/state/',
        '^src/runner/',
      ],
    ),
    layer(
      'reporters-above-the-runner',
      "Reporters turn the runner's summary into content (newman's model: one summary feeds every reporter and " +
        'the exit code); they never drive a run or the CLI.',
      'src/reporters/',
      ['^src/errors/', '^src/envelope/', '^src/secret\\.ts$', '^src/client/', '^src/output/', '^src/jobs/', '^src/runner/'],
    ),
    layer(
      'links-above-the-runner',
      'The links server (`signrun links serve`) reads the output folder and asks for a fresh signing address the ' +
        "way the runner does (its recipient view and target), so it sits above the runner; only the CLI starts it. " +
        'It never drives a run or a sync.',
      'src/links/',
      [
        '^src/errors/',
        '^src/envelope/',
        '^src/secret\\.ts$',
        '^src/client/',
        '^src/output/',
        '^src/config/',
        '^src/runner/',
      ],
    ),
    layer(
      'preview-above-the-runner',
      '`signrun preview` draws each envelope as the service will hold it: the wire tabs the runner sends, placed and ' +
        'drawn by the PDF layer the sandbox stamps with, written by the disk writer. It never calls a service, so ' +
        'it knows neither the client nor the state, nor the sandbox itself (only the layer they share).',
      'src/preview/',
      ['^src/errors/', '^src/envelope/', '^src/pdf/', '^src/jobs/', '^src/output/', '^src/runner/envelopes/envelope-definition\\.ts$'],
    ),
    {
      name: 'cli-on-top',
      comment:
        'The command line is the top layer: only the library entry (src/index.ts, which re-exports what the ' +
        'CLI itself uses) may import it.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/index\\.ts$'] },
      to: { path: ['^src/cli/', '^src/index\\.ts$'] },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'An import that does not resolve is a typo or a missing dependency; tsc says so too, this keeps the graph whole.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports count: a layer that needs another's types depends on it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
