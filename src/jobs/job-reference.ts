import { recipientKind, tabKind, type RecipientKindName, type TabKindName } from '../envelope/index.js';
import { jobSchema } from './schema-check.js';

interface SchemaNode {
  type?: string | string[];
  description?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  minimum?: number;
  then?: SchemaNode;
  else?: SchemaNode;
}

/**
 * The section of one tab kind (and of the kinds that read alike), titled with
 * their collections as the catalogue names them ("Text tab (<collection>[];
 * <collection>, … alike)"), at the kind's definition `tab_<kind>` (tab-schema.ts).
 */
function tabSection(title: string, kind: TabKindName, alike: TabKindName[] = []): [string, string] {
  const others = alike.length > 0 ? `; ${alike.map((k) => tabKind(k).collection).join(', ')} alike` : '';
  return [`${title} (\`${tabKind(kind).collection}[]\`${others})`, `#/$defs/tab_${kind}`];
}

/** The section of one recipient kind (and of those that read alike), at its definition (recipient-schema.ts). */
function recipientSection(title: string, kind: RecipientKindName, alike: RecipientKindName[] = []): [string, string] {
  const others = alike.length > 0 ? `; ${alike.map((k) => recipientKind(k).collection).join(', ')} alike` : '';
  return [`${title} (\`${recipientKind(kind).collection}[]\`${others})`, `#/$defs/${recipientKind(kind).definition}`];
}

/** Sections of the reference, in reading order: [title, schema path]. */
const sections: Array<[string, string]> = [
  ['Job file (top level)', '#'],
  ['`defaults`', '#/$defs/defaults'],
  ['Envelope (`envelopes[]`)', '#/$defs/envelope'],
  ['`forEach`', '#/$defs/forEach'],
  ['Document (`documents[]`)', '#/$defs/document'],
  ['Merge field (`docGenFormFields.<name>` of a document)', '#/$defs/docGenFormField'],
  ['`format` of a merge field', '#/$defs/docGenFormat'],
  [`Signer (\`recipients[]\`; \`${recipientKind('signer').collection}[]\`)`, '#/$defs/signer'],
  [
    `Recipients by collection (\`recipients: {${recipientKind('signer').collection}, ${recipientKind('carbonCopy').collection}, …}\`)`,
    '#/$defs/recipientsObject',
  ],
  recipientSection('Carbon copy', 'carbonCopy'),
  recipientSection('Certified delivery', 'certifiedDelivery'),
  recipientSection('In-person signer', 'inPersonSigner'),
  recipientSection('Witness', 'witness'),
  recipientSection('Editor', 'editor', ['agent', 'intermediary']),
  ['Sign-here tab (`tabs[]`)', '#/$defs/signHereTab'],
  [
    `Tabs by collection (\`tabs: {${tabKind('signHere').collection}, ${tabKind('text').collection}, …}\`)`,
    '#/$defs/tabsObject',
  ],
  tabSection('Sign-here tab', 'signHere', ['initialHere']),
  tabSection('Text tab', 'text', ['number', 'date', 'email', 'ssn']),
  tabSection('Checkbox tab', 'checkbox'),
  tabSection('List tab', 'list'),
  ['List item (`listItems[]`)', '#/$defs/listItem'],
  tabSection('Radio group', 'radioGroup'),
  ['Radio (`radios[]`)', '#/$defs/radio'],
  tabSection('Formula tab', 'formula'),
  tabSection('Decline tab', 'decline'),
  tabSection('ZIP tab', 'zip'),
  ['Role (`templateRoles[]`)', '#/$defs/role'],
  ['Template (`templates[]`)', '#/$defs/template'],
  [
    `A template's roles (\`recipients: {${recipientKind('signer').collection}, ${recipientKind('carbonCopy').collection}, …}\`)`,
    '#/$defs/templateRecipients',
  ],
  [`Signer role (\`${recipientKind('signer').collection}[]\` of a template; other kinds alike)`, '#/$defs/signerRole'],
  ['`eventNotification`', '#/$defs/eventNotification'],
  ['`eventNotification.envelopeEvents[]`', '#/$defs/eventNotification/properties/envelopeEvents/items'],
  ['`eventNotification.recipientEvents[]`', '#/$defs/eventNotification/properties/recipientEvents/items'],
  ['`eventNotification.eventData`', '#/$defs/eventNotification/properties/eventData'],
  ['`notification`', '#/$defs/notification'],
  ['`notification.reminders`', '#/$defs/notification/properties/reminders'],
  ['`notification.expirations`', '#/$defs/notification/properties/expirations'],
  ['Custom field (`customFields[]`)', '#/$defs/customFields/items'],
  ['Account (`accounts[]`)', '#/$defs/account'],
  ['`initialUser`', '#/$defs/account/properties/initialUser'],
  ['`planInformation`', '#/$defs/account/properties/planInformation'],
  ['`addressInformation`', '#/$defs/account/properties/addressInformation'],
  ['`admin` of an account of an organisation', '#/$defs/account/properties/admin'],
  ['Organisation (`organization`)', '#/properties/organization'],
  ['User of the organisation (`organization.users[]`)', '#/$defs/organizationUser'],
  ['Membership (`accounts[]` of an organisation user)', '#/$defs/organizationUser/properties/accounts/items'],
  ['Permission profile (`permissionProfiles[]` of an account)', '#/$defs/account/properties/permissionProfiles/items'],
  [
    "`settings` of a permission profile (DocuSign's accountRoleSettings)",
    '#/$defs/account/properties/permissionProfiles/items/properties/settings',
  ],
  ['Group (`groups[]` of an account)', '#/$defs/account/properties/groups/items'],
  ['User (`users[]` of an account)', '#/$defs/account/properties/users/items'],
  ['Brand (`brands[]` of an account)', '#/$defs/account/properties/brands/items'],
  ['Colour of a brand (`colors[]`)', '#/$defs/account/properties/brands/items/properties/colors/items'],
  ['`logos` of a brand', '#/$defs/account/properties/brands/items/properties/logos'],
  ['Email text of a brand (`emailContent[]`)', '#/$defs/account/properties/brands/items/properties/emailContent/items'],
  ['Connect configuration (`connect[]` of an account)', '#/$defs/account/properties/connect/items'],
  ['`eventData` of a Connect configuration', '#/$defs/account/properties/connect/items/properties/eventData'],
];

