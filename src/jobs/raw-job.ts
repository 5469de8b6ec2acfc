import type { TabCollection } from '../envelope/index.js';

/**
 * The shape of a job file once it has passed schemas/job.schema.json: what
 * the YAML says, before references are substituted and ids numbered. Kept
 * by hand beside schemas/job.schema.json: change both together.
 */
export interface RawJobFile {
  version: 1;
  job: string;
  description?: string;
  defaults?: RawEnvelopeDefaults;
  envelopes?: RawEnvelope[];
  accounts?: RawAccount[];
}

export interface RawEnvelopeDefaults {
  emailSubject?: string;
  emailBlurb?: string;
  status?: 'sent' | 'created' | 'voided';
  voidedReason?: string;
  returnUrl?: string;
  eventNotification?: { url: string };
  notification?: RawNotification;
  customFields?: Array<{ name: string; value: string }>;
}

/** DocuSign's `notification` object as a job file writes it (numbers and booleans, not DocuSign's strings). */
export interface RawNotification {
  reminders?: { reminderEnabled?: boolean; reminderDelay?: number; reminderFrequency?: number };
  expirations?: { expireEnabled?: boolean; expireAfter?: number; expireWarn?: number };
}

export interface RawEnvelope extends RawEnvelopeDefaults {
  key: string;
  forEach?: { csv?: string; items?: Array<Record<string, string | number | boolean>> };
  documents?: RawDocument[];
  recipients?: RawSigner[];
  templateId?: string;
  templateRoles?: RawRole[];
}

export interface RawDocument {
  name?: string;
  documentId?: number;
  file: string;
}

export interface RawSigner {
  name: string;
  email: string;
  recipientId?: number;
  clientUserId?: string;
  routingOrder?: number;
  supportedLanguage?: string;
  emailSubject?: string;
  emailBody?: string;
  tabs?: RawTabs;
}

/**
 * A recipient's `tabs`: signrun's list form (sign-here tabs, the
 * catalogue's shorthandTabKind) or DocuSign's object form, one list per tab
 * collection (src/envelope/tab-kinds.ts). Read both with `writtenTabs`.
 */
export type RawTabs = RawTab[] | { [C in TabCollection]?: RawTab[] };

/** A tab as a job file writes it: placed by position or by anchor (numbers and booleans as YAML values or strings). */
export interface RawTab {
  documentId?: number | string;
  pageNumber?: number | string;
  xPosition?: number | string;
  yPosition?: number | string;
  anchorString?: string;
  anchorXOffset?: number | string;
  anchorYOffset?: number | string;
  anchorUnits?: string;
  anchorIgnoreIfNotPresent?: boolean | string;
  anchorCaseSensitive?: boolean | string;
  anchorMatchWholeWord?: boolean | string;
  value?: string | number | boolean;
}

export interface RawRole {
  roleName: string;
  name: string;
  email: string;
  clientUserId?: string;
  routingOrder?: number;
}

export interface RawAccount {
  key: string;
  state?: 'present' | 'absent';
  accountName: string;
  accountId?: string;
  userId?: string;
  initialUser?: {
    email: string;
    userName?: string;
    firstName?: string;
    lastName?: string;
    middleName?: string;
    suffixName?: string;
    title?: string;
    password: string;
  };
  planInformation?: { planId: string };
  addressInformation?: Partial<
    Record<'address1' | 'address2' | 'city' | 'country' | 'fax' | 'phone' | 'postalCode' | 'state', string>
  >;
}
