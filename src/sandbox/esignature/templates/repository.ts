import type { RecipientKindName, Tabs } from '../../../envelope/index.js';
import type { SandboxDatabase } from '../../platform/db/open-database.js';
import type { RecipientDetails } from '../envelopes/wire/envelope-definition.js';

/** A stored template: made by a seed or through the API (Templates_PostTemplates). */
export interface TemplateRecord {
  id: string;
  accountId: string;
  name: string;
  description: string | null;
  emailSubject: string | null;
  emailBlurb: string | null;
  /** The user who created it; null for a seed's template. */
  ownerUserId: string | null;
  createdAt: number;
  /** Last change (Templates_PutTemplate); equals createdAt until then. */
  lastModifiedAt: number;
  /** Its text custom fields (`customFields.textCustomFields`), in order. */
  customFields: TemplateCustomField[];
}

/** A text custom field of a template (Swagger `#/definitions/textCustomField`, the fields the sandbox keeps). */
export interface TemplateCustomField {
  name: string;
  value: string;
  show: string;
}

/** A document of a template (a PDF: other kinds are converted at intake); its bytes are in the blob store. */
export interface TemplateDocumentRecord {
  documentId: string;
  position: number;
  name: string;
  sha256: string;
  size: number;
  pages: number | null;
}

/**
 * What a template says of one of its recipients beyond the role: a fixed
 * recipient's name and email (a carbon copy every envelope gets), an
 * embedded one's clientUserId, the kind's own fields, its message.
 */
export interface TemplateRecipientFixed {
  name?: string;
  email?: string;
  clientUserId?: string;
  details?: RecipientDetails;
  emailSubject?: string;
  emailBody?: string;
  supportedLanguage?: string;
}

/**
 * A recipient of a template (a role when it has a roleName), in template
 * order. routingOrder is a string holding a number (2.6). A seed's roles
 * are signers with nothing fixed.
 */
export interface TemplateRoleRecord {
  position: number;
  recipientId: string;
  roleName: string;
  routingOrder: string;
  tabs: Tabs;
  kind: RecipientKindName;
  fixed: TemplateRecipientFixed;
  /** scrypt hash of the recipient's access code, copied to the envelopes made from the template. */
  accessCodeHash: string | null;
}

/** One page of the template listing (Templates_GetTemplates). */
export interface TemplateListing {
  total: number;
  templates: TemplateRecord[];
}

export type TemplatesRepository = ReturnType<typeof templatesRepository>;

function templateOf(r: Record<string, unknown>): TemplateRecord {
  const createdAt = r['created_at'] as number;
  return {
    id: r['id'] as string,
    accountId: r['account_id'] as string,
    name: r['name'] as string,
    description: r['description'] as string | null,
    emailSubject: r['email_subject'] as string | null,
    emailBlurb: r['email_blurb'] as string | null,
    ownerUserId: r['owner_user_id'] as string | null,
    createdAt,
    lastModifiedAt: (r['last_modified_at'] as number | null) ?? createdAt,
    customFields: JSON.parse((r['custom_fields_json'] as string | null) ?? '[]') as TemplateCustomField[],
  };
}

