/** The three legacy credentials of DocuSign's `X-DocuSign-Authentication` header. */
export interface LegacyCredentials {
  /** Username, email or userId (a subsidiary account's user logs in with its userId). */
  username: string;
  password: string;
  integratorKey: string;
}

/**
 * Parses `X-DocuSign-Authentication` in both forms DocuSign accepts: JSON
 * (`{"Username":…,"Password":…,"IntegratorKey":…}`) and XML
 * (`<DocuSignCredentials><Username>…</Username>…</DocuSignCredentials>`).
 * Member names are matched without regard to case, as DocuSign does.
 * Returns undefined when the header is not one of them.
 */
export function parseCredentialsHeader(header: string): LegacyCredentials | undefined {
  const text = header.trim();
  const fields = new Map<string, string>();
  if (text.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') fields.set(k.toLowerCase(), v);
  } else if (text.startsWith('<')) {
    for (const match of text.matchAll(/<(\w+)>([^<]*)<\/\1>/g)) {
      fields.set(match[1]!.toLowerCase(), decodeXmlText(match[2]!));
    }
  } else {
    return undefined;
  }
  const username = fields.get('username') ?? fields.get('userid');
  const password = fields.get('password');
  const integratorKey = fields.get('integratorkey');
  if (!username || password === undefined || !integratorKey) return undefined;
  return { username, password, integratorKey };
}

function decodeXmlText(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
