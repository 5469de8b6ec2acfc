import { readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
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
// eslint-disable-next-line max-lines-per-function -- each field of the configuration read, checked and overridden from the environment in turn; to be split by field group (issue 33).
export async function loadConfig(options: LoadConfigOptions): Promise<LoadConfigResult> {
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  const show = (path: string) => {
    const rel = relative(options.cwd, path);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  };
  const diagnostic = (
    code: ErrorCode,
    message: string,
    file: string,
    line = 1,
    column = 1,
    severity: 'error' | 'warning' = 'error',
    field?: string,
  ): Diagnostic => ({
    code,
    severity,
    message,
    file,
    line,
    column,
    ...(field ? { field } : {}),
    hint: errorCatalogue[code].hint,
  });

  const explorer = cosmiconfig('signrun', { searchStrategy: 'project' });
  let found: { config: unknown; filepath: string; isEmpty?: boolean } | null;
  try {
    if (options.configFile !== undefined) {
      const path = resolve(options.cwd, options.configFile);
      if (
        !(await access(path).then(
          () => true,
          () => false,
        ))
      ) {
        return {
          ok: false,
          errors: [
            diagnostic(
              'SR_CONFIG_NOT_FOUND',
              `configuration file ${options.configFile} does not exist`,
              options.configFile,
            ),
          ],
        };
      }
      found = await explorer.load(path);
    } else {
      found = await explorer.search(options.cwd);
    }
  } catch (error) {
    const e = error as Error & {
      filepath?: string;
      mark?: { line: number; column: number };
      linePos?: Array<{ line: number; col: number }>;
    };
    const file = e.filepath ?? options.configFile ?? 'signrun configuration';
    const position = e.linePos?.[0];
    return {
      ok: false,
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

  const file: ConfigFile = (found && !found.isEmpty ? found.config : {}) as ConfigFile;
  const shown = found ? show(found.filepath) : undefined;
  if (found && !found.isEmpty) {
    validateConfig ??= new Ajv({ allErrors: true, strict: false }).compile(
      JSON.parse(readFileSync(new URL('../../schemas/config.schema.json', import.meta.url), 'utf8')) as object,
    );
    if (!validateConfig(file)) {
      const locate = locatorFor(found.filepath);
      for (const error of validateConfig.errors ?? []) {
        const { path, message, at: where } = describe(error);
        const at = locate(path, where);
        errors.push(diagnostic('SR_CONFIG_INVALID', message, shown!, at.line, at.column, 'error', fieldName(path)));
      }
      return { ok: false, errors };
    }
    for (const field of secretCredentialFields) {
      if (file.credentials?.[field] !== undefined) {
        const at = locatorFor(found.filepath)(['credentials', field]);
        warnings.push(
          diagnostic(
            'SR_CONFIG_SECRET_IN_FILE',
            `credentials.${field} is written in ${shown}; prefer the environment variable`,
            shown!,
            at.line,
            at.column,
            'warning',
            `credentials.${field}`,
          ),
        );
      }
    }
  }

  // The environment wins over the file (DESIGN.md, "Credentials").
  const value = (name: keyof typeof configEnvironment): string | undefined => {
    const v = options.env[name];
    return v === undefined || v === '' ? undefined : v;
  };
  const rootUrl = value('DOCUSIGN_ROOT_URL') ?? file.rootUrl;
  if (rootUrl !== undefined) {
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
    if (!ok || userInfo || query) {
      const fromEnv = value('DOCUSIGN_ROOT_URL') !== undefined;
      const at = fromEnv || !found ? { line: 1, column: 1 } : locatorFor(found.filepath)(['rootUrl']);
      errors.push(
        diagnostic(
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
        ),
      );
      return { ok: false, errors };
    }
  }

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

  // Where a value came from, for errors: the variable, or the file and the field's line.
  const origin = (env: keyof typeof configEnvironment, path: string[]) => {
    if (value(env) !== undefined || !found) return { file: env, line: 1, column: 1 };
    const at = locatorFor(found.filepath)(path);
    return { file: shown!, ...at };
  };
  const fail = (
    code: ErrorCode,
    message: string,
    at: { file: string; line: number; column: number },
    field: string,
  ) => {
    errors.push(diagnostic(code, message, at.file, at.line, at.column, 'error', field));
    return { ok: false as const, errors };
  };

  // JWT grant: the private key is read now, so a missing or broken key is
  // reported before any network call, naming the file.
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
      return fail(
        'SR_CONFIG_PRIVATE_KEY',
        `the private key file ${keyFile} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        origin('DOCUSIGN_PRIVATE_KEY_FILE', ['credentials', 'privateKeyFile']),
        'credentials.privateKeyFile',
      );
    }
  }
  if (credentials.privateKey) {
    try {
      readPrivateKey(credentials.privateKey);
    } catch (error) {
      const fromFile = credentials.privateKeyFile !== undefined;
      return fail(
        'SR_CONFIG_PRIVATE_KEY',
        `the private key ${fromFile ? `in ${keyFile}` : 'given'} cannot be used for the JWT grant: ${(error as Error).message}`,
        fromFile
          ? origin('DOCUSIGN_PRIVATE_KEY_FILE', ['credentials', 'privateKeyFile'])
          : origin('DOCUSIGN_PRIVATE_KEY', ['credentials', 'privateKey']),
        fromFile ? 'credentials.privateKeyFile' : 'credentials.privateKey',
      );
    }
  }
  if (credentials.oauthBase !== undefined && !parseOAuthBase(credentials.oauthBase)) {
    return fail(
      value('DOCUSIGN_OAUTH_BASE') !== undefined ? 'SR_CONFIG_ENV_INVALID' : 'SR_CONFIG_INVALID',
      `OAuth base ${JSON.stringify(credentials.oauthBase)} is neither a host name (account-d.docusign.com, account.docusign.com) nor an http(s)://HOST:PORT origin`,
      origin('DOCUSIGN_OAUTH_BASE', ['credentials', 'oauthBase']),
      'credentials.oauthBase',
    );
  }
  const jwtParts = {
    DOCUSIGN_INTEGRATOR_KEY: credentials.integratorKey,
    DOCUSIGN_USER_ID: credentials.userId,
    'DOCUSIGN_PRIVATE_KEY_FILE (or DOCUSIGN_PRIVATE_KEY)': credentials.privateKey,
    DOCUSIGN_OAUTH_BASE: credentials.oauthBase,
  };
  if (
    !options.allowPartialJwt &&
    (credentials.userId !== undefined || credentials.privateKey !== undefined || credentials.oauthBase !== undefined)
  ) {
    const missing = Object.entries(jwtParts)
      .filter(([, v]) => v === undefined)
      .map(([k]) => k);
    if (missing.length > 0) {
      const given = Object.entries(jwtParts)
        .filter(([, v]) => v !== undefined)
        .map(([k]) => k.split(' ')[0]);
      return fail(
        'SR_CONFIG_JWT_INCOMPLETE',
        `the JWT grant is half configured: ${given.join(', ')} set, but not ${missing.join(', ')}`,
        { file: found ? shown! : missing[0]!.split(' ')[0]!, line: 1, column: 1 },
        'credentials',
      );
    }
  }

  const apiVersion = value('DOCUSIGN_API_VERSION') ?? file.apiVersion;
  if (apiVersion !== undefined && !apiVersions.includes(apiVersion as ApiVersion)) {
    return fail(
      'SR_CONFIG_ENV_INVALID',
      `DOCUSIGN_API_VERSION ${JSON.stringify(apiVersion)} is not one of ${apiVersions.join(', ')}`,
      { file: 'DOCUSIGN_API_VERSION', line: 1, column: 1 },
      'apiVersion',
    );
  }

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
