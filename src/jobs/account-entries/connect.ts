import type { ResolvedConnect } from '../model.js';
import type { RawConnect } from '../raw-job.js';
import { resolveConnect } from '../resolve-account-brands.js';
import type { AccountEntryKind } from './account-entry-kind.js';
import { stateProperty } from './account-entry-schema.js';

declare module '../raw-job.js' {
  interface RawAccount {
    connect?: RawConnect[];
  }
}
declare module '../model.js' {
  interface ResolvedAccount {
    /** Connect configurations kept as code (`connect:`), names unique (ignoring case). */
    connect?: ResolvedConnect[];
  }
}

/** `connect:` of an account entry: DocuSign Connect configurations (resolve-account-brands.ts). */
export const connectEntry = {
  field: 'connect',
  schema: {
    type: 'array',
    description:
      "Connect configurations (webhooks) kept as code in this account (DocuSign's connectCustomConfiguration), found by name (ignoring case). Converged after brands. Fields left out are left as they are.",
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'urlToPublishTo'],
      properties: {
        name: {
          type: 'string',
          description: 'Name of the configuration: what it is found by in the account.',
          minLength: 1,
          maxLength: 100,
        },
        urlToPublishTo: {
          type: 'string',
          description: 'The http(s) address Connect posts its messages to.',
          pattern: '^(https?://|\\$\\{env\\.)',
          maxLength: 4000,
        },
        allowEnvelopePublish: {
          type: ['boolean', 'string'],
          pattern: '^(true|false)$',
          description: "Publish (true) or pause (false) the configuration's messages.",
        },
        allUsers: {
          type: ['boolean', 'string'],
          pattern: '^(true|false)$',
          description: 'Publish the events of every user of the account (else only those of userIds).',
        },
        userIds: {
          type: 'array',
          description: 'The users whose envelopes are published, when allUsers is false.',
          items: {
            type: 'string',
            minLength: 1,
          },
        },
        events: {
          type: 'array',
          description:
            "Connect 2.1's events: envelope-sent, envelope-delivered, envelope-completed, envelope-declined, envelope-voided, recipient-sent, recipient-completed, …",
          items: {
            type: 'string',
            minLength: 1,
          },
        },
        eventData: {
          type: 'object',
          additionalProperties: false,
          description:
            "Connect 2.1's message format: `{ version: restv2.1, format: json, includeData: [recipients, documents, tabs, custom_fields, …] }`.",
          properties: {
            version: {
              type: 'string',
              description: 'The message version: `restv2.1`.',
              minLength: 1,
            },
            format: {
              type: 'string',
              description: 'The message format: `json`.',
              minLength: 1,
            },
            includeData: {
              type: 'array',
              description:
                "What each message carries besides the envelope's summary: `recipients`, `documents`, `tabs`, `custom_fields`, `extensions`, …",
              items: {
                type: 'string',
                minLength: 1,
              },
            },
          },
        },
        envelopeEvents: {
          type: 'array',
          description:
            'The legacy envelope events (Sent, Delivered, Completed, Declined, Voided), when events is not given.',
          items: {
            type: 'string',
            minLength: 1,
          },
        },
        recipientEvents: {
          type: 'array',
          description:
            'The legacy recipient events (Sent, Delivered, Completed, Declined, AuthenticationFailed, AutoResponded).',
          items: {
            type: 'string',
            minLength: 1,
          },
        },
        includeHMAC: {
          type: ['boolean', 'string'],
          pattern: '^(true|false)$',
          description:
            "Sign each message with the account's Connect HMAC keys (the keys themselves are made in DocuSign's settings, never sent).",
        },
        requireMutualTls: {
          type: ['boolean', 'string'],
          pattern: '^(true|false)$',
          description: 'Require mutual TLS of the listener.',
        },
        requiresAcknowledgement: {
          type: ['boolean', 'string'],
          pattern: '^(true|false)$',
          description: 'Retry a message until the listener acknowledges it.',
        },
        enableLog: {
          type: ['boolean', 'string'],
          pattern: '^(true|false)$',
          description: "Keep Connect's log of the configuration.",
        },
        includeDocuments: {
          type: ['boolean', 'string'],
          pattern: '^(true|false)$',
          description: 'Include the documents in each message.',
        },
        includeCertificateOfCompletion: {
          type: ['boolean', 'string'],
          pattern: '^(true|false)$',
          description: 'Include the certificate of completion.',
        },
        includeDocumentFields: {
          type: ['boolean', 'string'],
          pattern: '^(true|false)$',
          description: "Include the documents' fields.",
        },
        includeEnvelopeVoidReason: {
          type: ['boolean', 'string'],
          pattern: '^(true|false)$',
          description: 'Include the reason of a voided envelope.',
        },
        includeTimeZoneInformation: {
          type: ['boolean', 'string'],
          pattern: '^(true|false)$',
          description: 'Include time zone information.',
        },
        userName: {
          type: 'string',
          description: "User name of the listener's basic authentication.",
          minLength: 1,
          maxLength: 100,
        },
        password: {
          type: 'string',
          description:
            "Password of the listener's basic authentication: only ever `${env.NAME}`. Sent on create and update, never written by signrun (the journal keeps a digest).",
          minLength: 1,
        },
        state: stateProperty('creates the configuration when missing and puts back what differs', 'deletes it'),
      },
    },
  },
  resolve: (raw, ctx) => resolveConnect(raw, ctx.base, ctx.job, ctx.sub),
  unique: {
    what: 'Connect configuration',
    name: (c) => c.name,
    field: 'name',
    why: ': signrun finds it by name, ignoring case, and keeps one per name',
  },
} satisfies AccountEntryKind<ResolvedConnect>;
