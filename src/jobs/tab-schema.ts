import {
  anchorFields,
  positionFields,
  tabKind,
  tabKinds,
  type TabFieldType,
  type TabKind,
  type TabValueType,
} from '../envelope/index.js';

/**
 * The object form of `tabs` in schemas/job.schema.json, generated from the
 * tab catalogue (src/envelope/tab-kinds.ts): one `$defs` entry per kind
 * (`tab_<kind>`), keyed by DocuSign's collections in `tabsObject`. `npm run
 * docs:jobs` writes these definitions into the schema;
 * test/envelope/catalogues.test.ts fails when the schema and the catalogue
 * disagree. Numbers and booleans may be YAML values or DocuSign's strings
 * (`"150"`, `"true"`), and every string may hold `${row.*}` / `${env.*}`:
 * what a string must hold after substitution is checked by validation.
 */
export function tabSchemaDefs(): Record<string, object> {
  const examples = (['signHere', 'text', 'checkbox'] as const).map((k) => `\`${tabKind(k).collection}\``).join(', ');
  const defs: Record<string, object> = {
    recipientTabs: {
      description: `Tabs of this recipient: a list (sign-here tabs placed by position, signrun's shorthand) or an object keyed by DocuSign's tab collections (${examples}, …), each a list of tabs placed by position or by anchor. Empty or absent: the signer places the signature in the signing interface.`,
      if: { type: 'array' },
      then: { type: 'array', items: { $ref: '#/$defs/signHereTab' } },
      else: { $ref: '#/$defs/tabsObject' },
    },
    tabsObject: {
      type: 'object',
      additionalProperties: false,
      description:
        "Tabs by DocuSign's collections (Swagger `#/definitions/EnvelopeRecipientTabs`). Each tab is placed by position (`documentId`, `pageNumber`, `xPosition`, `yPosition`) or by anchor (`anchorString` and its options); a template role's tabs fill the template's tabs of the same `tabLabel`.",
      properties: Object.fromEntries(
        tabKinds.map((kind) => [
          kind.collection,
          {
            type: 'array',
            description: `${capitalised(kind.words.one)} tabs (DocuSign's \`#/definitions/${kind.definition}\`). ${valueNote[kind.valueType]}`,
            items: { $ref: `#/$defs/tab_${kind.name}` },
          },
        ]),
      ),
    },
    listItem: {
      type: 'object',
      additionalProperties: false,
      required: ['text'],
      description: 'An option of a list tab (`#/definitions/listItem`).',
      properties: {
        text: { type: 'string', description: 'Text shown for the option.' },
        value: { type: 'string', description: 'Value of the option (the text when absent).' },
        selected: { ...fieldSchema('boolean'), description: 'The option chosen before sending (at most one).' },
      },
    },
    radio: {
      type: 'object',
      additionalProperties: false,
      required: ['value'],
      description:
        "A radio button of a radio group (`#/definitions/radio`), placed by position (`pageNumber`, `xPosition`, `yPosition` on the group's document) or by anchor.",
      properties: {
        ...placeProperties(false),
        value: { type: 'string', description: 'Value the group takes when this radio is selected.' },
        selected: { ...fieldSchema('boolean'), description: 'Selected before sending (at most one radio of a group).' },
        locked: { ...fieldSchema('boolean'), description: fieldDescriptions['locked'] },
        required: { ...fieldSchema('boolean'), description: fieldDescriptions['required'] },
        font: { ...fieldSchema('string'), description: fieldDescriptions['font'] },
        fontSize: { ...fieldSchema('string'), description: fieldDescriptions['fontSize'] },
        bold: { ...fieldSchema('boolean'), description: fieldDescriptions['bold'] },
      },
    },
  };
  const fieldTypes = new Map<string, TabFieldType>(Object.entries({ ...positionFields, ...anchorFields }));
  for (const kind of tabKinds) for (const [field, type] of Object.entries(kind.fields)) fieldTypes.set(field, type);
  for (const [field, type] of fieldTypes) {
    defs[`tabField_${field}`] = {
      ...fieldSchema(type),
      description: fieldDescriptions[field] ?? `DocuSign's \`${field}\`.`,
    };
  }
  for (const kind of tabKinds) {
    const radio = kind.valueType === 'radio';
    defs[`tab_${kind.name}`] = {
      type: 'object',
      additionalProperties: false,
      ...(radio ? { required: ['groupName', 'radios'] } : {}),
      description: `${capitalised(`${kind.words.article} ${kind.words.one}`)} tab (\`#/definitions/${kind.definition}\`): ${fillerNote[kind.filledBy]} ${valueNote[kind.valueType]} Default size ${kind.defaultSize.width} × ${kind.defaultSize.height} points.`,
      properties: {
        // A radio group names its document; each radio has the rest of the place.
        ...(radio ? { documentId: placeProperties(true)['documentId'] } : placeProperties(true)),
        // Each field once in `$defs` (tabField_<name>), referenced by every kind that has it: 27 kinds
        // repeating their fields made the compiled validator five times the size, and every start slower.
        ...Object.fromEntries(Object.keys(kind.fields).map((field) => [field, { $ref: `#/$defs/tabField_${field}` }])),
      },
    };
  }
  return defs;
}

