import type { ResolvedBrand } from '../model.js';
import type { RawBrand } from '../raw-job.js';
import { resolveBrands } from '../resolve-account-brands.js';
import type { AccountEntryKind } from './account-entry-kind.js';
import { stateProperty } from './account-entry-schema.js';

declare module '../raw-job.js' {
  interface RawAccount {
    brands?: RawBrand[];
  }
}
declare module '../model.js' {
  interface ResolvedAccount {
    /** Brands kept as code (`brands:`), names unique (ignoring case); logos read and checked. */
    brands?: ResolvedBrand[];
  }
}

/** `brands:` of an account entry: logos read and checked (resolve-account-brands.ts). */
export const brandsEntry = {
  field: 'brands',
  schema: {
    type: 'array',
    description:
      "Brands kept as code in this account (DocuSign's brand), found by brandName (ignoring case). Converged after users. Fields left out are left as they are in the account.",
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['brandName'],
      properties: {
        brandName: {
          type: 'string',
          description:
            'Name of the brand: what it is found by in the account (kept unique by signrun: DocuSign does not refuse a second brand of a name).',
          minLength: 1,
          maxLength: 100,
        },
        brandCompany: {
          type: 'string',
          description: 'The company name the brand shows.',
          minLength: 1,
          maxLength: 100,
        },
        colors: {
          type: 'array',
          description:
            "DocuSign's brand colours (`headerBackground`, `headerText`, `buttonPrimaryBackground`, `buttonPrimaryText`, …), each `#rrggbb`. Given: exactly these.",
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'value'],
            properties: {
              name: {
                type: 'string',
                description:
                  "DocuSign's colour name (`headerBackground`, `headerText`, `buttonPrimaryBackground`, `buttonPrimaryText`, …).",
                minLength: 1,
                maxLength: 100,
              },
              value: {
                type: 'string',
                description: 'The colour, `#rrggbb`.',
                pattern: '^#[0-9a-fA-F]{6}$',
              },
            },
          },
        },
        logos: {
          type: 'object',
          additionalProperties: false,
          description:
            "The brand's logos: image files (PNG, JPEG or GIF, checked by their bytes), relative to the job file and inside its folder. Compared with the account's by sha256; a logo left out is left as it is.",
          properties: {
            primary: {
              type: 'string',
              description: 'The primary logo (the signing page and the sending screens).',
              minLength: 1,
            },
            secondary: {
              type: 'string',
              description: 'The secondary logo.',
              minLength: 1,
            },
            email: {
              type: 'string',
              description: "The logo of the brand's email messages.",
              minLength: 1,
            },
          },
        },
        emailContent: {
          type: 'array',
          description:
            "DocuSign's brand email texts (brandEmailContent): one per emailContentType (`envelopeActivation`, `envelopeComplete`, `envelopeReminder`, `expiringEnvelope`, …). Given: exactly these.",
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['emailContentType', 'content'],
            properties: {
              emailContentType: {
                type: 'string',
                description:
                  'Which message the text is for (`envelopeActivation`, `envelopeComplete`, `envelopeReminder`, `expiringEnvelope`, …).',
                minLength: 1,
              },
              content: {
                type: 'string',
                description: 'The text.',
                maxLength: 10000,
              },
              emailToLink: {
                type: 'string',
                description: 'An address the message links to.',
              },
              linkText: {
                type: 'string',
                description: 'The text of that link.',
              },
            },
          },
        },
        isSendingDefault: {
          type: ['boolean', 'string'],
          pattern: '^(true|false)$',
          description: "The account's default brand for sending (envelopes without a brandId).",
        },
        isSigningDefault: {
          type: ['boolean', 'string'],
          pattern: '^(true|false)$',
          description: "The account's default brand for signing.",
        },
        state: stateProperty('creates the brand when missing and puts back what differs', 'deletes it'),
      },
    },
  },
  resolve: (raw, ctx) => resolveBrands(raw, ctx.base, ctx.job, ctx.sub),
  unique: {
    what: 'brand',
    name: (b) => b.brandName,
    field: 'brandName',
    why: ': signrun finds it by name, ignoring case, and keeps one per name',
  },
} satisfies AccountEntryKind<ResolvedBrand>;
