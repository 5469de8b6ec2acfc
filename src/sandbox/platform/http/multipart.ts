/** One part of a multipart body. */
export interface MultipartPart {
  headers: Map<string, string>;
  /** Parameters of Content-Disposition, names lower-cased (name, filename, documentid…). */
  disposition: Map<string, string>;
  /** The disposition type: form-data, file, attachment… */
  dispositionType: string;
  contentType: string | undefined;
  body: Buffer;
}

/**
 * Splits a multipart body (RFC 2046). Written here rather than taken from
 * @fastify/multipart because DocuSign's documented form uses
 * `Content-Disposition: file; filename="x.pdf"; documentid=1` parts, which
 * form-data parsers (busboy) skip; bodies are bounded by the body limit, so
 * buffering is fine.
 */
export function parseMultipart(body: Buffer, contentType: string): MultipartPart[] | undefined {
  return parseFewParts(body, contentType, Infinity) ?? undefined;
}

/** A part's headers longer than this make a body work for a thread (parseFewParts). */
const FEW_PARTS_HEADER_BYTES = 16 * 1024;

/**
 * The parts of a body, as parseMultipart splits it, while there are at most
 * `maxParts` of them, each with at most 16 KiB of headers: `null` past that
 * (work for a thread: a body of 100,000 tiny parts took the event loop 1.1 s
 * of CPU at load 20, BENCHMARKS.md "Hostile documents").
 */
export function parseFewParts(body: Buffer, contentType: string, maxParts: number): MultipartPart[] | undefined | null {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  while (at >= 0) {
    let start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break; // closing delimiter
    if (body[start] === 0x0d && body[start + 1] === 0x0a) start += 2;
    else if (body[start] === 0x0a) start += 1;
    const next = body.indexOf(delimiter, start);
    if (next < 0) return undefined;
    // The CRLF before the next delimiter belongs to the delimiter.
    let end = next;
    if (body[end - 1] === 0x0a) end -= 1;
    if (body[end - 1] === 0x0d) end -= 1;
    const part = body.subarray(start, end);
    let headerEnd = part.indexOf('\r\n\r\n');
    let sep = 4;
    if (headerEnd < 0) {
      headerEnd = part.indexOf('\n\n');
      sep = 2;
    }
    if (headerEnd < 0) return undefined;
    if (maxParts < Infinity && (parts.length >= maxParts || headerEnd > FEW_PARTS_HEADER_BYTES)) return null;
    const headers = new Map<string, string>();
    for (const line of part.subarray(0, headerEnd).toString('utf8').split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const { type, params } = parseDisposition(headers.get('content-disposition') ?? '');
    parts.push({
      headers,
      disposition: params,
      dispositionType: type,
      contentType: headers.get('content-type'),
      body: part.subarray(headerEnd + sep),
    });
    at = next;
  }
  return parts;
}

function parseDisposition(value: string): { type: string; params: Map<string, string> } {
  const [type = '', ...rest] = value.split(';');
  const params = new Map<string, string>();
  for (const item of rest) {
    const eq = item.indexOf('=');
    if (eq < 0) continue;
    const key = item.slice(0, eq).trim().toLowerCase();
    let val = item.slice(eq + 1).trim();
    if (val.startsWith('"') && val.endsWith('"')) val = val.slice(1, -1);
    params.set(key, val);
  }
  return { type: type.trim().toLowerCase(), params };
}