/** The names of the definitions tabSchemaDefs writes. */
export function tabSchemaDefNames(): string[] {
  return Object.keys(tabSchemaDefs());
}

function fieldSchema(type: TabFieldType): Record<string, unknown> {
  switch (type) {
    case 'string':
      return { type: 'string' };
    case 'integer':
      return { type: ['integer', 'string'] };
    case 'number':
      return { type: ['number', 'string'] };
    case 'boolean':
      return { type: ['boolean', 'string'] };
    case 'list-items':
      return { type: 'array', items: { $ref: '#/$defs/listItem' } };
    case 'radios':
      return { type: 'array', minItems: 1, items: { $ref: '#/$defs/radio' } };
  }
}

function placeProperties(withDocument: boolean): Record<string, object> {
  const fields: Record<string, TabFieldType> = { ...positionFields, ...anchorFields };
  if (!withDocument) delete fields['documentId'];
  return Object.fromEntries(Object.keys(fields).map((field) => [field, { $ref: `#/$defs/tabField_${field}` }]));
}

const fieldDescriptions: Record<string, string> = {
  documentId: 'Document on which the tab is placed. Default: the first document.',
  pageNumber: 'Page of the document, from 1 (placed by position).',
  xPosition: 'Horizontal position in points from the left edge (placed by position).',
  yPosition: 'Vertical position in points from the top edge (placed by position).',
  anchorString:
    "Places the tab at every occurrence of this text in the envelope's documents (checked by `validate`: SR_ANCHOR_NOT_FOUND).",
  anchorXOffset: 'Horizontal offset from the anchor text, in `anchorUnits`.',
  anchorYOffset: 'Vertical offset from the anchor text, in `anchorUnits`.',
  anchorUnits: 'Units of the offsets: `pixels` (default; a point), `inches`, `mms`, `cms`.',
  anchorIgnoreIfNotPresent: 'true: no error when no document holds the anchor text.',
  anchorCaseSensitive: 'true: the anchor text matches only in the same case. Default false.',
  anchorMatchWholeWord: 'true: the anchor text matches only whole words. Default false.',
  tabLabel: "Label of the tab; a template role's tab fills the template's tab of this label.",
  value: 'Value given before sending (checked against the kind: number, date, list option, maxLength, pattern).',
  locked: 'true: the recipient cannot change the value.',
  required: 'true: the recipient must fill the tab before finishing.',
  width: "Width in points. Default: the kind's size.",
  height: "Height in points. Default: the kind's size.",
  font: 'Font of the value, e.g. helvetica.',
  fontSize: 'Font size, e.g. size11.',
  bold: 'true: the value is written in bold.',
  tooltip: 'Text shown when the recipient points at the tab.',
  optional: 'true: the recipient may leave it out.',
  scaleValue: 'Scale of the signature or initials, 0.5 to 2.',
  maxLength: 'Most characters the value may hold.',
  validationPattern: 'Regular expression the value must match.',
  validationMessage: 'Message shown when the value does not match validationPattern.',
  shared: 'true: every recipient shares the tab.',
  selected: 'true: ticked before sending.',
  listItems: 'The options of the list: [{text, value, selected}].',
  groupName: 'Name of the radio group (its label).',
  radios: 'The radio buttons of the group: [{value, selected, position or anchor}].',
  formula: 'Formula DocuSign computes the value from, e.g. [Salary] * 12.',
  roundDecimalPlaces: 'Decimal places of the computed value.',
  buttonText: 'Text of the button.',
  declineReason: 'Reason for declining, asked of the recipient.',
  useDash4: 'true: a ZIP+4 code (12345-6789).',
};

const valueNote: Record<TabValueType, string> = {
  none: 'No value.',
  text: 'Its value is text.',
  number: 'Its value is a number.',
  date: 'Its value is a date.',
  boolean: 'Ticked or not (`selected`).',
  list: 'Its value is one of its `listItems`.',
  radio: 'Its value is the selected radio of `radios`.',
  formula: 'Its value is computed from `formula`.',
};

const fillerNote: Record<TabKind['filledBy'], string> = {
  recipient: 'filled by the recipient.',
  service: 'filled by DocuSign.',
  nobody: 'written by the sender.',
};

/** A sentence's first word with its capital ("an SSN" → "An SSN"). */
function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
