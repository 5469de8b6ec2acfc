import type { CommandHandler } from '../command.js';
import { SignrunError } from '../../errors/signrun-error.js';

// Scaffolding: replaced by the real command in its issue.
const handler: CommandHandler = async () => {
  throw new SignrunError('SR_INTERNAL', 'the report-merge command is being built');
};
export default handler;
