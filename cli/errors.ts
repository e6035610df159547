/** An error the CLI reports with exit code 2 (invalid input). */
export class UsageError extends Error {
  readonly exitCode = 2;
}
