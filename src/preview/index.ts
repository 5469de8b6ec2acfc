// `signrun preview`: every envelope drawn with its tabs before it is sent. Only re-exports.
export { previewJobs, previewScale, type PreviewOptions, type PreviewSummary } from './preview-run.js';
export { recipientColour, type RecipientColour } from './recipient-colours.js';
