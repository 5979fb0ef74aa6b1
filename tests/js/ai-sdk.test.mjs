// The real AI SDK (ai 6 with @ai-sdk/anthropic, @ai-sdk/openai, @ai-sdk/google, pinned in
// tests/js/mock-sdk/package.json) against turnwire's strict mock providers (issue 11):
// - a history the AI SDK refuses (a tool call left open before the next user turn:
//   MissingToolResultsError, thrown before any model or middleware runs) goes through after
//   repairModelMessages, and the strict mock accepts the request the AI SDK builds from it;
// - what generateText returns (response.messages, continuity in providerOptions) read with
//   fromAiSdk keeps the signatures, and written back with toAiSdk the AI SDK replays them;
// - the request bodies the AI SDK's providers build (a two-step tool loop), read back with
//   fromRequestBody, render for every provider, pass every strict validator, lose nothing.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { after, before, beforeEach, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { fromAiSdk, providerOfModel, renderBody, renderForProvider, repairingFetch, repairModelMessages, toAiSdk, turnwireMiddleware, validateRequest } from "turnwire";
import { startMockProviders } from "turnwire/mock";
import * as turnwire from "turnwire";
import { assertRendersEverywhere } from "./mock-helpers.mjs";

const SDK_DIR = resolve(process.env.TURNWIRE_MOCK_SDK ?? "../js-mock-sdk");
const sdk = createRequire(join(SDK_DIR, "package.json"));
const load = async (name) => import(pathToFileURL(sdk.resolve(name)).href);
const versionOf = (name) => JSON.parse(readFileSync(join(SDK_DIR, "node_modules", name, "package.json"), "utf8")).version;

let ai, anthropic, openai, google, mistral, deepseek, moonshotai, mock;
before(async () => {
  ai = await load("ai");
  anthropic = await load("@ai-sdk/anthropic");
  openai = await load("@ai-sdk/openai");
  google = await load("@ai-sdk/google");
  mistral = await load("@ai-sdk/mistral");
  deepseek = await load("@ai-sdk/deepseek");
  moonshotai = await load("@ai-sdk/moonshotai");
  mock = await startMockProviders();
  const packages = ["ai", "@ai-sdk/anthropic", "@ai-sdk/openai", "@ai-sdk/google", "@ai-sdk/mistral", "@ai-sdk/deepseek", "@ai-sdk/moonshotai"];
  console.log(`AI SDK: ${packages.map((p) => `${p} ${versionOf(p)}`).join(", ")}`);
});
after(async () => {
  await mock?.close();
});
beforeEach(() => {
  mock.reset();
});

/** turnwire's provider name, the AI SDK model for it, the model id. */
const TARGETS = [
  ["anthropic", () => anthropic.createAnthropic({ baseURL: `${mock.baseURL("anthropic")}/v1`, apiKey: "k" })("claude-sonnet-4-6"), "claude-sonnet-4-6"],
  ["openai-chat", () => openai.createOpenAI({ baseURL: mock.baseURL("openai-chat"), apiKey: "k" }).chat("gpt-5.2"), "gpt-5.2"],
  ["openai-responses", () => openai.createOpenAI({ baseURL: mock.baseURL("openai-responses"), apiKey: "k" }).responses("gpt-5.2"), "gpt-5.2"],
  ["gemini", () => google.createGoogleGenerativeAI({ baseURL: `${mock.baseURL("gemini")}/v1beta`, apiKey: "k" })("gemini-2.5-pro"), "gemini-2.5-pro"],
];

/**
 * The chat dialects' own AI SDK providers. @ai-sdk/mistral, @ai-sdk/deepseek and
 * @ai-sdk/moonshotai write `content: ""` next to an assistant's tool calls, after any middleware
 * ran, which strict servers refuse (OAC-06): their own `fetch` option takes repairingFetch,
 * which repairs the body they built.
 */
