/** Filters of the status-changes listing (GET …/envelopes). */
export interface EnvelopeQuery {
  accountId: string;
  fromDate?: number;
  toDate?: number;
  statuses?: string[];
  envelopeIds?: string[];
  transactionIds?: string[];
  customField?: { name: string; value: string };
  startPosition: number;
  count: number;
}

/** The two statements of one status-changes listing and their named parameters. */
export interface EnvelopeListingSql {
  /** `SELECT COUNT(*) AS n …`: totalSetSize. */
  count: string;
  /** The page: `SELECT e.* …` oldest change first, with @count and @start. */
  page: string;
  /**
   * Every match, oldest change first: for a page that holds them all (SQLite's sorter costs ~35 µs more with a
   * LIMIT). One JSON text: an array of each envelope's `listedEnvelopeColumns`, in that order.
   */
  all: string;
  params: Record<string, unknown>;
  pageParams: Record<string, unknown>;
}

/**
 * The envelope's columns as the listing's `all` gives them, each envelope an
 * array of these in this order. A page of a runner's confirming listing is
 * ~300 envelopes: as better-sqlite3 rows (a string or number made per column
 * through V8's C++ API) they cost ~1.1 ms of the sandbox's event loop, as
 * one JSON text parsed at once ~0.4.
 */
export const listedEnvelopeColumns = [
  'id',
  'account_id',
  'sender_user_id',
  'status',
  'email_subject',
  'email_blurb',
  'template_id',
  'transaction_id',
  'event_notification_json',
  'created_at',
  'sent_at',
  'delivered_at',
  'completed_at',
  'declined_at',
  'voided_at',
  'voided_reason',
  'status_changed_at',
] as const;
const listedColumnsOfE = listedEnvelopeColumns.map((c) => `e.${c}`).join(', ');

/**
 * The SQL of the status-changes listing (GET …/envelopes). With a custom
 * field filter the envelopes are found from the field's index
 * (custom_fields_by_value_time: name, value, account, status change time) and
 * the unary `+` keeps SQLite from walking envelopes_by_account_time instead
 * (sqlite.org/optoverview.html, "Disqualifying WHERE clause terms using
 * unary-+"): that walk tested every envelope since from_date — the runner's
 * identity lookup goes back to 2000 — so each call grew with the number of
 * envelopes (6 ms at 10,000). The field's index bounded by the dates reads
 * only the matches, both for that lookup and for the runner's confirmations
 * (a job's envelopes changed in the last seconds), which with an index on the
 * field alone read every envelope of the job each time. The text
 * depends only on which filters are set and the lengths of the lists, so the
 * repository prepares each shape once.
 */
export function envelopeListingSql(query: EnvelopeQuery): EnvelopeListingSql {
  const where: string[] = [];
  const params: Record<string, unknown> = { accountId: query.accountId };
  const plain = query.customField ? '+' : '';
  if (query.customField) {
    // The field's rows carry the envelope's account and time (schema.ts: schemaIndexes), so the
    // dates bound the walk of the field's index; the same terms on e below check the envelope itself.
    const fieldTerms = ['f.name = @cfName', 'f.value = @cfValue', 'f.account_id = @accountId'];
    if (query.fromDate !== undefined) fieldTerms.push('f.status_changed_at >= @fromDate');
    if (query.toDate !== undefined) fieldTerms.push('f.status_changed_at <= @toDate');
    where.push(`e.id IN (SELECT f.envelope_id FROM envelope_custom_fields f WHERE ${fieldTerms.join(' AND ')})`);
    params['cfName'] = query.customField.name;
    params['cfValue'] = query.customField.value;
  }
  where.push(`${plain}e.account_id = @accountId`);
  if (query.fromDate !== undefined) {
    where.push(`${plain}e.status_changed_at >= @fromDate`);
    params['fromDate'] = query.fromDate;
  }
  if (query.toDate !== undefined) {
    where.push(`${plain}e.status_changed_at <= @toDate`);
    params['toDate'] = query.toDate;
  }
  const inList = (column: string, values: string[] | undefined, prefix: string) => {
    if (!values || values.length === 0) return;
    const names = values.map((v, i) => {
      params[`${prefix}${i}`] = v;
      return `@${prefix}${i}`;
    });
    where.push(`${column} IN (${names.join(', ')})`);
  };
  inList('e.status', query.statuses, 's');
  inList('e.id', query.envelopeIds, 'id');
  inList('e.transaction_id', query.transactionIds, 't');
  const clause = where.join(' AND ');
  return {
    count: `SELECT COUNT(*) AS n FROM envelopes e WHERE ${clause}`,
    page: `SELECT e.* FROM envelopes e WHERE ${clause} ORDER BY e.status_changed_at, e.rowid LIMIT @count OFFSET @start`,
    all: `SELECT json_group_array(json_array(${listedColumnsOfE}) ORDER BY e.status_changed_at, e.rowid)
      FROM envelopes e WHERE ${clause}`,
    params,
    pageParams: { ...params, count: query.count, start: query.startPosition },
  };
}
