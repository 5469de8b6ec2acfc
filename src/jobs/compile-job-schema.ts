import { Ajv } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { jobSchema, jobSchemaAjvOptions } from './schema-check.js';

// A CommonJS module whose function is both module.exports and .default.
const standaloneCode = (standaloneModule as unknown as { default: (ajv: Ajv, validate: unknown) => string }).default;

/**
 * Source of schemas/job.schema.validator.mjs: schemas/job.schema.json
 * compiled by ajv ahead of time (ajv "standalone" code). Compiling the schema
 * at start-up took 0.2–0.5 s of every `signrun validate`; loading the
 * compiled validator takes a few milliseconds. `npm run docs:jobs` rewrites
 * it; test/jobs/job-reference.test.ts fails when it is stale. It lives beside
 * the schema, as plain JavaScript, so that formatters and the TypeScript
 * build leave the generated text alone.
 */
export function compiledJobSchemaSource(): string {
  const ajv = new Ajv({ ...jobSchemaAjvOptions, code: { source: true, esm: true } });
  const code = standaloneCode(ajv, ajv.compile(jobSchema()));
  // The only runtime helper used (minLength/maxLength) counts code points; inlined to keep the file self-contained.
  const inlined = code.replace(
    /require\("ajv\/dist\/runtime\/ucs2length"\)\.default/g,
    '((text) => Array.from(text).length)',
  );
  if (inlined.includes('require('))
    throw new Error('the compiled job schema needs an ajv runtime helper that is not inlined');
  return [
    '/* eslint-disable */',
    '// Generated from schemas/job.schema.json by `npm run docs:jobs` (src/jobs/compile-job-schema.ts). Do not edit by hand.',
    inlined.replace(/^"use strict";/, ''),
    '',
  ].join('\n');
}