const CHAT_TARGETS = [
  [
    "mistral",
    () => mistral.createMistral({ baseURL: mock.baseURL("mistral"), apiKey: "k", fetch: repairingFetch({ target: { provider: "mistral" } }) })("mistral-large-latest"),
    "mistral-large-latest",
  ],
  [
    "deepseek",
    () => deepseek.createDeepSeek({ baseURL: mock.baseURL("deepseek"), apiKey: "k", fetch: repairingFetch({ target: { provider: "deepseek" } }) })("deepseek-chat"),
    "deepseek-chat",
  ],
  [
    "kimi",
    () => moonshotai.createMoonshotAI({ baseURL: mock.baseURL("kimi"), apiKey: "k", fetch: repairingFetch({ target: { provider: "kimi" } }) })("kimi-k2-0905-preview"),
    "kimi-k2-0905-preview",
  ],
];

/** Two parallel calls, one answered, then the user moves on: the AI SDK refuses this history. */
const DANGLING = [
  { role: "user", content: "Read a.rs and b.rs." },
  {
    role: "assistant",
    content: [
      { type: "tool-call", toolCallId: "call_a", toolName: "read_file", input: { path: "a.rs" } },
      { type: "tool-call", toolCallId: "call_b", toolName: "read_file", input: { path: "b.rs" } },
    ],
  },
  { role: "tool", content: [{ type: "tool-result", toolCallId: "call_a", toolName: "read_file", output: { type: "text", value: "fn a() {}" } }] },
  { role: "user", content: "Never mind b.rs. What does a.rs do?" },
];

describe("AI SDK generateText against the strict mock providers", () => {
  for (const [provider, model, modelId] of TARGETS) {
    test(`${provider}: the plain AI SDK throws MissingToolResultsError; after repairModelMessages the strict mock accepts the request`, async () => {
      await assert.rejects(ai.generateText({ model: model(), messages: DANGLING, maxRetries: 0 }), (e) => {
        assert.ok(ai.MissingToolResultsError.isInstance(e), String(e));
        assert.deepEqual(e.toolCallIds, ["call_b"]);
        return true;
      });
      assert.equal(mock.stats.accepted + mock.stats.rejected, 0, "refused before any request");

      const { messages, diagnostics } = repairModelMessages(DANGLING, { provider, model: modelId });
      assert.ok(diagnostics.some((d) => d.code === "synthetic_result_added" && d.callId === "call_b"), JSON.stringify(diagnostics));
      mock.script(provider, { text: "a.rs defines an empty function a." });
      const result = await ai.generateText({ model: model(), messages, maxRetries: 0 });
      assert.equal(result.text, "a.rs defines an empty function a.");
      assert.deepEqual(mock.stats, { accepted: 1, rejected: 0, scriptedErrors: 0 }, JSON.stringify(mock.log.at(-1)?.violations ?? []));
    });
  }

  test("anthropic: a signed thinking turn from generateText reads back with its signature, and is replayed", async () => {
    const [, model, modelId] = TARGETS[0];
    mock.script("anthropic", { blocks: [{ type: "thinking", thinking: "Plan: read it." }, { type: "text", text: "Reading." }] }, { text: "Done." });
    const first = await ai.generateText({
      model: model(),
      messages: [{ role: "user", content: "Read a.rs." }],
      providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } },
      maxRetries: 0,
    });
    const history = [{ role: "user", content: "Read a.rs." }, ...first.response.messages, { role: "user", content: "And now?" }];
    const { transcript, diagnostics } = fromAiSdk(history, { provider: "anthropic", model: modelId });
    assert.deepEqual(diagnostics, []);
    const thinking = transcript[1].blocks[0];
    assert.equal(thinking.type, "thinking");
    assert.ok(thinking.signature.length > 20, "the signature the AI SDK kept in providerOptions");
    // turnwire replays it to the same model …
    const options = { provider: "anthropic", model: modelId, thinking: { enabled: true } };
    const body = JSON.parse(new TextDecoder().decode(renderBody(transcript, options)));
    assert.equal(body.messages[1].content[0].signature, thinking.signature);
    assert.deepEqual(validateRequest("anthropic", body), []);
    // … and written back with toAiSdk, the AI SDK replays it too (the strict mock checks it).
    const { messages } = toAiSdk(transcript);
    const second = await ai.generateText({
      model: model(),
      messages,
      providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } },
      maxRetries: 0,
    });
    assert.equal(second.text, "Done.");
    const sent = mock.log.at(-1).body;
    assert.equal(sent.messages[1].content[0].signature, thinking.signature);
    assert.deepEqual(mock.stats, { accepted: 2, rejected: 0, scriptedErrors: 0 });
  });
});

