import type { RecipientKindName, TabCollection, WireTab } from '../../../../envelope/index.js';
import { tabKind } from '../../../../envelope/tab-kinds.js';

// Responsive signing (Swagger `#/definitions/documentHtmlDefinition`): a
// document may come as HTML in `htmlDefinition.source` instead of
// `documentBase64` (DocuSign's eg038, "Signable HTML document"). Its field
// elements — `<ds-signature data-ds-role="Signer"/>`, `<ds-initials>`,
// `<ds-date-signed>`, `<input data-ds-type="number" name="l1q"/>` — are the
// recipients' tabs:
// https://developers.docusign.com/docs/esign-rest-api/esign101/concepts/responsive/setting-tabs/
//
// The sandbox keeps a PDF of every document, so it renders the HTML as it
// renders any HTML document (pdf/html-blocks.ts), with each field element
// replaced by an anchor text, and gives the field's recipient a tab anchored
// there: the signing page, stamping and tab data then treat it as any tab.

/** One field element of a responsive HTML document, as a tab to give. */
export interface ResponsiveField {
  collection: TabCollection;
  /** The anchor text that stands in the rendered document where the element was. */
  anchorString: string;
  /** `data-ds-role`: the roleName of the recipient it belongs to. */
  role: string | undefined;
  /** `data-ds-recipient-id`. */
  recipientId: string | undefined;
  /** The input's `name` (DocuSign's tabLabel; formulas refer to it). */
  tabLabel: string | undefined;
}

const elementTabs: Readonly<Record<string, TabCollection>> = {
  'ds-signature': tabKind('signHere').collection,
  'ds-initials': tabKind('initialHere').collection,
  'ds-date-signed': tabKind('dateSigned').collection,
};

/** `<input data-ds-type="…">`: the input types DocuSign lists, by the tab each becomes. */
const inputTabs: Readonly<Record<string, TabCollection>> = {
  text: tabKind('text').collection,
  number: tabKind('number').collection,
  email: tabKind('email').collection,
  date: tabKind('date').collection,
  checkbox: tabKind('checkbox').collection,
};

const attribute = (tag: string, name: string): string | undefined => {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s/>]+))`, 'i').exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
};

/**
 * The HTML with its field elements replaced by anchor texts (`/ds<doc>f<n>/`,
 * unique in the envelope: one document's markers are never a part of
 * another's), and the fields. Elements of a kind the sandbox does not know
 * stay as they are (the rendering skips them, as it skips any unknown tag).
 */
export function responsiveHtml(source: string, documentId: string): { html: string; fields: ResponsiveField[] } {
  const fields: ResponsiveField[] = [];
  const html = source.replace(
    /<(ds-signature|ds-initials|ds-date-signed|input)\b[^>]*>(?:\s*<\/\1\s*>)?/gi,
    (tag: string, element: string) => {
      const name = element.toLowerCase();
      const collection =
        name === 'input' ? inputTabs[(attribute(tag, 'data-ds-type') ?? '').toLowerCase()] : elementTabs[name];
      if (collection === undefined) return tag;
      const anchorString = `/ds${documentId}f${fields.length + 1}/`;
      fields.push({
        collection,
        anchorString,
        role: attribute(tag, 'data-ds-role'),
        recipientId: attribute(tag, 'data-ds-recipient-id'),
        tabLabel: name === 'input' ? attribute(tag, 'name') : undefined,
      });
      return ` ${anchorString} `;
    },
  );
  return { html, fields };
}

/** What a field needs of a recipient (definition-parts.ts's IncomingRecipient has it; named here so the two modules do not import each other). */
export interface FieldRecipient {
  kind: RecipientKindName;
  recipientId: string | undefined;
  roleName: string | undefined;
  tabs: Partial<Record<TabCollection, WireTab[]>> | undefined;
}

/**
 * Gives each field to its recipient: the one whose roleName is its
 * `data-ds-role`, or whose recipientId is its `data-ds-recipient-id`; a field
 * that names neither goes to the first recipient who signs (the sandbox's
 * choice: DocuSign asks for the role when there are several signers).
 * Returns a message for a field whose recipient is not in the envelope.
 */
export function assignResponsiveFields(
  fields: readonly ResponsiveField[],
  recipients: FieldRecipient[],
): string | undefined {
  for (const field of fields) {
    const recipient =
      field.role !== undefined
        ? recipients.find((r) => r.roleName !== undefined && r.roleName.toLowerCase() === field.role!.toLowerCase())
        : field.recipientId !== undefined
          ? recipients.find((r) => r.recipientId === field.recipientId)
          : recipients.find((r) => r.kind === 'signer' || r.kind === 'inPersonSigner');
    if (!recipient) {
      const who =
        field.role !== undefined
          ? `data-ds-role="${field.role}"`
          : field.recipientId !== undefined
            ? `data-ds-recipient-id="${field.recipientId}"`
            : 'no recipient named, and no signer';
      return `htmlDefinition: a field of the document (${field.collection}) names a recipient the envelope does not have (${who}).`;
    }
    const tab: WireTab = {
      anchorString: field.anchorString,
      anchorUnits: 'pixels',
      anchorXOffset: '0',
      anchorYOffset: '0',
      ...(field.tabLabel !== undefined ? { tabLabel: field.tabLabel } : {}),
    };
    const tabs = (recipient.tabs ??= {});
    (tabs[field.collection] ??= []).push(tab);
  }
  return undefined;
}
