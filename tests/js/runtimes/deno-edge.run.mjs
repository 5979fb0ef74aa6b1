// Deno runs examples/edge/worker.mjs (copied as edge-worker.mjs): its `fetch` handler, with a
// Map as the KV namespace, twice on one session; the second request resumes what the first
// stored. run.mjs passes the env (the mock provider's base URL) and the asks as the argument.
//   deno run --no-prompt --allow-net=127.0.0.1:<port> deno-edge.run.mjs '<json>'
import assert from "node:assert/strict";
import worker from "./edge-worker.mjs";
import { createHarness } from "./harness.mjs";
import { runAndPrint } from "./report.mjs";

const { env, asks } = JSON.parse(Deno.args[0]);
const map = new Map();
const SESSIONS = { get: async (k) => map.get(k) ?? null, put: async (k, v) => void map.set(k, v), delete: async (k) => void map.delete(k) };
const harness = createHarness();

for (const ask of asks) {
  harness.test(`edge ask ${JSON.stringify(ask.message)}: the session resumes, one turn runs`, async () => {
    const response = await worker.fetch(new Request("http://localhost/", { method: "POST", body: JSON.stringify(ask) }), { ...env, SESSIONS });
    const answer = await response.json();
    assert.equal(response.status, 200, JSON.stringify(answer));
    assert.equal(answer.reply, ask.reply);
    assert.equal(answer.messages, ask.messages);
  });
}

await runAndPrint(harness, { runtime: `Deno ${Deno.version.deno} (edge example)`, report: {}, exit: (code) => Deno.exit(code) });
