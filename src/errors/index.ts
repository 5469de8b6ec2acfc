export { SignrunError, isSignrunError, type SourceLocation, type SignrunErrorOptions } from './signrun-error.js';
export { errorCatalogue, type ErrorCode } from './catalogue.js';
export { ExitCode, type ExitCodeValue, type CatalogueEntry } from './catalogue-entry.js';