describe("bodies the AI SDK built, read back with fromRequestBody, render for every provider", () => {
  for (const [provider, model, modelId] of TARGETS) {
    test(`${provider}: a two-step tool loop's second request, imported and rendered for every provider, passes every strict validator with nothing lost`, async () => {
      mock.script(provider, { blocks: [{ type: "tool_call", name: "read_file", arguments: { path: "a.rs" } }] }, { text: "a.rs is empty." });
      const result = await ai.generateText({
        model: model(),
        system: "Answer briefly.",
        messages: [{ role: "user", content: "What is in a.rs?" }],
        tools: {
          read_file: ai.tool({
            description: "Read a file",
            inputSchema: ai.jsonSchema({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }),
            execute: async () => "fn main() {}",
          }),
        },
        stopWhen: ai.stepCountIs(2),
        maxRetries: 0,
      });
      assert.equal(result.text, "a.rs is empty.");
      assert.deepEqual(mock.stats, { accepted: 2, rejected: 0, scriptedErrors: 0 });
      const body = mock.log[1].body; // the AI SDK's own request: history, tool call and result
      assertRendersEverywhere(turnwire, provider, body, { model: modelId, kept: ["Answer briefly.", "What is in a.rs?", "read_file", "fn main() {}"] });
    });
  }
});

