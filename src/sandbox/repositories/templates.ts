import type { Tabs } from '../../envelope/index.js';
import type { SandboxDatabase } from '../db/open-database.js';

/** A stored template (read-only over the API; created by seeds). */
export interface TemplateRecord {
  id: string;
  accountId: string;
  name: string;
  emailSubject: string | null;
  emailBlurb: string | null;
  createdAt: number;
}

/** A document of a template; its bytes are in the blob store. */
export interface TemplateDocumentRecord {
  documentId: string;
  position: number;
  name: string;
  sha256: string;
  size: number;
  pages: number | null;
}

/** A signer role of a template, in template order. routingOrder is a string holding a number (2.6). */
export interface TemplateRoleRecord {
  position: number;
  recipientId: string;
  roleName: string;
  routingOrder: string;
  tabs: Tabs;
}

export type TemplatesRepository = ReturnType<typeof templatesRepository>;

export function templatesRepository(db: SandboxDatabase) {
  const q = {
    template: db.prepare<[string, string], Record<string, unknown>>(
      'SELECT * FROM templates WHERE id = ? COLLATE NOCASE AND account_id = ?',
    ),
    documents: db.prepare<[string], Record<string, unknown>>(
      'SELECT * FROM template_documents WHERE template_id = ? ORDER BY position',
    ),
    roles: db.prepare<[string], Record<string, unknown>>(
      'SELECT * FROM template_roles WHERE template_id = ? ORDER BY position',
    ),
    insertTemplate: db.prepare(
      'INSERT INTO templates (id, account_id, name, email_subject, email_blurb, created_at) VALUES (@id, @accountId, @name, @emailSubject, @emailBlurb, @createdAt)',
    ),
    insertDocument: db.prepare(
      'INSERT INTO template_documents (template_id, document_id, position, name, sha256, size, pages) VALUES (@templateId, @documentId, @position, @name, @sha256, @size, @pages)',
    ),
    insertRole: db.prepare(
      'INSERT INTO template_roles (template_id, position, recipient_id, role_name, routing_order, tabs_json) VALUES (@templateId, @position, @recipientId, @roleName, @routingOrder, @tabsJson)',
    ),
  };
  return {
    /** The template if it belongs to `accountId` (ids compared without case, as GUIDs are). */
    get(accountId: string, templateId: string): TemplateRecord | undefined {
      const r = q.template.get(templateId, accountId);
      if (!r) return undefined;
      return {
        id: r['id'] as string,
        accountId: r['account_id'] as string,
        name: r['name'] as string,
        emailSubject: r['email_subject'] as string | null,
        emailBlurb: r['email_blurb'] as string | null,
        createdAt: r['created_at'] as number,
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
      }));
    },
    insert(template: TemplateRecord, documents: TemplateDocumentRecord[], roles: TemplateRoleRecord[]): void {
      q.insertTemplate.run({ ...template });
      for (const d of documents) q.insertDocument.run({ ...d, templateId: template.id });
      for (const r of roles) q.insertRole.run({ ...r, templateId: template.id, tabsJson: JSON.stringify(r.tabs) });
    },
  };
}
