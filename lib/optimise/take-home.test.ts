import { describe, expect, it } from 'vitest';
import type { Condition } from '../schema/experiment';
import { definitionsFile } from './take-home';

// The winner's definitions in the forms tools are published in.

const def = (tool: string) => ({ tool, name: `x_${tool}`, description: `${tool} does it`, parameters: { type: 'object', properties: {} } });
const condition = (tools: Condition['tools']): Condition => ({ id: 'c', label: 'c', baseline: false, tools });

describe('definitionsFile', () => {
  it('one catalog: an MCP tools/list result, or an OpenAI tools array', () => {
    const c = condition({ s: { en: [def('a'), def('b')] } });
    expect(definitionsFile(c, 'mcp')).toEqual({
      tools: [
        { name: 'x_a', description: 'a does it', inputSchema: { type: 'object', properties: {} } },
        { name: 'x_b', description: 'b does it', inputSchema: { type: 'object', properties: {} } },
      ],
    });
    expect(definitionsFile(c, 'openai')).toEqual([
      { type: 'function', function: { name: 'x_a', description: 'a does it', parameters: { type: 'object', properties: {} } } },
      { type: 'function', function: { name: 'x_b', description: 'b does it', parameters: { type: 'object', properties: {} } } },
    ]);
  });
  it('several catalogs: keyed scenario/locale', () => {
    const file = definitionsFile(condition({ s: { en: [def('a')], de: [def('b')] }, t: { en: [def('c')] } }), 'mcp') as Record<string, { tools: { name: string }[] }>;
    expect(Object.keys(file)).toEqual(['s/en', 's/de', 't/en']);
    expect(file['s/de'].tools.map((t) => t.name)).toEqual(['x_b']);
  });
});
