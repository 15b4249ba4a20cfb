import { AppError } from '../../errors.js';

/** A refused command line (exit 2): `where` names the command, `usage` is printed with it. */
export class UsageError extends AppError {
  readonly where: string;
  readonly usage: string;
  constructor(message: string, where: string, usage: string) {
    super('USAGE', message, { status: 400 });
    this.name = 'UsageError';
    this.where = where;
    this.usage = usage;
  }
}
