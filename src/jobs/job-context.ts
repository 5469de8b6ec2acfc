import type { DocumentTextReader } from './document-text.js';
import type { DiagnosticSink, Place } from './diagnostic-sink.js';
import type { Locator, NodePath } from './job-yaml.js';
import type { PdfFactsReader } from './pdf-facts-reader.js';

/** What the resolvers of one job file share. */
export interface JobContext {
  /** Absolute path of the job file, and its folder. */
  file: string;
  folder: string;
  /** The job file as shown to the user (relative to cwd when inside it). */
  shown: string;
  /** Shows any absolute path as the user would name it. */
  show(path: string): string;
  locator: Locator;
  sink: DiagnosticSink;
  /** Resolved `${env.NAME}` value, or undefined when not set. */
  env(name: string): string | undefined;
  pdfFacts: PdfFactsReader;
  /** Documents' text for anchors, read once per file for the whole load. */
  documentText: DocumentTextReader;
  /** Stops the load between rows and documents (SR_INTERRUPTED): see {@link LoadJobsOptions.signal}. */
  signal?: AbortSignal;
  /** false: envelopes get no digest ('') — see {@link LoadJobsOptions.digests}. */
  digests?: false;
  /** Keep forEach rows' envelopes as their rows (row-envelope.ts): see {@link LoadJobsOptions.streamRows}. */
  streamRows?: boolean;
}

/** The place of a path of the job file. */
export function placeOf(
  ctx: Pick<JobContext, 'shown' | 'locator'>,
  path: NodePath,
  at: 'value' | 'key' = 'value',
): Place {
  return { file: ctx.shown, ...ctx.locator.locate(path, at) };
}
