import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderRequest } from '../../schema/request';
import type { WireId } from '../types';
import { FAKE_KEY, selectionRequest, settingsFor } from '../../testing/provider-fixtures';
import { startLoopbackServer, wireToolNames, type LoopbackServer, type Script } from '../../testing/loopback-server';
import { batchCustomId, batchVendorOf, ENDED_BATCH_STATES, parseBatchCustomId, type BatchConnection, type BatchItemInput, type BatchVendor } from './index';

// The official SDKs' batch calls (OpenAI files + batches, Anthropic message batches, Gemini batches with
// inlined requests) against the loopback server's batch endpoints: submitted once, polled through accepted
// and in progress, and every result line back as the adapter's normal result — answers, failed items (by the
// status the vendor gave) and items the batch expired or cancelled before they ran.

const CASES: { provider: 'openai' | 'anthropic' | 'gemini'; wire: WireId; model: string }[] = [
  { provider: 'openai', wire: 'openai-chat', model: 'gpt-test' },
  { provider: 'anthropic', wire: 'anthropic-messages', model: 'claude-test' },
  { provider: 'gemini', wire: 'gemini-generate-content', model: 'gemini-test' },
];

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(async () => server.close());
beforeEach(() => {
  server.resetBatchStats();
  server.setBatchBehaviour({});
});

/** The task names the item; the script fails the item whose task says FAIL, answers the others with a call. */
const failScript: Script = (req) => {
  const text = JSON.stringify(req.body);
  if (text.includes('FAIL-ME')) return { kind: 'http', status: 500 };
  return { kind: 'toolCalls', calls: [{ name: wireToolNames(req.wire, req.body)[0], arguments: { invoice_number: 'INV-2041' } }] };
};

function items(n: number, failAt: number | null = null): BatchItemInput[] {
  return Array.from({ length: n }, (_, i) => {
    const request: ProviderRequest = { ...selectionRequest(), task: i === failAt ? 'FAIL-ME please' : `What is the status of invoice INV-${2040 + i}?` };
    return { customId: batchCustomId(`t${i}`, 1), request };
  });
}

async function pollUntilEnded(vendor: BatchVendor, conn: BatchConnection, id: string) {
  const seen: string[] = [];
  for (let i = 0; i < 20; i++) {
    const p = await vendor.poll(conn, id);
    seen.push(p.state);
    if (ENDED_BATCH_STATES.includes(p.state)) return { last: p, seen };
  }
  throw new Error(`batch ${id} never ended: ${seen.join(', ')}`);
}

describe.each(CASES)('batch mode over the $provider SDK', ({ provider, wire, model }) => {
  const vendor = batchVendorOf(provider)!;
  const conn = () => ({ baseUrl: server.baseUrlFor(wire), apiKey: FAKE_KEY });
  const settings = settingsFor({ provider, model });

  it('one submission; accepted → in progress → completed; answers and a failed item by custom id', async () => {
    server.setScript(failScript);
    server.setBatchBehaviour({ acceptedPolls: 1, inProgressPolls: 1, outcome: 'completed' });
    const its = items(4, 2);
    const id = await vendor.submit(conn(), settings, its);
    const { last, seen } = await pollUntilEnded(vendor, conn(), id);
    // Anthropic has no state before "in_progress"
    expect(seen).toEqual([provider === 'anthropic' ? 'in_progress' : 'accepted', 'in_progress', 'completed']);
    expect(last).toMatchObject({ succeeded: 3, failed: 1 });
    const stats = server.batchStats();
    expect(stats.submissions).toBe(1);
    expect(stats.items).toBe(4);
    expect([...stats.byCustomId.values()]).toEqual([1, 1, 1, 1]);

    const results = await vendor.results(conn(), id, its, settings);
    expect([...results.keys()].sort()).toEqual(its.map((i) => i.customId).sort());
    for (const it of its) {
      const r = results.get(it.customId)!;
      if (it.customId === batchCustomId('t2', 1)) {
        expect(r.outcome).toBe('transport_error');
        expect(r.outcome === 'transport_error' && r.error.kind).toBe('http_5xx');
      } else {
        expect(r.outcome).toBe('ok');
        expect(r.outcome === 'ok' && r.answer.toolCalls.map((c) => c.name)).toEqual(['lookup_invoice']);
      }
      // the stored request is the body the adapter would have sent alone
      expect(r.request).toEqual(vendor.body(it.request, settings));
    }
    // what the server received is that body too (model aside: Gemini carries it in the path)
    const rec = server.batches.get(id.replace(/^batches\//, ''))!;
    expect(rec.items.map((i) => i.customId)).toEqual(its.map((i) => i.customId));
    expect(wireToolNames(wire, rec.items[0].body)).toEqual(['lookup_invoice', 'pay_invoice']);
  });

  it('expired: the items answered before the end come back, the rest as unanswered (timeout) results', async () => {
    server.setScript(failScript);
    server.setBatchBehaviour({ inProgressPolls: 0, outcome: 'expired', answeredBeforeEnd: 1 });
    const its = items(3);
    const id = await vendor.submit(conn(), settings, its);
    const { last } = await pollUntilEnded(vendor, conn(), id);
    expect(last.state).toBe(provider === 'anthropic' ? 'completed' : 'expired');
    const results = await vendor.results(conn(), id, its, settings);
    expect(results.get(its[0].customId)?.outcome).toBe('ok');
    for (const it of its.slice(1)) {
      const r = results.get(it.customId)!;
      expect(r.outcome === 'transport_error' && r.error).toMatchObject({ kind: 'timeout', message: expect.stringContaining('expired') });
    }
  });

  it('cancelled: no item answered; every item unanswered', async () => {
    server.setScript(failScript);
    server.setBatchBehaviour({ inProgressPolls: 5 });
    const its = items(2);
    const id = await vendor.submit(conn(), settings, its);
    await vendor.cancel(conn(), id);
    const { last } = await pollUntilEnded(vendor, conn(), id);
    expect(last.state).toBe('cancelled');
    const results = await vendor.results(conn(), id, its, settings);
    for (const it of its) expect(results.get(it.customId)).toMatchObject({ outcome: 'transport_error', error: { kind: 'timeout' } });
  });
});

describe('custom ids', () => {
  it('trial id and attempt number round-trip', () => {
    expect(parseBatchCustomId(batchCustomId('cm1abc', 3))).toEqual({ trialId: 'cm1abc', attemptN: 3 });
    expect(parseBatchCustomId('nodot')).toBeNull();
  });
});
