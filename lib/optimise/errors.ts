// The loop's input errors, apart so that every part of lib/optimise can throw them without importing the loop.

/** Bad input, named by its field (`study`, `split`, `seed`, `rule`, `candidates`, `targets`, `experimentId`). */
export class OptimiseInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'OptimiseInputError';
  }
}
