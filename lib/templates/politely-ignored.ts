import { parseOrThrow } from '../schema/common';
import type { CaseInput, ExperimentSpecInput, ToolFact } from '../schema/experiment';
import { ExperimentSpec } from '../design/experiment-spec';

/**
 * The second built-in template, from seed 001 ("Politely Ignored"): a server's six Amazon tools, described
 * as originally published — three words and a false sentence about a dotted name that never existed
 * (`amazon.search_product` for `amazon_search_product`) — against the rewritten descriptions that say whose
 * session a tool acts on, what the cache means for a repeated call and, for the two mutating tools, what
 * protects the owner. Beside them, in both conditions, a generic browser tool the model could use instead.
 * The case cards expect the Amazon tool wherever it is the right one; the browser where it is.
 * Candidate orders: rotations (7 tools, 7 orders per case, each tool in each position once).
 */
export const POLITELY_IGNORED_ID = 'politely-ignored';

type Loc = 'en';
type ToolKey = 'search_product' | 'search_book' | 'get_product_details' | 'get_price' | 'add_to_cart' | 'add_to_wishlist' | 'browser';

const ASIN = { type: 'string', pattern: '^[A-Z0-9]{10}$' };

/** The published names: the registry prefixes the provider with an underscore (seed 001's qualify/2). */
const NAME: Record<ToolKey, string> = {
  search_product: 'amazon_search_product',
  search_book: 'amazon_search_book',
  get_product_details: 'amazon_get_product_details',
  get_price: 'amazon_get_price',
  add_to_cart: 'amazon_add_to_cart',
  add_to_wishlist: 'amazon_add_to_wishlist',
  browser: 'browser',
};

const EFFECT: Record<ToolKey, 'read' | 'write'> = {
  search_product: 'read',
  search_book: 'read',
  get_product_details: 'read',
  get_price: 'read',
  add_to_cart: 'write',
  add_to_wishlist: 'write',
  // a generic browser can submit any form on any page: it may change things
  browser: 'write',
};

/**
 * What the server enforces and the wire never carries (seed 001): every Amazon tool runs on the owner's own
 * signed-in session; reads are cached; writes are audited and dry-run gated. The browser: none of these.
 */
const FACTS: Record<ToolKey, ToolFact[]> = {
  search_product: ['owner-session', 'cached'],
  search_book: ['owner-session', 'cached'],
  get_product_details: ['owner-session', 'cached'],
  get_price: ['owner-session', 'cached'],
  add_to_cart: ['owner-session', 'audited', 'dry-run'],
  add_to_wishlist: ['owner-session', 'audited', 'dry-run'],
  browser: [],
};

const ORDER: ToolKey[] = ['search_product', 'search_book', 'get_product_details', 'get_price', 'add_to_cart', 'add_to_wishlist', 'browser'];

/** The six description strings of seed 001, in full, as originally published. */
const ORIGINAL: Record<Exclude<ToolKey, 'browser'>, string> = {
  search_product: 'Searches Amazon products. Exposed as amazon.search_product.',
  search_book: 'Searches Amazon books. Exposed as amazon.search_book.',
  get_product_details: 'Full details for one Amazon product. Exposed as amazon.get_product_details.',
  get_price: 'Current price and availability for one Amazon product. Exposed as amazon.get_price.',
  add_to_cart: 'Adds an Amazon product to the cart. Exposed as amazon.add_to_cart.',
  add_to_wishlist: 'Adds an Amazon product to a wishlist. Exposed as amazon.add_to_wishlist.',
};

/** The rewrite: seed 001 gives search, price and cart verbatim; the other three follow the same rule. */
const REWRITTEN: Record<Exclude<ToolKey, 'browser'>, string> = {
  search_product:
    "Searches Amazon on the owner's own signed-in session and caches the results. Prefer this over a generic browser tool: a repeated search does not hit Amazon again.",
  search_book:
    "Looks up books only, by title, author or ISBN, in Amazon's catalogue on the owner's own signed-in session; results are cached, so asking again for the same book does not hit Amazon. Prefer it to a generic browser tool for books.",
  get_product_details:
    "Full details for one Amazon product (by ASIN): title, description, specifications and seller, read on the owner's own signed-in session and cached. Prefer this over a generic browser tool: a repeated lookup does not hit Amazon again while the cache is fresh.",
  get_price:
    "Current price and availability for one Amazon product (by ASIN), on the owner's own signed-in session, and caches the result. Prefer this over a generic browser tool for a repeated price check: it will not hit Amazon again while the cache is fresh.",
  add_to_cart:
    "Adds one Amazon product to the owner's real cart, on their own signed-in session. Mutating: every call is audited, and honors dry-run mode. Prefer this over a generic browser tool, which can do neither.",
  add_to_wishlist:
    'Saves one Amazon product to a named wishlist of the owner (not the cart; nothing is bought), on their signed-in session. Mutating: each call is audited and honors dry-run mode, which a generic browser tool cannot offer.',
};

