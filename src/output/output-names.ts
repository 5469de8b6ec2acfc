import { reportFiles } from './output-paths.js';

/**
 * Names in the output folder that job files decide (job names become
 * folders at its top, envelope and account keys folders below them), and the
 * rules they must follow. A leaf module, so that validation (src/jobs) and
 * the writer apply the same rules: a name `validate` accepts is one `run`
 * can write, and a name `run` would refuse is refused by `validate` first.
 */

/**
 * Files signrun writes at the top of the output folder: a job of that name
 * would be a folder where its report goes (and the report lost). Compared
 * without case, for case-insensitive file systems.
 */
export const topLevelOutputNames: readonly string[] = reportFiles;

/** Why `name` cannot be one folder or file name under the output folder, or undefined when it can. */
export function pathSegmentProblem(name: string): string | undefined {
  if (name === '' || name === '.' || name === '..') return 'it is not a plain folder or file name';
  if (/[\\/\0]/.test(name)) return 'it holds a path separator or a NUL';
  return undefined;
}

/** Why `job` cannot name a job's folder at the top of the output folder, or undefined when it can. */
export function jobFolderProblem(job: string): string | undefined {
  if (topLevelOutputNames.includes(job.toLowerCase()))
    return `it is the name of a report signrun writes at the top of the output folder (${topLevelOutputNames.join(', ')})`;
  return pathSegmentProblem(job);
}
