import { defineCodes } from '../catalogue-entry.js';

/**
 * Codes of `signrun preview`: what a person looking at every envelope before
 * it is sent would want to see. Warnings: `preview` exits 1 on any of them
 * unless `--warnings-ok`.
 */
export const previewCodes = defineCodes({
  SR_PREVIEW_VALUE_OVERFLOW: {
    exitCode: 1,
    summary:
      'A prefilled value is wider than its tab, measured in the font and size it will be stamped in (Helvetica, up to 10 pt).',
    hint: 'Give the tab a larger `width`, or shorten the value; the message names the row and the tab’s line.',
  },
  SR_PREVIEW_TABS_OVERLAP: {
    exitCode: 1,
    summary: 'Two tabs of an envelope cover the same part of a page: one hides the other.',
    hint: 'Move one of the two tabs (its position or its anchor offsets); the page’s PNG (preview-<documentId>-<page>.png) shows both.',
  },
  SR_PREVIEW_TAB_OVER_TEXT: {
    exitCode: 1,
    summary: 'A tab covers text of the document: what the signer fills in, or the value, would hide it.',
    hint: 'Move the tab beside the text (for an anchored tab, change anchorXOffset / anchorYOffset); the preview shows the page.',
  },
  SR_PREVIEW_TEMPLATE_SKIPPED: {
    exitCode: 0,
    summary:
      'An envelope built from a stored template (templateId, or one of its `templates:`) was not previewed: offline, its documents and tabs are only in the account.',
    hint: 'Configure the service (DOCUSIGN_ROOT_URL or the JWT grant): `npx signrun preview` then reads each stored template once; or keep the template in the job file (`templates:`, `npx signrun import template <id>`).',
  },

  SR_PREVIEW_UNREADABLE: {
    exitCode: 1,
    summary: 'A document of an envelope could not be drawn or rendered for the preview.',
    hint: 'Check the document opens in a PDF reader; `npx signrun validate` says more about it.',
  },
});
