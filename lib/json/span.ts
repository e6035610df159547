// The exact text of one value inside a JSON text, found without parsing it into objects: a batch's results
// line holds each answer's body as received, and the record keeps that text byte for byte (docs/faults.md ›
// What a provider sends is kept). Iterative, so a body nested 20,000 levels deep is found as any other
// (recursive JSON visitors, jsonc-parser's among them, run out of stack there).

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const SCALAR_END = new Set([0x2c, 0x3a, 0x5d, 0x7d, 0x20, 0x09, 0x0a, 0x0d]); // , : ] } and whitespace

class Malformed extends Error {}

/**
 * The text of the value at `path` (object keys, outermost first) in the JSON text `text`; with a key given
 * twice, the last one's, as JSON.parse reads it. Null when the path is not there or the text is not JSON as
 * far as it was read.
 */
export function jsonValueSpan(text: string, path: readonly string[]): string | null {
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n && WS.has(text.charCodeAt(i))) i++;
  };
  const skipString = () => {
    if (text.charCodeAt(i) !== 0x22) throw new Malformed();
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i += 2;
      else if (c === 0x22) return void i++;
      else i++;
    }
    throw new Malformed();
  };
  const skipValue = () => {
    ws();
    let depth = 0;
    do {
      if (i >= n) throw new Malformed();
      const c = text.charCodeAt(i);
      if (c === 0x22) skipString();
      else if (c === 0x7b || c === 0x5b) {
        depth++;
        i++;
      } else if (c === 0x7d || c === 0x5d) {
        depth--;
        i++;
      } else if (depth > 0 && (c === 0x2c || c === 0x3a || WS.has(c))) i++;
      else {
        const start = i;
        while (i < n && !SCALAR_END.has(text.charCodeAt(i))) i++;
        if (i === start) throw new Malformed();
      }
    } while (depth > 0);
    if (depth < 0) throw new Malformed();
  };
  try {
    for (const key of path) {
      ws();
      if (text.charCodeAt(i) !== 0x7b) return null;
      i++;
      let found = -1;
      for (;;) {
        ws();
        if (text.charCodeAt(i) === 0x7d) break;
        const keyStart = i;
        skipString();
        const name = JSON.parse(text.slice(keyStart, i)) as string;
        ws();
        if (text.charCodeAt(i) !== 0x3a) throw new Malformed();
        i++;
        ws();
        if (name === key) found = i;
        skipValue();
        ws();
        const c = text.charCodeAt(i);
        if (c === 0x2c) i++;
        else if (c === 0x7d) break;
        else throw new Malformed();
      }
      if (found < 0) return null;
      i = found;
    }
    ws();
    const start = i;
    skipValue();
    return text.slice(start, i);
  } catch (e) {
    if (e instanceof Malformed || e instanceof SyntaxError) return null;
    throw e;
  }
}
