import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { parseDocument, LineCounter } from 'yaml';
import { Ajv } from 'ajv';
import { SignrunError } from '../../errors/signrun-error.js';
import type { Seed } from './seed-types.js';

const schemaUrl = new URL('../../../schemas/seed.schema.json', import.meta.url);

let validator: ReturnType<Ajv['compile']> | undefined;
function validate(data: unknown) {
  validator ??= new Ajv({ allErrors: true, strict: false }).compile(
    JSON.parse(readFileSync(schemaUrl, 'utf8')) as object,
  );
  return { ok: validator(data), errors: validator.errors ?? [] };
}

/**
 * Reads a YAML seed and validates it against schemas/seed.schema.json.
 * Throws SR_SANDBOX_SEED naming the file, line and field of the first problem.
 */
export async function loadSeedFile(file: string): Promise<Seed> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new SignrunError('SR_SANDBOX_SEED', `cannot read the seed file ${file}`, {
      location: { file, line: 1, column: 1 },
      cause,
    });
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const pos = lineCounter.linePos(yamlError.pos[0]);
    throw new SignrunError('SR_SANDBOX_SEED', `${file} is not valid YAML: ${yamlError.message.split('\n')[0]}`, {
      location: { file, line: pos.line, column: pos.col },
    });
  }
  const data = doc.toJS() as unknown;
  const result = validate(data);
  const first = result.errors[0];
  if (!result.ok && first) {
    const path = first.instancePath
      .split('/')
      .slice(1)
      .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
    const pos = node?.range ? lineCounter.linePos(node.range[0]) : { line: 1, col: 1 };
    const field = first.instancePath || '(top level)';
    const detail =
      first.keyword === 'additionalProperties'
        ? `unknown field "${String((first.params as { additionalProperty?: string }).additionalProperty)}"`
        : first.keyword === 'required'
          ? `missing field "${String((first.params as { missingProperty?: string }).missingProperty)}"`
          : (first.message ?? 'invalid');
    throw new SignrunError('SR_SANDBOX_SEED', `${file}:${pos.line}:${pos.col} ${field}: ${detail}`, {
      location: { file, line: pos.line, column: pos.col },
      details: { field },
    });
  }
  return data as Seed;
}
