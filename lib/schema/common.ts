import { z } from 'zod';

/** Identifiers used in trial keys, URLs and file names: no separators we rely on (`|`, `:`). */
export const Id = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, "_", "." and "-" only');

/** BCP-47-ish locale tag, e.g. `en`, `zh-TW`. */
export const Locale = z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a locale tag such as en or zh-TW');

export const JsonValue: z.ZodType<unknown> = z.unknown();
export const JsonObject = z.record(z.string(), z.unknown());
export type JsonObject = z.infer<typeof JsonObject>;

/** Readable zod error: one line per issue, each naming its path (`studies.0.cases.3.locale: …`). */
export function formatZodError(error: z.ZodError, prefix = ''): string {
  return error.issues
    .map((i) => {
      const path = [prefix, ...i.path.map(String)].filter(Boolean).join('.');
      return `${path || '(root)'}: ${i.message}`;
    })
    .join('\n');
}

export class SpecError extends Error {
  constructor(
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'SpecError';
  }
}

/** parse or throw a SpecError whose message names every failing path. */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown, what: string): z.infer<T> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  throw new SpecError(`${what} is invalid:\n${formatZodError(r.error)}`, issues);
}