/**
 * The job-file reference of README.md and docs/job-files.md, rendered from
 * schemas/job.schema.json so that it cannot drift from the schema
 * (test/jobs/job-reference.test.ts compares them).
 */
export function renderJobReference(linkBase = '', schema: Record<string, unknown> = jobSchema()): string {
  // A JSON pointer into the schema (#/$defs/account/properties/initialUser).
  const resolve = (ref: string): SchemaNode => {
    let node: unknown = schema;
    for (const segment of ref.replace(/^#\/?/, '').split('/').filter(Boolean))
      node = (node as Record<string, unknown>)[segment];
    return node as SchemaNode;
  };
  const lines: string[] = [
    '<!-- Generated from schemas/job.schema.json by `npm run docs:jobs`. Do not edit by hand. -->',
    '',
    `Job files are YAML, checked against [schemas/job.schema.json](${linkBase}schemas/job.schema.json) (add`,
    '`# yaml-language-server: $schema=<path to>/schemas/job.schema.json` for help in your editor).',
    `The guide (references, \`.env\`, forEach, numbering, limits) is [docs/job-files.md](${linkBase}docs/job-files.md).`,
    'Any text may hold `${env.NAME}`; inside an envelope with `forEach`, `${row.column}` too.',
    `Section numbers (service-api.md 2.3 …) are those of the API description, [test/fixtures/docusign/service-api.md](${linkBase}test/fixtures/docusign/service-api.md).`,
    '',
  ];
  for (const [title, ref] of sections) {
    const node = resolve(ref);
    lines.push(
      `### ${title}`,
      '',
      node.description ?? '',
      '',
      '| field | type | required | description |',
      '|---|---|---|---|',
    );
    for (const [name, raw] of Object.entries(node.properties ?? {})) {
      const property = raw.$ref
        ? { ...resolve(raw.$ref), ...(raw.description ? { description: raw.description } : {}) }
        : raw;
      lines.push(
        `| \`${name}\` | ${typeName(property, resolve)} | ${node.required?.includes(name) ? 'yes' : ''} | ${cell(property.description ?? '')} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

function typeName(node: SchemaNode, resolve: (ref: string) => SchemaNode): string {
  if (node.then && node.else)
    return `${typeName(node.then, resolve)} \\| ${node.else.$ref?.replace('#/$defs/', '') ?? typeName(node.else, resolve)}`;
  if (node.const !== undefined) return `\`${JSON.stringify(node.const)}\``;
  if (node.enum) return node.enum.map((v) => `\`${String(v)}\``).join(' \\| ');
  if (node.$ref) return node.$ref.replace('#/$defs/', '');
  if (node.type === 'array') {
    const items = node.items?.$ref ? node.items.$ref.replace('#/$defs/', '') : typeName(node.items ?? {}, resolve);
    return `list of ${items}`;
  }
  if (node.type === 'integer') return node.minimum === 1 ? 'integer ≥ 1' : 'integer';
  if (Array.isArray(node.type)) return node.type.join(' \\| ');
  return node.type ?? 'any';
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
