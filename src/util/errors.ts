/**
 * An error meant for the person running textstress: one readable paragraph, no stack trace.
 * `where` names the file/line, endpoint or setting at fault so the user can go straight to it.
 */
export class TextstressError extends Error {
  readonly where?: string;
  readonly hint?: string;
  /** The CLI's exit status for it; absent: 1. */
  readonly exitCode?: number;

  constructor(message: string, opts: { where?: string; hint?: string; cause?: unknown; exitCode?: number } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'TextstressError';
    this.where = opts.where;
    this.hint = opts.hint;
    if (opts.exitCode !== undefined) this.exitCode = opts.exitCode;
  }

  /** The single paragraph shown to the user. */
  describe(): string {
    const parts = [this.where ? `${this.where}: ${this.message}` : this.message];
    if (this.hint) parts.push(this.hint);
    return parts.join(' ');
  }
}

/** Raised by a data loader for a row it cannot read; names the file and the 1-based line. */
export class DataError extends TextstressError {
  readonly file: string;
  readonly line: number;

  constructor(file: string, line: number, message: string, hint?: string) {
    super(message, { where: `${file}:${line}`, hint });
    this.name = 'DataError';
    this.file = file;
    this.line = line;
  }
}

/** Raised when a model cannot be loaded or does not answer (missing folder/file, dead endpoint). */
export class ModelError extends TextstressError {
  /**
   * True when particular inputs of the batch may be what failed (the model refused one with a 400, or answered
   * one with a malformed output), so the query engine splits the batch to find them. False (the default) when
   * no smaller batch would help: nothing listening, 5xx or timeouts after retries, credentials, a wrong answer
   * shape; the whole batch then fails at once.
   */
  readonly inputSpecific: boolean;

  constructor(message: string, opts: { where?: string; hint?: string; cause?: unknown; inputSpecific?: boolean } = {}) {
    super(message, opts);
    this.name = 'ModelError';
    this.inputSpecific = opts.inputSpecific ?? false;
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof TextstressError) return err.describe();
  if (err instanceof Error) return err.message;
  return String(err);
}
