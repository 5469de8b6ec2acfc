import type { ErrorCode } from '../errors/catalogue.js';
import type { Place } from './diagnostic-sink.js';
import { placeOf, type JobContext } from './job-context.js';
import type { NodePath } from './job-yaml.js';

interface Held {
  row: number;
  message: string;
  place: Place;
  field: string;
}

/**
 * Errors of forEach rows, held until every row is expanded. A mistake that
 * every row of an envelope shares (a typo'd folder in
 * `file: letter/offer-${row.employeeId}.pdf`) is in the job file's pattern,
 * not in the data: it is reported once, at the YAML line, with the number
 * of rows it affects, instead of once per CSV cell. A mistake of some rows
 * only is reported at each of their cells, as before.
 */
export class RowErrorGroups {
  readonly #rows = new Map<number, number>();
  readonly #groups = new Map<string, { index: number; code: ErrorCode; path: NodePath; held: Held[] }>();

  /** How many rows envelope `index` expanded to. */
  setRows(index: number, rows: number): void {
    this.#rows.set(index, rows);
  }

  hold(index: number, code: ErrorCode, path: NodePath, held: Held): void {
    const id = `${index}|${code}|${path.join('.')}`;
    let group = this.#groups.get(id);
    if (!group) {
      group = { index, code, path, held: [] };
      this.#groups.set(id, group);
    }
    group.held.push(held);
  }

  /** Reports what was held: once per pattern when every row has it, else per row. */
  flush(ctx: JobContext): void {
    for (const { index, code, path, held } of this.#groups.values()) {
      const rows = this.#rows.get(index) ?? 0;
      const distinctRows = new Set(held.map((h) => h.row)).size;
      const first = held[0];
      if (!first) continue;
      if (rows >= 2 && distinctRows === rows) {
        const yamlPath = ['envelopes', index, ...path];
        const example = first.message.replace(/^row \d+, [^:]+: /, '');
        ctx.sink.add(
          code,
          `every one of the ${rows} rows of forEach: ${example} (row ${first.row}; the others alike)`,
          placeOf(ctx, yamlPath),
          {
            field: first.field,
            hint: `The mistake is in this line of the job file, the pattern every row uses, not in the CSV: fix it here once.`,
          },
        );
      } else for (const h of held) ctx.sink.add(code, h.message, h.place, { field: h.field });
    }
    this.#groups.clear();
  }
}
