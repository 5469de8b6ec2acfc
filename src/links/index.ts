export { startLinksServer, type LinksServerOptions, type RunningLinksServer } from './links-server.js';
export { ensureLinks, linkOf, type ListedLink, type LinksRecord } from './link-store.js';
export type { Opening, OpeningOutcome } from './openings-log.js';
