// The PDF layer: text with positions (anchors) and drawing tabs, for validation, the sandbox and the preview. Only re-exports.
export * from './page-text.js';
export * from './find-anchors.js';
export * from './tab-box.js';
export * from './tab-drawers.js';
export * from './draw-tabs.js';
export * from './encodable.js';
export * from './page-sizes.js';
export * from './document-rendition.js';
export * from './rendition-kinds.js';
export * from './rendition-error.js';
export * from './envelope-text.js';
export * from './anchor-places.js';
export * from './stamped-place.js';
export * from './png-file.js';
// page-images.js (pages rendered to PNG) is imported on its own: it loads a native canvas, which only the preview needs.