/** LIKE's wildcards in a search text taken literally (DocuSign's search_text is a plain substring). */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function templatesRepository(db: SandboxDatabase) {
  const live = 'deleted_at IS NULL';
  const q = {
    template: db.prepare<[string, string], Record<string, unknown>>(
      `SELECT * FROM templates WHERE id = ? COLLATE NOCASE AND account_id = ? AND ${live}`,
    ),
    count: db.prepare<[string, string], { n: number }>(
      `SELECT COUNT(*) AS n FROM templates WHERE account_id = ? AND ${live} AND name LIKE ? ESCAPE '\\'`,
    ),
    page: db.prepare<[string, string, number, number], Record<string, unknown>>(
      `SELECT * FROM templates WHERE account_id = ? AND ${live} AND name LIKE ? ESCAPE '\\'
       ORDER BY name COLLATE NOCASE, created_at, id LIMIT ? OFFSET ?`,
    ),
    documents: db.prepare<[string], Record<string, unknown>>(
      'SELECT * FROM template_documents WHERE template_id = ? ORDER BY position',
    ),
    roles: db.prepare<[string], Record<string, unknown>>(
      'SELECT * FROM template_roles WHERE template_id = ? ORDER BY position',
    ),
    insertTemplate: db.prepare(
      `INSERT INTO templates (id, account_id, name, description, email_subject, email_blurb, owner_user_id, created_at, last_modified_at, custom_fields_json)
       VALUES (@id, @accountId, @name, @description, @emailSubject, @emailBlurb, @ownerUserId, @createdAt, @lastModifiedAt, @customFieldsJson)`,
    ),
    updateTemplate: db.prepare(
      `UPDATE templates SET name = @name, description = @description, email_subject = @emailSubject,
       email_blurb = @emailBlurb, last_modified_at = @lastModifiedAt, custom_fields_json = @customFieldsJson WHERE id = @id`,
    ),
    deleteTemplate: db.prepare<[number, string]>('UPDATE templates SET deleted_at = ? WHERE id = ?'),
    insertDocument: db.prepare(
      'INSERT INTO template_documents (template_id, document_id, position, name, sha256, size, pages) VALUES (@templateId, @documentId, @position, @name, @sha256, @size, @pages)',
    ),
    deleteDocuments: db.prepare<[string]>('DELETE FROM template_documents WHERE template_id = ?'),
    insertRole: db.prepare(
      `INSERT INTO template_roles (template_id, position, recipient_id, role_name, routing_order, tabs_json, kind, details_json, access_code_hash)
       VALUES (@templateId, @position, @recipientId, @roleName, @routingOrder, @tabsJson, @kind, @detailsJson, @accessCodeHash)`,
    ),
    deleteRoles: db.prepare<[string]>('DELETE FROM template_roles WHERE template_id = ?'),
  };
  const insertParts = (templateId: string, documents: TemplateDocumentRecord[], roles: TemplateRoleRecord[]) => {
    for (const d of documents) q.insertDocument.run({ ...d, templateId });
    for (const r of roles)
      q.insertRole.run({
        templateId,
        position: r.position,
        recipientId: r.recipientId,
        roleName: r.roleName,
        routingOrder: r.routingOrder,
        tabsJson: JSON.stringify(r.tabs),
        kind: r.kind,
        detailsJson: JSON.stringify(r.fixed),
        accessCodeHash: r.accessCodeHash,
      });
  };
  return {
    /** The template if it belongs to `accountId` and is not deleted (ids compared without case, as GUIDs are). */
    get(accountId: string, templateId: string): TemplateRecord | undefined {
      const r = q.template.get(templateId, accountId);
      return r && templateOf(r);
    },
    /** The account's templates whose name contains `searchText` (any case), by name, one page of them. */
    list(accountId: string, options: { searchText: string; startPosition: number; count: number }): TemplateListing {
      const pattern = likePattern(options.searchText);
      return {
        total: q.count.get(accountId, pattern)!.n,
        templates: q.page.all(accountId, pattern, options.count, options.startPosition).map(templateOf),
      };
    },
    documents(templateId: string): TemplateDocumentRecord[] {
      return q.documents.all(templateId).map((r) => ({
        documentId: r['document_id'] as string,
        position: r['position'] as number,
        name: r['name'] as string,
        sha256: r['sha256'] as string,
        size: r['size'] as number,
        pages: r['pages'] as number | null,
      }));
    },
    roles(templateId: string): TemplateRoleRecord[] {
      return q.roles.all(templateId).map((r) => ({
        position: r['position'] as number,
        recipientId: r['recipient_id'] as string,
        roleName: r['role_name'] as string,
        routingOrder: r['routing_order'] as string,
        tabs: JSON.parse(r['tabs_json'] as string) as Tabs,
        kind: r['kind'] as RecipientKindName,
        fixed: JSON.parse(r['details_json'] as string) as TemplateRecipientFixed,
        accessCodeHash: r['access_code_hash'] as string | null,
      }));
    },
    insert(template: TemplateRecord, documents: TemplateDocumentRecord[], roles: TemplateRoleRecord[]): void {
      db.transaction(() => {
        const { customFields, ...fields } = template;
        q.insertTemplate.run({ ...fields, customFieldsJson: JSON.stringify(customFields) });
        insertParts(template.id, documents, roles);
      })();
    },
    /**
     * Replaces what a PUT changed: the template's fields always, its
     * documents and recipients when given (undefined keeps them).
     */
    update(
      template: TemplateRecord,
      documents: TemplateDocumentRecord[] | undefined,
      roles: TemplateRoleRecord[] | undefined,
    ): void {
      db.transaction(() => {
        const { customFields, ...fields } = template;
        q.updateTemplate.run({ ...fields, customFieldsJson: JSON.stringify(customFields) });
        if (documents) q.deleteDocuments.run(template.id);
        if (roles) q.deleteRoles.run(template.id);
        insertParts(template.id, documents ?? [], roles ?? []);
      })();
    },
    /** Moves the template to the recycle bin: gone from the API; envelopes made from it keep their own copies. */
    delete(templateId: string, now: number): void {
      q.deleteTemplate.run(now, templateId);
    },
  };
}