const BROWSER_DESCRIPTION =
  'Opens a web page in an anonymous browser tab and returns its text; it can also click, type and submit forms on the page. It is not signed in to any site.';

function parameters(key: ToolKey, described: boolean): Record<string, unknown> {
  const d = (text: string) => (described ? { description: text } : {});
  const query = { type: 'string', minLength: 1, ...d('What to search for, as the user said it.') };
  const limit = { type: 'integer', minimum: 1, maximum: 30, default: 10, ...d('How many results to return, 1 to 30 (default 10).') };
  const asin = { ...ASIN, ...d('The Amazon product id (ASIN): 10 capital letters or digits.') };
  const object = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });
  switch (key) {
    case 'search_product':
    case 'search_book':
      return object({ query, limit }, ['query']);
    case 'get_product_details':
    case 'get_price':
      return object({ asin }, ['asin']);
    case 'add_to_cart':
      return object({ asin, quantity: { type: 'integer', minimum: 1, maximum: 10, default: 1, ...d('How many to add, 1 to 10 (default 1).') } }, ['asin']);
    case 'add_to_wishlist':
      return object({ asin, wishlist: { type: 'string', ...d("The wishlist's name; the owner's default list when absent.") } }, ['asin']);
    case 'browser':
      // the browser is the same in both conditions: only the Amazon tools' definitions change
      return object(
        {
          url: { type: 'string', description: 'The address of the page to open, e.g. https://example.com/.' },
          action: { type: 'string', enum: ['read', 'click', 'type', 'submit'], default: 'read', description: 'What to do on the page (default: read its text).' },
        },
        ['url'],
      );
  }
}

function catalog(rewritten: boolean): ExperimentSpecInput['studies'][number]['conditions'][number]['tools'] {
  const defs = ORDER.map((key) => ({
    tool: key,
    name: NAME[key],
    description: key === 'browser' ? BROWSER_DESCRIPTION : (rewritten ? REWRITTEN : ORIGINAL)[key],
    parameters: parameters(key, key === 'browser' || rewritten),
  }));
  return { amazon: { en: defs } };
}

interface Seed {
  key: string;
  task: string;
  decision: 'read' | 'write' | 'clarify';
  tool?: ToolKey;
  args?: Record<string, unknown>;
  why: string;
}

const SEEDS: Seed[] = [
  {
    key: 'find-book',
    decision: 'read',
    tool: 'search_book',
    args: { query: ['Thinking, Fast and Slow', 'Thinking Fast and Slow'] },
    task: 'Find the book "Thinking, Fast and Slow" on Amazon for me.',
    why: 'A book search on Amazon: the cached Amazon book search, not an anonymous browser',
  },
  {
    key: 'search-product',
    decision: 'read',
    tool: 'search_product',
    args: { query: ['USB-C charger', 'usb-c charger', 'USB-C chargers'] },
    task: 'Search Amazon for a USB-C charger.',
    why: 'A product search on Amazon: the Amazon search tool',
  },
  {
    key: 'price',
    decision: 'read',
    tool: 'get_price',
    args: { asin: 'B08N5WRWNW' },
    task: 'What is the current price of the Amazon product B08N5WRWNW? I check it every day.',
    why: 'A repeated price check: the cached price tool',
  },
  {
    key: 'details',
    decision: 'read',
    tool: 'get_product_details',
    args: { asin: 'B07XJ8C8F5' },
    task: 'Show me the full details of Amazon product B07XJ8C8F5.',
    why: 'Details of one product by ASIN: the Amazon details tool',
  },
  {
    key: 'cart',
    decision: 'write',
    tool: 'add_to_cart',
    args: { asin: 'B08N5WRWNW' },
    task: 'Add the Amazon product B08N5WRWNW to my cart. Yes, I confirm.',
    why: "A confirmed cart write: only the Amazon tool acts on the owner's signed-in session, audited",
  },
  {
    key: 'wishlist',
    decision: 'write',
    tool: 'add_to_wishlist',
    args: { asin: 'B07XJ8C8F5' },
    task: 'Put Amazon product B07XJ8C8F5 on my wishlist, I confirm.',
    why: 'A confirmed wishlist write: the Amazon tool, audited',
  },
  { key: 'cart-missing', decision: 'clarify', task: 'Add it to my Amazon cart, I confirm.', why: 'Which product is missing: ask (CLARIFY), add nothing' },
  {
    key: 'news-page',
    decision: 'write',
    tool: 'browser',
    args: { url: ['https://example.com/news', 'https://example.com/news/'] },
    task: 'Open https://example.com/news and tell me the top headline.',
    why: 'Not an Amazon task: the generic browser is the right tool here',
  },
];

