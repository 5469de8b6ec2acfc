// DocuSign's envelope model, shared by the job loader, the client, the runner and the sandbox. Only re-exports.
export * from './tab-kinds.js';
export * from './recipient-kinds.js';
export type * from './wire.js';
export { recipientsByKind, recipientsObject, tabsByKind, tabsObject } from './wire.js';
export * from './statuses.js';
export * from './tab-readings.js';
export * from './tab-value-rules.js';
export * from './routing-turn.js';
export * from './field-limits.js';
export * from './template-roles.js';
export * from './account-role-settings.js';
export * from './archive-names.js';
export * from './brand-logo.js';
export * from './docgen-fields.js';
export * from './docgen-format.js';