describe("turnwireMiddleware (wrapLanguageModel)", () => {
  // A history another provider wrote: a Responses-style `call|item` id (no provider but
  // OpenAI's takes it) and a 45-character id (over OpenAI Chat's 40).
  const FOREIGN = [
    { role: "user", content: "Read a.rs, then b.rs." },
    {
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: "call_abc|fc_0123", toolName: "read_file", input: { path: "a.rs" } },
        { type: "tool-call", toolCallId: "toolu_01ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklm", toolName: "read_file", input: { path: "b.rs" } },
      ],
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "call_abc|fc_0123", toolName: "read_file", output: { type: "text", value: "fn a() {}" } },
        { type: "tool-result", toolCallId: "toolu_01ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklm", toolName: "read_file", output: { type: "text", value: "fn b() {}" } },
      ],
    },
    { role: "user", content: "Which is longer?" },
  ];

  for (const [provider, model] of TARGETS.filter(([p]) => p === "anthropic" || p === "openai-chat")) {
    test(`${provider}: ids another provider wrote draw a 400 from the plain AI SDK; wrapped, every step is accepted`, async () => {
      mock.script(provider, { text: "unused" });
      await assert.rejects(ai.generateText({ model: model(), messages: FOREIGN, maxRetries: 0 }), (e) => ai.APICallError.isInstance(e) && e.statusCode === 400);
      assert.equal(mock.stats.rejected, 1);

      mock.reset();
      const seen = [];
      const wrapped = ai.wrapLanguageModel({ model: model(), middleware: turnwireMiddleware({ onDiagnostics: (d, target) => seen.push([target.provider, d.length]) }) });
      mock.script(provider, { blocks: [{ type: "tool_call", name: "read_file", arguments: { path: "c.rs" } }] }, { text: "b.rs is longer." });
      const result = await ai.generateText({
        model: wrapped,
        messages: FOREIGN,
        tools: { read_file: ai.tool({ description: "Read a file", inputSchema: ai.jsonSchema({ type: "object", properties: { path: { type: "string" } } }), execute: async () => "fn c() {}" }) },
        stopWhen: ai.stepCountIs(2),
        maxRetries: 0,
      });
      assert.equal(result.text, "b.rs is longer.");
      assert.deepEqual(mock.stats, { accepted: 2, rejected: 0, scriptedErrors: 0 }, JSON.stringify(mock.log.map((l) => l.violations)));
      // the provider saw ids in its own format; the application keeps its own
      assert.ok(!JSON.stringify(mock.log[0].body).includes("call_abc|fc_0123"));
      assert.equal(result.steps[0].toolCalls[0].toolName, "read_file");
      assert.ok(seen.length === 0 || seen.every(([p]) => p === provider), JSON.stringify(seen));
    });
  }

  test("streamText through the middleware: the stream's calls keep the provider's ids, nothing is lost", async () => {
    const [, model] = TARGETS[0];
    mock.script("anthropic", { blocks: [{ type: "text", text: "Reading." }, { type: "tool_call", name: "read_file", arguments: { path: "c.rs" } }] });
    const wrapped = ai.wrapLanguageModel({ model: model(), middleware: turnwireMiddleware() });
    const result = ai.streamText({ model: wrapped, messages: FOREIGN, tools: { read_file: ai.tool({ inputSchema: ai.jsonSchema({ type: "object" }) }) }, maxRetries: 0 });
    const calls = await result.toolCalls;
    assert.equal(calls.length, 1);
    assert.equal(calls[0].input.path, "c.rs");
    assert.equal(await result.text, "Reading.");
    assert.deepEqual(mock.stats, { accepted: 1, rejected: 0, scriptedErrors: 0 });
  });

  const readFile = (execute) =>
    ai.tool({ description: "Read a file", inputSchema: ai.jsonSchema({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }), execute });

  test("a switch chain through eight steps and seven AI SDK providers: every request the strict mocks see is valid", async () => {
    const chain = [TARGETS[0], TARGETS[1], TARGETS[3], ...CHAT_TARGETS, TARGETS[2], TARGETS[0]];
    const messages = [{ role: "user", content: "Read a.rs." }];
    const seen = [];
    for (const [i, [provider, model]] of chain.entries()) {
      // each provider thinks, then calls the tool; its continuity and ids are foreign to the next
      mock.script(provider, { blocks: [{ type: "thinking", thinking: `Step ${i}: read it.` }, { type: "tool_call", name: "read_file", arguments: { path: `${i}.rs` } }] }, { text: `Step ${i} done.` });
      const wrapped = ai.wrapLanguageModel({ model: model(), middleware: turnwireMiddleware({ onDiagnostics: (d) => seen.push(...d.map((x) => x.code)) }) });
      const result = await ai.generateText({ model: wrapped, messages, tools: { read_file: readFile(async ({ path }) => `contents of ${path}`) }, stopWhen: ai.stepCountIs(2), maxRetries: 0 });
      assert.equal(result.text, `Step ${i} done.`, `${provider}: ${JSON.stringify(mock.log.at(-1)?.violations)}`);
      messages.push(...result.response.messages, { role: "user", content: `Now ${i + 1}.rs.` });
    }
    assert.deepEqual(mock.stats, { accepted: chain.length * 2, rejected: 0, scriptedErrors: 0 }, JSON.stringify(mock.log.filter((l) => l.violations.length > 0).map((l) => [l.provider, l.violations])));
    assert.ok(seen.length > 0, "foreign continuity was repaired");
    // the application's history keeps every call id the providers gave it, paired with its result
    const calls = messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((p) => p.type === "tool-call").map((p) => p.toolCallId) : []));
    const results = messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((p) => p.type === "tool-result").map((p) => p.toolCallId) : []));
    assert.equal(calls.length, chain.length);
    assert.deepEqual(results, calls);
  });

  for (const [provider, model] of [TARGETS[1], TARGETS[0], TARGETS[2]]) {
    test(`${provider}: a tool name the provider refuses is renamed for it and mapped back, so the AI SDK finds the tool`, async () => {
      const tools = (execute) => ({ "fs.read": readFile(execute) });
      await assert.rejects(ai.generateText({ model: model(), prompt: "Read a.rs.", tools: tools(async () => ""), maxRetries: 0 }), (e) => ai.APICallError.isInstance(e) && e.statusCode === 400);
      mock.reset();
      const sent = renderForProvider([{ speaker: "human", blocks: [{ type: "text", text: "hi" }] }], { provider, model: "m", tools: [{ name: "fs.read" }] }).toolNames["fs.read"];
      assert.ok(sent && sent !== "fs.read", "the provider's rules rename it");
      mock.script(provider, { blocks: [{ type: "tool_call", name: sent, arguments: { path: "a.rs" } }] }, { text: "Empty." });
      const executed = [];
      const wrapped = ai.wrapLanguageModel({ model: model(), middleware: turnwireMiddleware() });
      const result = await ai.generateText({ model: wrapped, prompt: "Read a.rs.", tools: tools(async ({ path }) => (executed.push(path), "")), stopWhen: ai.stepCountIs(2), maxRetries: 0 });
      assert.equal(result.text, "Empty.");
      assert.deepEqual(executed, ["a.rs"]);
      assert.equal(result.steps[0].toolCalls[0].toolName, "fs.read");
      assert.deepEqual(mock.stats, { accepted: 2, rejected: 0, scriptedErrors: 0 });
      assert.ok(JSON.stringify(mock.log[1].body).includes(sent) && !JSON.stringify(mock.log[1].body).includes("fs.read"));
    });
  }

  test("streamText: a renamed tool's calls are mapped back in the stream, so the AI SDK runs the tool", async () => {
    const [, model] = TARGETS[0];
    const sent = renderForProvider([{ speaker: "human", blocks: [{ type: "text", text: "hi" }] }], { provider: "anthropic", model: "m", tools: [{ name: "fs.read" }] }).toolNames["fs.read"];
    mock.script("anthropic", { blocks: [{ type: "tool_call", name: sent, arguments: { path: "a.rs" } }] }, { text: "Empty." });
    const executed = [];
    const wrapped = ai.wrapLanguageModel({ model: model(), middleware: turnwireMiddleware() });
    const result = ai.streamText({ model: wrapped, prompt: "Read a.rs.", tools: { "fs.read": readFile(async ({ path }) => (executed.push(path), "")) }, stopWhen: ai.stepCountIs(2), maxRetries: 0 });
    assert.equal(await result.text, "Empty.");
    assert.deepEqual(executed, ["a.rs"]);
    const steps = await result.steps;
    assert.equal(steps[0].toolCalls[0].toolName, "fs.read");
    assert.deepEqual(mock.stats, { accepted: 2, rejected: 0, scriptedErrors: 0 });
  });

  test("anthropic thinking: a tool loop another provider left open turns thinking off for the step, as the render does", async () => {
    const [, model] = TARGETS[0];
    // openai-chat called the tool, the result came back: the last assistant turn has no thinking
    const history = [
      { role: "user", content: "Read a.rs." },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", toolName: "read_file", input: { path: "a.rs" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "call_1", toolName: "read_file", output: { type: "text", value: "fn a() {}" } }] },
    ];
    const providerOptions = { anthropic: { thinking: { type: "enabled", budgetTokens: 2048 } } };
    const tools = { read_file: readFile(async () => "") };
    mock.script("anthropic", { text: "unused" });
    await assert.rejects(ai.generateText({ model: model(), messages: history, tools, providerOptions, maxRetries: 0 }), (e) => ai.APICallError.isInstance(e) && e.statusCode === 400);
    mock.reset();
    mock.script("anthropic", { text: "a.rs defines a." });
    const seen = [];
    const wrapped = ai.wrapLanguageModel({ model: model(), middleware: turnwireMiddleware({ onDiagnostics: (d) => seen.push(...d.map((x) => x.code)) }) });
    const result = await ai.generateText({ model: wrapped, messages: history, tools, providerOptions, maxRetries: 0 });
    assert.equal(result.text, "a.rs defines a.");
    assert.ok(seen.includes("thinking_disabled_for_request"), seen.join());
    assert.deepEqual(mock.log[0].violations, []);
    assert.equal(mock.log[0].body.thinking?.type ?? "disabled", "disabled");
  });

  test("providerOfModel maps the AI SDK's provider strings", () => {
    assert.deepEqual(
      ["anthropic.messages", "openai.responses", "openai.chat", "azure.chat", "google.generative-ai", "google.vertex.chat", "mistral.chat", "deepseek.chat", "moonshotai.chat", "bedrock.anthropic.messages", "groq.chat"].map(providerOfModel),
      ["anthropic", "openai-responses", "openai-chat", "openai-chat", "gemini", "gemini", "mistral", "deepseek", "kimi", "anthropic", "openai-compatible"],
    );
  });
});
