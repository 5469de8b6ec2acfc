import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

type AddFormats = (ajv: Ajv) => Ajv;
// ajv-formats is CommonJS: under NodeNext its function arrives as `default` of the default export.
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

let validator: ValidateFunction | undefined;

/** schemas/report.schema.json, the contract of report.json. */
export function reportSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
}

/** Checks a parsed report.json against its schema; returns the problems (`/path message`), empty when valid. */
export function checkReport(value: unknown): string[] {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    validator = ajv.compile(reportSchema());
  }
  if (validator(value)) return [];
  return (validator.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}
