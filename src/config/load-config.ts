import { readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { Ajv, ErrorObject } from 'ajv';
import { cosmiconfig } from 'cosmiconfig';
import { makeSecret, shownUrl } from '../secret.js';
import type { Diagnostic } from '../jobs/model.js';
import { didYouMean } from '../errors/did-you-mean.js';
import { parseJobYaml } from '../jobs/job-yaml.js';
import { fieldName } from '../jobs/schema-check.js';
import { errorCatalogue, type ErrorCode } from '../errors/catalogue.js';
import { configEnvironment, secretCredentialFields } from './config-env.js';
import { parseOAuthBase } from '../client/oauth/oauth-base.js';
import { readPrivateKey } from '../client/oauth/jwt-assertion.js';
import { apiVersions, type ApiVersion } from '../client/api-version.js';
import type { Credentials, SignrunConfig, SigningUrls } from './types.js';

/** Where to look for the configuration. */
export interface LoadConfigOptions {
  /** Folder where the search starts (up to the project root, the folder with package.json). */
  cwd: string;
  /** DOCUSIGN_* variables here override the file. */
  env: NodeJS.ProcessEnv;
  /** A file to load instead of searching; relative to cwd. */
  configFile?: string;
  /**
   * Take a JWT grant with parts missing (`auth consent-url` needs only the
   * integration key and the OAuth base). Default false: half a grant is an
   * error, never a silent fall-back to the sandbox.
   */
  allowPartialJwt?: boolean;
}

export type LoadConfigResult =
  { ok: true; config: SignrunConfig; warnings: Diagnostic[] } | { ok: false; errors: Diagnostic[] };

/** The shape of a config file once it passed schemas/config.schema.json. */
interface ConfigFile {
  rootUrl?: string;
  apiVersion?: ApiVersion;
  concurrency?: number;
  outDir?: string;
  signingUrls?: SigningUrls;
  credentials?: Partial<
    Record<
      | 'username'
      | 'password'
      | 'integratorKey'
      | 'accessToken'
      | 'distributorCode'
      | 'distributorPassword'
      | 'userId'
      | 'privateKey'
      | 'privateKeyFile'
      | 'oauthBase'
      | 'accountId'
      | 'adminBase',
      string
    >
  >;
}

let validateConfig: ReturnType<Ajv['compile']> | undefined;

/**
 * Finds and validates signrun's configuration (cosmiconfig, module name
 * `signrun`), then lets the DOCUSIGN_* environment override it. Problems
 * come back as diagnostics, never thrown; secrets come back wrapped.
 * Defaults: concurrency 8, outDir `out`, no rootUrl (the in-process sandbox).
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadConfigResult> {
  const show = (path: string) => {
    const rel = relative(options.cwd, path);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  };
  const searched = await findConfigFile(options, show);
  if ('errors' in searched) return { ok: false, errors: searched.errors };
  const { found } = searched;
  const file: ConfigFile = (found && !found.isEmpty ? found.config : {}) as ConfigFile;
  const shown = found ? show(found.filepath) : undefined;
  const warnings: Diagnostic[] = [];
  if (found && !found.isEmpty) {
    const errors = await checkConfigFile(file, found.filepath, shown!, warnings);
    if (errors) return { ok: false, errors };
  }
  // The environment wins over the file (DESIGN.md, "Credentials").
  const value = (name: keyof typeof configEnvironment): string | undefined => {
    const v = options.env[name];
    return v === undefined || v === '' ? undefined : v;
  };
  const source: ConfigSource = {
    options,
    found,
    file,
    shown,
    value,
    // Where a value came from, for errors: the variable, or the file and the field's line.
    origin: (env, path) =>
      value(env) !== undefined || !found
        ? { file: env, line: 1, column: 1 }
        : { file: shown!, ...locatorFor(found.filepath)(path) },
  };
  const rootUrl = value('DOCUSIGN_ROOT_URL') ?? file.rootUrl;
  const rootProblem = rootUrl !== undefined ? rootUrlProblem(rootUrl, source) : undefined;
  if (rootProblem) return { ok: false, errors: [rootProblem] };
  const read = readCredentials(source);
  if ('problem' in read) return { ok: false, errors: [read.problem] };
  const { credentials } = read;
  const apiVersion = value('DOCUSIGN_API_VERSION') ?? file.apiVersion;
  const versionProblem = apiVersionProblem(apiVersion);
  if (versionProblem) return { ok: false, errors: [versionProblem] };

  const base = found ? dirname(found.filepath) : options.cwd;
  const config: SignrunConfig = {
    ...(rootUrl !== undefined ? { rootUrl: rootUrl.replace(/\/+$/, '') } : {}),
    ...(apiVersion !== undefined ? { apiVersion: apiVersion as ApiVersion } : {}),
    credentials,
    concurrency: file.concurrency ?? 8,
    outDir: file.outDir !== undefined ? resolve(base, file.outDir) : 'out',
    ...(file.signingUrls !== undefined ? { signingUrls: file.signingUrls } : {}),
    ...(found ? { configFile: found.filepath } : {}),
  };
  return { ok: true, config, warnings };
}

/** What the configuration was read from: the file found (if any) and the environment over it. */
interface ConfigSource {
  options: LoadConfigOptions;
  found: FoundConfig | null;
  file: ConfigFile;
  /** The file as messages show it (relative to the working folder when inside it). */
  shown: string | undefined;
  /** A DOCUSIGN_* variable's value; an empty one counts as unset. */
  value: (name: keyof typeof configEnvironment) => string | undefined;
  /** Where a value came from, for errors: the variable, or the file and the field's line. */
  origin: (env: keyof typeof configEnvironment, path: string[]) => { file: string; line: number; column: number };
}

type FoundConfig = { config: unknown; filepath: string; isEmpty?: boolean };

function diagnostic(
  code: ErrorCode,
  message: string,
  file: string,
  line = 1,
  column = 1,
  severity: 'error' | 'warning' = 'error',
  field?: string,
): Diagnostic {
  return {
    code,
    severity,
    message,
    file,
    line,
    column,
    ...(field ? { field } : {}),
    hint: errorCatalogue[code].hint,
  };
}

/** An error at a value's origin (the variable, or the file's line). */
function problemAt(
  code: ErrorCode,
  message: string,
  at: { file: string; line: number; column: number },
  field: string,
): Diagnostic {
  return diagnostic(code, message, at.file, at.line, at.column, 'error', field);
}

/** The file named, or the one cosmiconfig finds from the working folder up (null: none). */
async function findConfigFile(
  options: LoadConfigOptions,
  show: (path: string) => string,
): Promise<{ found: FoundConfig | null } | { errors: Diagnostic[] }> {
  const explorer = cosmiconfig('signrun', { searchStrategy: 'project' });
  try {
    if (options.configFile === undefined) return { found: await explorer.search(options.cwd) };
    const path = resolve(options.cwd, options.configFile);
    const exists = await access(path).then(
      () => true,
      () => false,
    );
    if (!exists)
      return {
        errors: [
          diagnostic(
            'SR_CONFIG_NOT_FOUND',
            `configuration file ${options.configFile} does not exist`,
            options.configFile,
          ),
        ],
      };
    return { found: await explorer.load(path) };
  } catch (error) {
    const e = error as Error & {
      filepath?: string;
      mark?: { line: number; column: number };
      linePos?: Array<{ line: number; col: number }>;
    };
    const file = e.filepath ?? options.configFile ?? 'signrun configuration';
    const position = e.linePos?.[0];
    return {
      errors: [
        diagnostic(
          'SR_CONFIG_SYNTAX',
          (e.message ?? String(error)).split('\n')[0]!,
          show(file),
          position?.line ?? 1,
          position?.col ?? 1,
        ),
      ],
    };
  }
}

/** The file against schemas/config.schema.json (its errors; undefined: valid), and a warning for each secret written in it. */
async function checkConfigFile(
  file: ConfigFile,
  filepath: string,
  shown: string,
  warnings: Diagnostic[],
): Promise<Diagnostic[] | undefined> {
  // ajv (60-odd modules) is loaded only when there is a file to check: most runs configure by the environment.
  validateConfig ??= new (await import('ajv')).Ajv({ allErrors: true, strict: false }).compile(
    JSON.parse(readFileSync(new URL('../../schemas/config.schema.json', import.meta.url), 'utf8')) as object,
  );
  if (!validateConfig(file)) {
    const locate = locatorFor(filepath);
    return (validateConfig.errors ?? []).map((error) => {
      const { path, message, at: where } = describe(error);
      const at = locate(path, where);
      return diagnostic('SR_CONFIG_INVALID', message, shown, at.line, at.column, 'error', fieldName(path));
    });
  }
  for (const field of secretCredentialFields) {
    if (file.credentials?.[field] !== undefined) {
      const at = locatorFor(filepath)(['credentials', field]);
      warnings.push(
        diagnostic(
          'SR_CONFIG_SECRET_IN_FILE',
          `credentials.${field} is written in ${shown}; prefer the environment variable`,
          shown,
          at.line,
          at.column,
          'warning',
          `credentials.${field}`,
        ),
      );
    }
  }
  return undefined;
}

/** A root URL that is not http(s), or carries credentials or a query, is refused. */
function rootUrlProblem(rootUrl: string, { value, found, shown }: ConfigSource): Diagnostic | undefined {
  let ok: boolean;
  // A user name and password in the address would be printed and stored with it (issue 14); so would a
  // query (`?token=…`, issue 25), which moreover swallows the path of every call made under the root.
  let userInfo = false;
  let query = false;
  try {
    const url = new URL(rootUrl);
    ok = ['http:', 'https:'].includes(url.protocol);
    userInfo = url.username !== '' || url.password !== '';
    query = url.search !== '' || url.hash !== '' || /[?#]/.test(rootUrl);
  } catch {
    ok = false;
  }
  if (ok && !userInfo && !query) return undefined;
  const fromEnv = value('DOCUSIGN_ROOT_URL') !== undefined;
  const at = fromEnv || !found ? { line: 1, column: 1 } : locatorFor(found.filepath)(['rootUrl']);
  return diagnostic(
    fromEnv ? 'SR_CONFIG_ENV_INVALID' : 'SR_CONFIG_INVALID',
    userInfo
      ? `root URL ${JSON.stringify(shownUrl(rootUrl))} carries a user name and password: give them as DOCUSIGN_USERNAME and DOCUSIGN_PASSWORD instead (an address is printed and stored; credentials never are)`
      : query
        ? `root URL ${JSON.stringify(shownUrl(rootUrl))} carries a query or a fragment (not shown): a root URL is an address under which every call's path is added, so it cannot carry one; give a token as DOCUSIGN_ACCESS_TOKEN instead (an address is printed and stored; credentials never are)`
        : `root URL ${JSON.stringify(shownUrl(rootUrl))} is not an http or https URL`,
    fromEnv ? 'DOCUSIGN_ROOT_URL' : shown!,
    at.line,
    at.column,
    'error',
    'rootUrl',
  );
}

/** Each credential from the environment or the file; the JWT grant's parts read and checked before any call. */
function readCredentials(source: ConfigSource): { credentials: Credentials } | { problem: Diagnostic } {
  const { value, file } = source;
  const plain = (
    field: 'username' | 'integratorKey' | 'distributorCode' | 'userId' | 'oauthBase' | 'accountId' | 'adminBase',
    env: keyof typeof configEnvironment,
  ) => value(env) ?? file.credentials?.[field];
  const secret = (field: 'password' | 'accessToken' | 'distributorPassword', env: keyof typeof configEnvironment) => {
    const v = value(env) ?? file.credentials?.[field];
    return v === undefined ? undefined : makeSecret(v);
  };
  const credentials: Credentials = {};
  const set = <K extends keyof Credentials>(key: K, v: Credentials[K] | undefined) => {
    if (v !== undefined) credentials[key] = v;
  };
  set('username', plain('username', 'DOCUSIGN_USERNAME'));
  set('password', secret('password', 'DOCUSIGN_PASSWORD'));
  set('integratorKey', plain('integratorKey', 'DOCUSIGN_INTEGRATOR_KEY'));
  set('accessToken', secret('accessToken', 'DOCUSIGN_ACCESS_TOKEN'));
  set('distributorCode', plain('distributorCode', 'DOCUSIGN_DISTRIBUTOR_CODE'));
  set('distributorPassword', secret('distributorPassword', 'DOCUSIGN_DISTRIBUTOR_PASSWORD'));
  set('userId', plain('userId', 'DOCUSIGN_USER_ID'));
  set('oauthBase', plain('oauthBase', 'DOCUSIGN_OAUTH_BASE'));
  set('accountId', plain('accountId', 'DOCUSIGN_ACCOUNT_ID'));
  set('adminBase', plain('adminBase', 'DOCUSIGN_ADMIN_BASE'));
  const problem = readJwtKey(source, credentials) ?? jwtGrantProblem(source, credentials);
  return problem ? { problem } : { credentials };
}

/**
 * JWT grant: the private key is read now, so a missing or broken key is
 * reported before any network call, naming the file.
 */
function readJwtKey(source: ConfigSource, credentials: Credentials): Diagnostic | undefined {
  const { value, file, found, options, origin } = source;
  const keyText = value('DOCUSIGN_PRIVATE_KEY') ?? file.credentials?.privateKey;
  const keyFile = value('DOCUSIGN_PRIVATE_KEY_FILE') ?? file.credentials?.privateKeyFile;
  if (keyText !== undefined) {
    // A PEM in a variable often has its newlines written as \n.
    credentials.privateKey = makeSecret(keyText.includes('\n') ? keyText : keyText.replace(/\\n/g, '\n'));
  } else if (keyFile !== undefined) {
    const fromEnv = value('DOCUSIGN_PRIVATE_KEY_FILE') !== undefined;
    const path = resolve(fromEnv || !found ? options.cwd : dirname(found.filepath), keyFile);
    try {
      credentials.privateKey = makeSecret(readFileSync(path, 'utf8'));
      credentials.privateKeyFile = path;
    } catch (error) {
      return problemAt(
        'SR_CONFIG_PRIVATE_KEY',
        `the private key file ${keyFile} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        origin('DOCUSIGN_PRIVATE_KEY_FILE', ['credentials', 'privateKeyFile']),
        'credentials.privateKeyFile',
      );
    }
  }
  if (!credentials.privateKey) return undefined;
  try {
    readPrivateKey(credentials.privateKey);
    return undefined;
  } catch (error) {
    const fromFile = credentials.privateKeyFile !== undefined;
    return problemAt(
      'SR_CONFIG_PRIVATE_KEY',
      `the private key ${fromFile ? `in ${keyFile}` : 'given'} cannot be used for the JWT grant: ${(error as Error).message}`,
      fromFile
        ? origin('DOCUSIGN_PRIVATE_KEY_FILE', ['credentials', 'privateKeyFile'])
        : origin('DOCUSIGN_PRIVATE_KEY', ['credentials', 'privateKey']),
      fromFile ? 'credentials.privateKeyFile' : 'credentials.privateKey',
    );
  }
}

/** An OAuth base signrun can reach, and a JWT grant given whole or not at all. */
function jwtGrantProblem(source: ConfigSource, credentials: Credentials): Diagnostic | undefined {
  const { value, found, shown, options, origin } = source;
  if (credentials.oauthBase !== undefined && !parseOAuthBase(credentials.oauthBase)) {
    return problemAt(
      value('DOCUSIGN_OAUTH_BASE') !== undefined ? 'SR_CONFIG_ENV_INVALID' : 'SR_CONFIG_INVALID',
      `OAuth base ${JSON.stringify(credentials.oauthBase)} is neither a host name (account-d.docusign.com, account.docusign.com) nor an http(s)://HOST:PORT origin`,
      origin('DOCUSIGN_OAUTH_BASE', ['credentials', 'oauthBase']),
      'credentials.oauthBase',
    );
  }
  const someJwt =
    credentials.userId !== undefined || credentials.privateKey !== undefined || credentials.oauthBase !== undefined;
  if (options.allowPartialJwt || !someJwt) return undefined;
  const jwtParts = {
    DOCUSIGN_INTEGRATOR_KEY: credentials.integratorKey,
    DOCUSIGN_USER_ID: credentials.userId,
    'DOCUSIGN_PRIVATE_KEY_FILE (or DOCUSIGN_PRIVATE_KEY)': credentials.privateKey,
    DOCUSIGN_OAUTH_BASE: credentials.oauthBase,
  };
  const missing = Object.entries(jwtParts)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  if (missing.length === 0) return undefined;
  const given = Object.entries(jwtParts)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k.split(' ')[0]);
  return problemAt(
    'SR_CONFIG_JWT_INCOMPLETE',
    `the JWT grant is half configured: ${given.join(', ')} set, but not ${missing.join(', ')}`,
    { file: found ? shown! : missing[0]!.split(' ')[0]!, line: 1, column: 1 },
    'credentials',
  );
}

function apiVersionProblem(apiVersion: string | undefined): Diagnostic | undefined {
  if (apiVersion === undefined || apiVersions.includes(apiVersion as ApiVersion)) return undefined;
  return problemAt(
    'SR_CONFIG_ENV_INVALID',
    `DOCUSIGN_API_VERSION ${JSON.stringify(apiVersion)} is not one of ${apiVersions.join(', ')}`,
    { file: 'DOCUSIGN_API_VERSION', line: 1, column: 1 },
    'apiVersion',
  );
}

/** Positions in YAML and JSON config files (JSON is YAML); other files point at their first line. */
function locatorFor(
  filepath: string,
): (path: Array<string | number>, at?: 'value' | 'key') => { line: number; column: number } {
  if (/\.(c|m)?(j|t)s$/.test(filepath)) return () => ({ line: 1, column: 1 });
  let text: string;
  try {
    text = readFileSync(filepath, 'utf8');
  } catch {
    return () => ({ line: 1, column: 1 });
  }
  if (filepath.endsWith('package.json')) {
    const parsed = parseJobYaml(text);
    return parsed.ok ? (path, at) => parsed.locator.locate(['signrun', ...path], at) : () => ({ line: 1, column: 1 });
  }
  const parsed = parseJobYaml(text);
  return parsed.ok ? (path, at) => parsed.locator.locate(path, at) : () => ({ line: 1, column: 1 });
}

function describe(error: ErrorObject): { path: Array<string | number>; message: string; at: 'value' | 'key' } {
  const path = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/');
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    const extra = String(params['additionalProperty']);
    const known =
      path.length === 0
        ? ['rootUrl', 'apiVersion', 'concurrency', 'outDir', 'signingUrls', 'credentials']
        : [
            'username',
            'password',
            'integratorKey',
            'accessToken',
            'distributorCode',
            'distributorPassword',
            'userId',
            'privateKeyFile',
            'privateKey',
            'oauthBase',
            'accountId',
            'adminBase',
          ];
    const suggestion = didYouMean(extra, known);
    return {
      path: [...path, extra],
      message: `unknown field "${extra}"${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
      at: 'key',
    };
  }
  return { path, message: `${fieldName(path) || 'the configuration'} ${error.message ?? 'is not valid'}`, at: 'value' };
}
