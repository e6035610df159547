import { PyFloat } from '../scoring/pyvalue';

/**
 * A JSON parser that reads values as Python's `json.loads` would: a number written with a fraction or an
 * exponent (`4.0`, `1e3`) becomes a `PyFloat`, an integer stays a JS number. `NaN` / `Infinity` are
 * accepted, as Python accepts them. Throws a SyntaxError naming the character offset.
 */
export function parsePyJson(text: string): unknown {
  const p = new Parser(text);
  p.ws();
  const v = p.value();
  p.ws();
  if (p.i < text.length) p.fail('unexpected data after the JSON value');
  return v;
}

class Parser {
  i = 0;
  constructor(private readonly s: string) {}

  fail(msg: string): never {
    throw new SyntaxError(`${msg} at position ${this.i}`);
  }

  ws(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else break;
    }
  }

  value(): unknown {
    const c = this.s[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9') || c === 'N' || c === 'I') return this.number();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    return this.fail(c === undefined ? 'unexpected end of JSON' : `unexpected character ${JSON.stringify(c)}`);
  }

  object(): Record<string, unknown> {
    const out = Object.create(null) as Record<string, unknown>;
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') this.fail('expected a string key');
      const key = this.string();
      this.ws();
      if (this.s[this.i] !== ':') this.fail('expected ":"');
      this.i++;
      this.ws();
      const v = this.value();
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      this.ws();
      const c = this.s[this.i++];
      if (c === '}') return out;
      if (c !== ',') this.fail('expected "," or "}"');
    }
  }

  array(): unknown[] {
    const out: unknown[] = [];
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.value());
      this.ws();
      const c = this.s[this.i++];
      if (c === ']') return out;
      if (c !== ',') this.fail('expected "," or "]"');
    }
  }

  string(): string {
    const start = this.i;
    this.i++;
    let escaped = false;
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 34) {
        this.i++;
        const raw = s.slice(start, this.i);
        if (!escaped) return raw.slice(1, -1);
        try {
          return JSON.parse(raw) as string;
        } catch {
          this.i = start;
          return this.fail('invalid string');
        }
      }
      if (c === 92) {
        escaped = true;
        this.i += 2;
      } else if (c < 32) {
        return this.fail('control character in string');
      } else this.i++;
    }
    this.i = start;
    return this.fail('unterminated string');
  }

  number(): number | PyFloat {
    const rest = this.s.slice(this.i, this.i + 9);
    for (const [word, v] of [
      ['NaN', NaN],
      ['Infinity', Infinity],
      ['-Infinity', -Infinity],
    ] as const) {
      if (rest.startsWith(word)) {
        this.i += word.length;
        return new PyFloat(v);
      }
    }
    const m = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    m.lastIndex = this.i;
    const r = m.exec(this.s);
    if (!r || r[0] === '-' || r[0] === '') return this.fail('invalid number');
    this.i += r[0].length;
    const n = Number(r[0]);
    return r[1] !== undefined || r[2] !== undefined ? new PyFloat(n) : n;
  }
}
