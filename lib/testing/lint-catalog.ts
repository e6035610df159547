// Generated MCP tool catalogs for the linter's benchmark (`npm run bench:lint`) and its tests: `n` tools whose
// descriptions are drawn from a few thousand made-up words with a skewed (Zipf-like) frequency, as real
// prose is, so that a few words are in nearly every description and most are rare. Every 97th tool repeats
// the one before it with one word changed (an overlap the linter must find), every 211th copies it exactly
// (a duplicate), and every 7th writes without saying so. Deterministic for a given seed.

export interface GeneratedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: { readOnlyHint: boolean };
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'bo', 'da', 'fe', 'gi', 'ho', 'ju', 'pe', 'qua', 'rin', 'sol', 'tam'];

function vocabulary(size: number, next: () => number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(next() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/** A `tools/list` result of `n` generated tools. */
export function generatedCatalog(n: number, seed = 26): { tools: GeneratedTool[] } {
  const next = rng(seed);
  const vocab = vocabulary(4000, next);
  // rank ~ u^3: the first words are in almost every description, the last in a handful
  const word = () => vocab[Math.floor(Math.pow(next(), 3) * vocab.length)];
  const sentence = (len: number) => Array.from({ length: len }, word).join(' ');
  const tools: GeneratedTool[] = [];
  for (let i = 0; i < n; i++) {
    const name = `${vocab[i % 300]}_${vocab[(i * 7) % 4000]}_${i}`;
    let description: string;
    if (i > 0 && i % 211 === 0) description = tools[i - 1].description;
    else if (i > 0 && i % 97 === 0) description = tools[i - 1].description.replace(/\S+\.$/, `${word()}.`);
    else description = `${sentence(1)} ${sentence(10 + Math.floor(next() * 16))}. Returns the ${word()} of one ${word()} by its id.`;
    tools.push({
      name,
      description: description[0].toUpperCase() + description.slice(1),
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string', description: `The ${word()} id, as ${word()} returns it.` },
          [word()]: { type: 'integer', description: i % 13 === 0 ? '' : `How many ${word()} to return, from 1 to 100.` },
        },
        required: ['id'],
      },
      annotations: { readOnlyHint: i % 7 !== 0 },
    });
  }
  return { tools };
}

/** Descriptions of about `bytes` characters, each shaped to defeat a backtracking pattern in its own way. */
export function hugeDescriptions(bytes = 1_000_000): Record<string, string> {
  const fill = (unit: string) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
  const next = rng(7);
  const vocab = vocabulary(4000, next);
  let prose = '';
  while (prose.length < bytes) prose += `${Array.from({ length: 15 }, () => vocab[Math.floor(Math.pow(next(), 3) * vocab.length)]).join(' ')}. `;
  return {
    prose: prose.slice(0, bytes),
    'one word': fill('a'),
    digits: fill('7'),
    'status without a full stop': fill('status 4 '),
    'codes and spaces': fill('code 1    '),
    'dotted names': fill('a.b_'),
    'ignore instructions': fill('ignore all   '),
  };
}