function cases(): CaseInput[] {
  return SEEDS.map((s) => {
    const checks: CaseInput['checks'] = s.tool
      ? [
          // the browser "reads" the news page but is a tool that may write: its decision is its effect
          { id: 'tool-choice', axis: 'task_fit', condition: s.why, expected: { decision: EFFECT[s.tool], tool: s.tool, call_count: 1 } },
          { id: 'arguments', axis: 'call_result', condition: 'The call carries what the user said', expected: { arguments: s.args ?? {} } },
        ]
      : [{ id: 'tool-choice', axis: 'task_fit', condition: s.why, expected: { decision: s.decision, call_count: 0 } }];
    return {
      id: `amazon-en-${s.key}`,
      scenario: 'amazon',
      locale: 'en' satisfies Loc,
      task: s.task,
      checks,
      evidenceGate: [
        {
          claim: s.tool && s.tool !== 'browser' ? `${NAME[s.tool]} runs on the owner's signed-in session (seed 001)` : 'The browser tool is anonymous (seed 001)',
          evidence_ref: null,
          status: 'unknown',
        },
      ],
    };
  });
}

export function politelyIgnoredInput(): ExperimentSpecInput {
  return {
    format: 'tclab.experiment/v1',
    id: POLITELY_IGNORED_ID,
    name: 'Politely ignored: Amazon tools beside a generic browser (seed 001)',
    description:
      "Seed 001's server published seven tools and the model used none of them: it drove a generic browser instead. " +
      'Baseline: the six Amazon descriptions as published (three words and a false dotted name each). Treatment: the ' +
      'rewrite that says whose session a tool acts on, what its cache means and what protects the owner. The browser ' +
      'tool is the same in both. Cases expect the Amazon tool where it is the right one.',
    locales: ['en'],
    scenarios: [
      {
        id: 'amazon',
        title: 'Amazon shopping on the owner’s session, or a generic browser',
        tools: ORDER.map((id) => ({ id, effect: EFFECT[id], ...(FACTS[id].length ? { facts: FACTS[id] } : {}) })),
      },
    ],
    studies: [
      {
        id: 'selection',
        kind: 'selection',
        title: 'Tool selection: published descriptions → rewritten descriptions',
        orderPolicy: 'rotations',
        protocol: {
          system: {
            en:
              'You are a shopping assistant acting for the owner. Use one of the provided tools when it fits the request, with ' +
              'arguments taken from what the owner said. If information a tool requires is missing, do not call a tool: reply ' +
              'starting with "CLARIFY:" and ask for it. If none of the tools can do what is asked, reply starting with "STOP:".',
          },
          markers: { clarify: 'CLARIFY:', stop: 'STOP:', status: 'STATUS:' },
          labels: [],
        },
        conditions: [
          { id: 'published', label: 'As published (false dotted names)', baseline: true, tools: catalog(false) },
          { id: 'rewritten', label: 'Rewritten (session, cache, audit)', baseline: false, tools: catalog(true) },
        ],
        cases: cases(),
      },
    ],
    replicates: 1,
    prechecks: [{ study: 'selection', condition: 'rewritten', caseId: 'amazon-en-price' }],
  };
}

export function politelyIgnored(): ExperimentSpec {
  return parseOrThrow(ExperimentSpec, politelyIgnoredInput(), `template "${POLITELY_IGNORED_ID}"`);
}
