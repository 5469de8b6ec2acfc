/** Replaces what lies between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceMarkerBlock(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`markers ${start} … ${end} not found`);
  return `${text.slice(0, from + start.length)}\n${content.trimEnd()}\n${text.slice(to)}`;
}

/** What lies between the markers, trimmed; undefined when they are missing. */
export function markerBlock(text: string, name: string): string | undefined {
  const start = `<!-- ${name}:start -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(`<!-- ${name}:end -->`);
  return from < 0 || to < from ? undefined : text.slice(from + start.length, to).trim();
}
