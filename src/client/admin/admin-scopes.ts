/**
 * The scopes of DocuSign's Admin API that signrun asks the JWT grant for
 * when a job keeps an organisation (DESIGN.md: the organisation's accounts,
 * their creation and clones, users and their imports), beside the
 * eSignature ones. The user (or the organisation for them) must have
 * consented to them.
 */
export const adminJwtScopes = [
  'organization_read',
  'user_read',
  'user_write',
  'account_read',
  'account_write',
  'group_read',
  'permission_read',
  'asset_group_account_read',
  'asset_group_account_clone_read',
  'asset_group_account_clone_write',
  'organization_sub_account_read',
  'organization_sub_account_write',
] as const;
