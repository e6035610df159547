import fs from 'node:fs';
import path from 'node:path';

// What the rules tests that read the source share: the files under a folder, and each match of a pattern by line.

/** Every file under `dir` whose name `include` accepts, skipping the folders named in `skip`. */
export function* walkFiles(dir: string, skip: ReadonlySet<string>, include: (name: string) => boolean): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walkFiles(p, skip, include);
    else if (include(entry.name)) yield p;
  }
}

/** Each `file:line: match` of the global pattern `re` in `text`. */
export function lineMatches(file: string, text: string, re: RegExp): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(re)) found.push(`${file}:${i + 1}: ${m[0]}`);
  });
  return found;
}
