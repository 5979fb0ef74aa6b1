// pi-ai (@mariozechner/pi-ai 0.73.1, pinned in tests/js/mock-sdk/package.json) against turnwire's
// strict mock providers (issue 11): pi-ai runs a two-step tool loop for four of its APIs; the
// request body its provider code builds for the second step, read back with fromRequestBody,
// renders for every provider with nothing lost; the pi-ai Context itself, read with
// fromPiAi, does too; and written back with toPiAi, pi-ai sends it again and the mock accepts it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, beforeEach, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import * as turnwire from "turnwire";
import { startMockProviders } from "turnwire/mock";
import { assertRendersEverywhere, PLAIN_MODELS } from "./mock-helpers.mjs";

const SDK_DIR = resolve(process.env.TURNWIRE_MOCK_SDK ?? "../js-mock-sdk");
const PI_AI = "@mariozechner/pi-ai";
const version = JSON.parse(readFileSync(join(SDK_DIR, "node_modules", PI_AI, "package.json"), "utf8")).version;

let pi, mock;
before(async () => {
  // ESM only (an "import" export and no "require"): loaded by its file.
  pi = await import(pathToFileURL(join(SDK_DIR, "node_modules", PI_AI, "dist", "index.js")).href);
  mock = await startMockProviders();
  console.log(`pi-ai: ${PI_AI} ${version}`);
});
after(async () => {
  await mock?.close();
});
beforeEach(() => {
  mock.reset();
});

const SYSTEM = "Answer briefly.";
const QUESTION = "What is in a.rs?";
const RESULT = "fn main() {}";
const KEPT = [SYSTEM, QUESTION, "read_file", RESULT];
const TOOLS = [
  { name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
];
const CALL = { blocks: [{ type: "tool_call", name: "read_file", arguments: { path: "a.rs" } }] };
/**
 * pi-ai's OpenAI models reason: a call comes after a reasoning item, which pi-ai replays with its
 * encrypted content when it asked for reasoning (`reasoningEffort`).
 */
const REASONED_CALL = { blocks: [{ type: "thinking", thinking: "Read the file first." }, ...CALL.blocks] };
const DONE = { text: "a.rs holds an empty main." };

/** pi-ai's provider, the pi-ai API its model must use, turnwire's provider, the mock URL for it. */
const CASES = [
  ["anthropic", "anthropic-messages", "anthropic", () => mock.baseURL("anthropic")],
  ["openai", "openai-responses", "openai-responses", () => mock.baseURL("openai-responses")],
  ["google", "google-generative-ai", "gemini", () => `${mock.baseURL("gemini")}/v1beta`],
  ["deepseek", "openai-completions", "deepseek", () => mock.baseURL("deepseek")],
];

/** A model of pi-ai's catalogue for `piProvider` that uses `api`, pointed at the mock. */
function modelFor(piProvider, api, baseUrl) {
  // OpenAI: a reasoning model, as a reasoning item comes before its calls (see REASONED_CALL).
  const wanted = (m) => m.api === api && m.input.includes("text") && (api !== "openai-responses" || m.reasoning);
  const model = pi.getModels(piProvider).find(wanted);
  assert.ok(model, `pi-ai ${version} has no ${piProvider} model with api ${api}`);
  return { ...model, baseUrl };
}

/** The two-step tool loop: the Context after both steps, and the second step's request body. */
async function toolLoop(model, provider) {
  mock.script(provider, provider === "openai-responses" ? REASONED_CALL : CALL, DONE);
  const context = { systemPrompt: SYSTEM, messages: [{ role: "user", content: QUESTION, timestamp: Date.now() }], tools: TOOLS };
  const options = { apiKey: "k", ...(provider === "openai-responses" ? { reasoningEffort: "low" } : {}) };
  const first = await pi.complete(model, context, options);
  assert.equal(first.stopReason, "toolUse", first.errorMessage);
  const call = first.content.find((b) => b.type === "toolCall");
  context.messages.push(first, {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text: RESULT }],
    isError: false,
    timestamp: Date.now(),
  });
  const second = await pi.complete(model, context, options);
  assert.equal(second.stopReason, "stop", second.errorMessage);
  context.messages.push(second);
  assert.deepEqual(mock.stats, { accepted: 2, rejected: 0, scriptedErrors: 0 }, JSON.stringify(mock.log.map((l) => l.violations)));
  return { context, body: mock.log[1].body };
}

describe(`pi-ai ${PI_AI}: its request bodies and its Context`, () => {
  for (const [piProvider, api, provider, baseUrl] of CASES) {
    test(`${piProvider} (${api}): the second step's body renders for every provider with nothing lost`, async () => {
      const model = modelFor(piProvider, api, baseUrl());
      const { body } = await toolLoop(model, provider);
      assertRendersEverywhere(turnwire, provider, body, { model: model.id, kept: KEPT, where: `pi-ai ${piProvider}` });
    });

    test(`${piProvider} (${api}): the Context, read with fromPiAi, renders everywhere; written back with toPiAi, pi-ai sends it again`, async () => {
      const model = modelFor(piProvider, api, baseUrl());
      const { context } = await toolLoop(model, provider);
      const { transcript, diagnostics } = turnwire.fromPiAi(context);
      assert.deepEqual(diagnostics.filter((d) => d.code === "import_opaque"), []);
      const messages = Array.isArray(transcript) ? transcript : transcript.messages;
      const provenance = messages.find((m) => m.speaker === "ai")?.metadata?.provider;
      assert.equal(provenance, provider, "the assistant message's api becomes its provenance");
      for (const [target, targetModel] of Object.entries(PLAIN_MODELS)) {
        const out = JSON.parse(new TextDecoder().decode(turnwire.renderBody(transcript, { provider: target, model: targetModel, system: SYSTEM })));
        assert.deepEqual(turnwire.validateRequest(target, out, targetModel), [], `${piProvider} → ${target}`);
        for (const k of [QUESTION, RESULT, "a.rs holds an empty main."]) assert.ok(JSON.stringify(out).includes(k), `${piProvider} → ${target}: ${k} lost`);
      }
      const back = turnwire.toPiAi(transcript).context;
      mock.reset();
      mock.script(provider, DONE);
      back.messages.push({ role: "user", content: "Thanks.", timestamp: Date.now() });
      const again = await pi.complete(model, { ...back, systemPrompt: SYSTEM, tools: TOOLS }, { apiKey: "k" });
      assert.equal(again.stopReason, "stop", again.errorMessage);
      assert.deepEqual(mock.log[0].violations, []);
    });
  }
});
