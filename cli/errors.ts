/** An error the CLI reports with exit code 2 (invalid input): one line per issue (`message`), an optional heading. */
export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(
    message: string,
    readonly heading?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}
