import { resolve } from 'node:path';
import type { Place } from './diagnostic-sink.js';
import { confinedPath } from './confined-path.js';
import { readCsvRows } from './csv-rows.js';
import { didYouMean } from '../errors/did-you-mean.js';
import { placeOf, type JobContext } from './job-context.js';
import type { RawEnvelope } from './raw-job.js';
import { findReferences } from './references.js';
import { fieldName } from './schema-check.js';

/** One row of a forEach: its values and where each cell is written. */
export interface Row {
  /** 1-based. */
  number: number;
  values: Record<string, string>;
  /** Where a cell of this row is written (a CSV cell, or the item's value in the YAML). */
  cell(column: string): Place;
  /** Where the row itself is: the start of its CSV line, or its item in the YAML. */
  place: Place;
}

/** An envelope's rows, each made when it is taken and taken once (a CSV's row holds only its cells until then). */
export interface Rows {
  readonly length: number;
  /** `keep`: the row can be taken again (a streamed run expands it again when its envelope is sent). */
  take(index: number, keep?: boolean): Row | undefined;
}

/** Rows already made (a plain envelope's one row, inline items). */
function rowsOf(list: Array<Row | undefined>): Rows {
  return { length: list.length, take: (index) => list[index] };
}

/**
 * The rows an envelope expands to: one `undefined` row for a plain envelope,
 * else the CSV rows or inline items, each checked to have every column the
 * envelope's `${row.*}` references use. Undefined on errors (reported).
 */
export async function envelopeRows(
  envelope: RawEnvelope,
  index: number,
  ctx: JobContext,
  folderReal: string,
): Promise<Rows | undefined> {
  const base = ['envelopes', index];
  const forEach = envelope.forEach;
  if (!forEach) return rowsOf([undefined]);
  const used = rowReferences(envelope, base);
  const before = ctx.sink.errorCount;
  let rows: Rows;
  if (forEach.csv !== undefined) {
    const csvPath = [...base, 'forEach', 'csv'];
    const absolute = resolve(ctx.folder, forEach.csv);
    const confined = confinedPath(ctx.folder, folderReal, absolute);
    if (!confined.ok) {
      const code =
        confined.problem === 'missing' || confined.problem === 'not-a-file'
          ? 'SR_CSV_NOT_FOUND'
          : 'SR_CSV_OUTSIDE_JOB_FOLDER';
      const why = {
        missing: 'does not exist',
        'not-a-file': 'is not a file',
        outside: "is outside the job file's folder",
        'symlink-outside': "is a symbolic link leading outside the job file's folder",
      }[confined.problem];
      ctx.sink.add(code, `CSV file ${forEach.csv} ${why}`, placeOf(ctx, csvPath), { field: fieldName(csvPath) });
      return undefined;
    }
    const shown = ctx.show(absolute);
    const csv = await readCsvRows(confined.real, shown);
    if (csv.source) ctx.sink.addSource(shown, csv.source);
    if (!csv.ok) {
      ctx.sink.add(csv.code, csv.message, { file: shown, line: csv.line, column: csv.column });
      return undefined;
    }
    for (const [name, path] of used) {
      if (!csv.columns.includes(name)) {
        const suggestion = didYouMean(name, csv.columns);
        ctx.sink.add(
          'SR_ROW_COLUMN_MISSING',
          `\${row.${name}}: ${shown} has no column "${name}"${suggestion ? `; did you mean "${suggestion}"?` : `; its columns are ${csv.columns.join(', ')}`}`,
          placeOf(ctx, path),
          { field: fieldName(path) },
        );
      }
    }
    const cells = csv.rows;
    rows = {
      length: cells.length,
      take(i, keep) {
        const row = cells.take(i, keep);
        return {
          number: i + 1,
          values: row.values,
          cell: (column) => ({ file: shown, line: row.line, column: row.cellColumn(column) }),
          place: { file: shown, line: row.line, column: 1 },
        };
      },
    };
  } else {
    const items = forEach.items ?? [];
    const made = items.map((item, i): Row => {
      const itemPath = [...base, 'forEach', 'items', i];
      // No prototype: `${row.constructor}` is a missing column, not Object's constructor.
      const values = Object.create(null) as Record<string, string>;
      for (const [k, v] of Object.entries(item)) values[k] = String(v);
      for (const [name, path] of used) {
        if (!(name in values)) {
          ctx.sink.add(
            'SR_ROW_COLUMN_MISSING',
            `\${row.${name}} (${fieldName(path)}): item ${i + 1} of forEach.items has no "${name}"`,
            placeOf(ctx, itemPath),
            {
              field: fieldName(itemPath),
            },
          );
        }
      }
      return {
        number: i + 1,
        values,
        cell: (column) => placeOf(ctx, column in values ? [...itemPath, column] : itemPath),
        place: placeOf(ctx, itemPath),
      };
    });
    rows = rowsOf(made);
  }
  if (ctx.sink.errorCount > before) return undefined;
  if (rows.length === 0) {
    ctx.sink.add(
      'SR_FOREACH_EMPTY',
      `forEach of envelope ${envelope.key} has no rows; it produces no envelope`,
      placeOf(ctx, [...base, 'forEach']),
      {
        field: fieldName([...base, 'forEach']),
        severity: 'warning',
      },
    );
  }
  return rows;
}

/** Every `${row.name}` of the envelope (forEach aside), with the first place it is used. */
function rowReferences(envelope: RawEnvelope, base: Array<string | number>): Map<string, Array<string | number>> {
  const found = new Map<string, Array<string | number>>();
  const visit = (value: unknown, path: Array<string | number>): void => {
    if (typeof value === 'string') {
      for (const ref of findReferences(value))
        if (ref.kind === 'row' && !found.has(ref.name)) found.set(ref.name, path);
    } else if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...path, i]));
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value))
        if (k !== 'forEach' || path.length > base.length) visit(v, [...path, k]);
  };
  visit(envelope, base);
  return found;
}
