/**
 * The settings of a permission profile, as DocuSign names them
 * (`#/definitions/accountRoleSettings` of the v2.1 Swagger, without the
 * `…Metadata` companions, which DocuSign writes itself). Read by the job
 * schema's check of `permissionProfiles[].settings` and by the sandbox,
 * which keeps these and drops what DocuSign would not know.
 * test/envelope/account-role-settings.test.ts checks every name against the Swagger.
 */
export const accountRoleSettingNames = [
  'allowAccountManagement',
  'allowApiAccess',
  'allowApiAccessToAccount',
  'allowApiSendingOnBehalfOfOthers',
  'allowApiSequentialSigning',
  'allowAutoTagging',
  'allowBulkSending',
  'allowDocuSignDesktopClient',
  'allowedAddressBookAccess',
  'allowedClickwrapsAccess',
  'allowedTemplateAccess',
  'allowedToBeEnvelopeTransferRecipient',
  'allowEnvelopeSending',
  'allowESealRecipients',
  'allowPowerFormsAdminToAccessAllPowerFormEnvelopes',
  'allowSendersToSetRecipientEmailLanguage',
  'allowSignerAttachments',
  'allowSupplementalDocuments',
  'allowTaggingInSendAndCorrect',
  'allowVaulting',
  'allowWetSigningOverride',
  'canCreateWorkspaces',
  'disableDocumentUpload',
  'disableOtherActions',
  'enableApiRequestLogging',
  'enableRecipientViewingNotifications',
  'enableSequentialSigningInterface',
  'enableTransactionPointIntegration',
  'powerFormRole',
  'receiveCompletedSelfSignedDocumentsAsEmailLinks',
  'supplementalDocumentsMustAccept',
  'supplementalDocumentsMustRead',
  'supplementalDocumentsMustView',
  'useNewDocuSignExperienceInterface',
  'useNewSendingInterface',
  'vaultingMode',
] as const;

export type AccountRoleSettingName = (typeof accountRoleSettingNames)[number];

/** A permission profile's settings as DocuSign answers them: every value a string ("true", "personalAndShared" …). */
export type AccountRoleSettings = Partial<Record<AccountRoleSettingName, string>>;

const known = new Set<string>(accountRoleSettingNames);

/** Whether DocuSign knows a setting of this name. */
export function isAccountRoleSetting(name: string): name is AccountRoleSettingName {
  return known.has(name);
}

/**
 * The permission profiles DocuSign gives every account, and the groups:
 * names a job file may use without defining them.
 */
export const builtInPermissionProfiles = ['Account Administrator', 'DocuSign Sender', 'DocuSign Viewer'] as const;
export const builtInGroups = ['Administrators', 'Everyone'] as const;

/** Case-insensitive (ASCII, as the sandbox's SQLite NOCASE), as DocuSign compares profile and group names. */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
