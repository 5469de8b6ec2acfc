import { builtInPermissionProfiles } from '../../envelope/account-role-settings.js';
import type { ResolvedPermissionProfile } from '../model.js';
import type { AccountEntryKind } from './account-entry-kind.js';

declare module '../raw-job.js' {
  interface RawAccount {
    permissionProfiles?: Array<{ permissionProfileName: string; settings?: Record<string, string | boolean> }>;
  }
}
declare module '../model.js' {
  interface ResolvedAccount {
    /** Permission profiles kept as code in the account (`permissionProfiles:`), names unique (ignoring case). */
    permissionProfiles?: ResolvedPermissionProfile[];
  }
}

/** The permission profile names an entry may refer to: DocuSign's own, then the entry's. */
export function profileNames(resolved: Readonly<{ permissionProfiles?: ResolvedPermissionProfile[] }>): string[] {
  return [...builtInPermissionProfiles, ...(resolved.permissionProfiles ?? []).map((p) => p.permissionProfileName)];
}

/** `permissionProfiles:` of an account entry: settings' booleans become DocuSign's strings. */
export const permissionProfilesEntry = {
  field: 'permissionProfiles',
  schema: {
    type: 'array',
    description:
      'Permission profiles kept as code in this account, found by permissionProfileName (unique per account). Converged before groups and users.',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['permissionProfileName'],
      properties: {
        permissionProfileName: {
          type: 'string',
          description: 'Name of the profile (DocuSign keeps it unique per account, ignoring case).',
          minLength: 1,
          maxLength: 100,
        },
        settings: {
          type: 'object',
          additionalProperties: false,
          description:
            'DocuSign\'s accountRoleSettings the profile must have, as strings or booleans ("true", false, "personalAndShared" …); settings left out are left as the account has them.',
          properties: {
            allowAccountManagement: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowAccountManagement (accountRoleSettings).",
            },
            allowApiAccess: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowApiAccess (accountRoleSettings).",
            },
            allowApiAccessToAccount: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowApiAccessToAccount (accountRoleSettings).",
            },
            allowApiSendingOnBehalfOfOthers: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowApiSendingOnBehalfOfOthers (accountRoleSettings).",
            },
            allowApiSequentialSigning: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowApiSequentialSigning (accountRoleSettings).",
            },
            allowAutoTagging: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowAutoTagging (accountRoleSettings).",
            },
            allowBulkSending: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowBulkSending (accountRoleSettings).",
            },
            allowDocuSignDesktopClient: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowDocuSignDesktopClient (accountRoleSettings).",
            },
            allowedAddressBookAccess: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowedAddressBookAccess (accountRoleSettings).",
            },
            allowedClickwrapsAccess: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowedClickwrapsAccess (accountRoleSettings).",
            },
            allowedTemplateAccess: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowedTemplateAccess (accountRoleSettings).",
            },
            allowedToBeEnvelopeTransferRecipient: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowedToBeEnvelopeTransferRecipient (accountRoleSettings).",
            },
            allowEnvelopeSending: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowEnvelopeSending (accountRoleSettings).",
            },
            allowESealRecipients: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowESealRecipients (accountRoleSettings).",
            },
            allowPowerFormsAdminToAccessAllPowerFormEnvelopes: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowPowerFormsAdminToAccessAllPowerFormEnvelopes (accountRoleSettings).",
            },
            allowSendersToSetRecipientEmailLanguage: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowSendersToSetRecipientEmailLanguage (accountRoleSettings).",
            },
            allowSignerAttachments: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowSignerAttachments (accountRoleSettings).",
            },
            allowSupplementalDocuments: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowSupplementalDocuments (accountRoleSettings).",
            },
            allowTaggingInSendAndCorrect: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowTaggingInSendAndCorrect (accountRoleSettings).",
            },
            allowVaulting: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowVaulting (accountRoleSettings).",
            },
            allowWetSigningOverride: {
              type: ['string', 'boolean'],
              description: "DocuSign's allowWetSigningOverride (accountRoleSettings).",
            },
            canCreateWorkspaces: {
              type: ['string', 'boolean'],
              description: "DocuSign's canCreateWorkspaces (accountRoleSettings).",
            },
            disableDocumentUpload: {
              type: ['string', 'boolean'],
              description: "DocuSign's disableDocumentUpload (accountRoleSettings).",
            },
            disableOtherActions: {
              type: ['string', 'boolean'],
              description: "DocuSign's disableOtherActions (accountRoleSettings).",
            },
            enableApiRequestLogging: {
              type: ['string', 'boolean'],
              description: "DocuSign's enableApiRequestLogging (accountRoleSettings).",
            },
            enableRecipientViewingNotifications: {
              type: ['string', 'boolean'],
              description: "DocuSign's enableRecipientViewingNotifications (accountRoleSettings).",
            },
            enableSequentialSigningInterface: {
              type: ['string', 'boolean'],
              description: "DocuSign's enableSequentialSigningInterface (accountRoleSettings).",
            },
            enableTransactionPointIntegration: {
              type: ['string', 'boolean'],
              description: "DocuSign's enableTransactionPointIntegration (accountRoleSettings).",
            },
            powerFormRole: {
              type: ['string', 'boolean'],
              description: "DocuSign's powerFormRole (accountRoleSettings).",
            },
            receiveCompletedSelfSignedDocumentsAsEmailLinks: {
              type: ['string', 'boolean'],
              description: "DocuSign's receiveCompletedSelfSignedDocumentsAsEmailLinks (accountRoleSettings).",
            },
            supplementalDocumentsMustAccept: {
              type: ['string', 'boolean'],
              description: "DocuSign's supplementalDocumentsMustAccept (accountRoleSettings).",
            },
            supplementalDocumentsMustRead: {
              type: ['string', 'boolean'],
              description: "DocuSign's supplementalDocumentsMustRead (accountRoleSettings).",
            },
            supplementalDocumentsMustView: {
              type: ['string', 'boolean'],
              description: "DocuSign's supplementalDocumentsMustView (accountRoleSettings).",
            },
            useNewDocuSignExperienceInterface: {
              type: ['string', 'boolean'],
              description: "DocuSign's useNewDocuSignExperienceInterface (accountRoleSettings).",
            },
            useNewSendingInterface: {
              type: ['string', 'boolean'],
              description: "DocuSign's useNewSendingInterface (accountRoleSettings).",
            },
            vaultingMode: {
              type: ['string', 'boolean'],
              description: "DocuSign's vaultingMode (accountRoleSettings).",
            },
          },
        },
      },
    },
  },
  resolve: (raw, ctx) =>
    (raw.permissionProfiles ?? []).map((p, i) => ({
      permissionProfileName: ctx.sub(p.permissionProfileName),
      settings: Object.fromEntries(
        Object.entries(p.settings ?? {}).map(([name, value]) => [
          name,
          typeof value === 'boolean' ? String(value) : ctx.sub(value),
        ]),
      ),
      source: ctx.sourceOf(['permissionProfiles', i]),
    })),
  unique: {
    what: 'permission profile',
    name: (p) => p.permissionProfileName,
    field: 'permissionProfileName',
    why: ': DocuSign keeps one per name, ignoring case',
  },
} satisfies AccountEntryKind<ResolvedPermissionProfile>;
