/**
 * The one product the sandbox emulates: eSignature, whose permission
 * profiles are the account's own. Its id is the sandbox's (a fixed GUID);
 * CLM and DocuSign's other products are not emulated.
 */
export const esignProduct = { id: '5c2f8e1a-7d4b-4e39-b6a0-3f1d9c8e2a10', name: 'ESign' } as const;
