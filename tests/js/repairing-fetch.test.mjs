// repairingFetch with the real official clients (openai 6, @anthropic-ai/sdk 1, @google/genai 2,
// pinned in tests/js/mock-sdk/package.json) against turnwire's strict mock providers (issue 11):
// each client sends a damaged history of its own format (a tool call left without its result
// before the next user turn), which the plain client sends to a 400; through repairingFetch the
// same call succeeds, streaming and not, and the mock's strict validator finds nothing. And the
// bodies these clients' request builders make for a two-step tool loop, read back with
// fromRequestBody, render for every provider with nothing lost.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { after, before, beforeEach, describe, test } from "node:test";
import * as turnwire from "turnwire";
import { repairingFetch } from "turnwire";
import { startMockProviders } from "turnwire/mock";
import { assertRendersEverywhere } from "./mock-helpers.mjs";

const SDK_DIR = resolve(process.env.TURNWIRE_MOCK_SDK ?? "../js-mock-sdk");
const sdk = createRequire(join(SDK_DIR, "package.json"));
const { default: Anthropic } = sdk("@anthropic-ai/sdk");
const { default: OpenAI } = sdk("openai");
const { GoogleGenAI } = sdk("@google/genai");

let mock;
before(async () => {
  mock = await startMockProviders({ chunkSize: 7 });
});
after(async () => {
  await mock?.close();
});
beforeEach(() => {
  mock.reset();
});

const TEXT_TURN = { blocks: [{ type: "text", text: "a.rs defines fn a. ✓" }] };

/** Records every repair the fetch reports. */
function recorder(options = {}) {
  const seen = [];
  const fetch = repairingFetch({ ...options, onDiagnostics: (diagnostics, request) => seen.push({ diagnostics, request }) });
  return { seen, fetch };
}

/** The last request the mock saw was accepted and had no violations. */
function assertAccepted(provider) {
  const last = mock.log.at(-1);
  assert.equal(last.provider, provider);
  assert.deepEqual(last.violations, [], JSON.stringify(last.violations));
  assert.equal(last.status, 200);
}

const codesOf = (seen) => seen.flatMap((s) => s.diagnostics.map((d) => d.code));

describe("@anthropic-ai/sdk", () => {
  const MESSAGES = [
    { role: "user", content: "Read a.rs and b.rs." },
    {
      role: "assistant",
      content: [
        { type: "tool_use", id: "toolu_a", name: "read_file", input: { path: "a.rs" } },
        { type: "tool_use", id: "toolu_b", name: "read_file", input: { path: "b.rs" } },
      ],
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_a", content: "fn a() {}" }] },
    { role: "user", content: "Never mind b.rs. What does a.rs do?" },
  ];
  const params = { model: "claude-sonnet-4-6", max_tokens: 1024, messages: MESSAGES };
  const client = (fetch) => new Anthropic({ baseURL: mock.baseURL("anthropic"), apiKey: "k", maxRetries: 0, ...(fetch ? { fetch } : {}) });

  test("the plain client draws a 400", async () => {
    await assert.rejects(client().messages.create(params), Anthropic.BadRequestError);
  });

  test("messages.create through repairingFetch: accepted, the repairs reported", async () => {
    mock.script("anthropic", TEXT_TURN);
    const { seen, fetch } = recorder();
    const message = await client(fetch).messages.create(params);
    assert.equal(message.content[0].text, TEXT_TURN.blocks[0].text);
    assertAccepted("anthropic");
    assert.ok(codesOf(seen).includes("synthetic_result_added"), codesOf(seen).join());
    assert.equal(seen[0].request.provider, "anthropic");
    assert.equal(seen[0].request.model, "claude-sonnet-4-6");
    // the two user turns became one, the missing result sits first in it
    const sent = mock.log.at(-1).body;
    assert.deepEqual(sent.messages.map((m) => m.role), ["user", "assistant", "user"]);
    assert.deepEqual(sent.messages[2].content.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id), ["toolu_a", "toolu_b"]);
  });

  test("messages.stream through repairingFetch: the stream passes through", async () => {
    mock.script("anthropic", TEXT_TURN);
    const { fetch } = recorder();
    let text = "";
    const stream = client(fetch).messages.stream(params);
    stream.on("text", (t) => {
      text += t;
    });
    const final = await stream.finalMessage();
    assert.equal(text, TEXT_TURN.blocks[0].text);
    assert.equal(final.stop_reason, "end_turn");
    assertAccepted("anthropic");
    assert.equal(mock.log.at(-1).body.stream, true, "the body's own fields are kept");
  });
});

describe("openai chat completions", () => {
  const MESSAGES = [
    { role: "user", content: "Read a.rs and b.rs." },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_a", type: "function", function: { name: "read_file", arguments: '{"path":"a.rs"}' } },
        { id: "call_b", type: "function", function: { name: "read_file", arguments: '{"path":"b.rs"}' } },
      ],
    },
    { role: "tool", tool_call_id: "call_a", content: "fn a() {}" },
    { role: "user", content: "Never mind b.rs. What does a.rs do?" },
  ];
  const client = (provider, fetch) => new OpenAI({ baseURL: mock.baseURL(provider), apiKey: "k", maxRetries: 0, ...(fetch ? { fetch } : {}) });

  for (const [provider, model] of [
    ["openai-chat", "gpt-5.2"],
    ["deepseek", "deepseek-chat"],
    ["mistral", "mistral-large-latest"],
  ]) {
    test(`${provider}: the plain client draws a 400; through repairingFetch({ target: { provider } }) create() and stream() are accepted`, async () => {
      const params = { model, messages: MESSAGES };
      await assert.rejects(client(provider).chat.completions.create(params), OpenAI.BadRequestError);
      mock.script(provider, TEXT_TURN, TEXT_TURN);
      const { seen, fetch } = recorder({ target: { provider } });
      const completion = await client(provider, fetch).chat.completions.create(params);
      assert.equal(completion.choices[0].message.content, TEXT_TURN.blocks[0].text);
      assertAccepted(provider);
      assert.ok(codesOf(seen).includes("synthetic_result_added"));
      const streamed = await client(provider, fetch).chat.completions.stream(params).finalChatCompletion();
      assert.equal(streamed.choices[0].message.content, TEXT_TURN.blocks[0].text);
      assertAccepted(provider);
      assert.equal(mock.log.at(-1).body.stream, true);
    });
  }

  test("a chat body to an unknown host is read as openai-compatible", async () => {
    mock.script("openai-compatible", TEXT_TURN);
    const { seen, fetch } = recorder();
    await client("openai-compatible", fetch).chat.completions.create({ model: "qwen3-32b", messages: MESSAGES });
    assertAccepted("openai-compatible");
    assert.equal(seen[0].request.provider, "openai-compatible");
  });
});

describe("openai responses", () => {
  const INPUT = [
    { role: "user", content: "Read a.rs and b.rs." },
    { type: "function_call", call_id: "call_a", name: "read_file", arguments: '{"path":"a.rs"}' },
    { type: "function_call", call_id: "call_b", name: "read_file", arguments: '{"path":"b.rs"}' },
    { type: "function_call_output", call_id: "call_a", output: "fn a() {}" },
    { role: "user", content: "Never mind b.rs. What does a.rs do?" },
  ];
  const params = { model: "gpt-5.2", input: INPUT };
  const client = (fetch) => new OpenAI({ baseURL: mock.baseURL("openai-responses"), apiKey: "k", maxRetries: 0, ...(fetch ? { fetch } : {}) });

  test("the plain client draws a 400; through repairingFetch create() and stream() are accepted", async () => {
    await assert.rejects(client().responses.create(params), OpenAI.BadRequestError);
    mock.script("openai-responses", TEXT_TURN, TEXT_TURN);
    const { seen, fetch } = recorder();
    const response = await client(fetch).responses.create(params);
    assert.equal(response.output_text, TEXT_TURN.blocks[0].text);
    assertAccepted("openai-responses");
    assert.ok(codesOf(seen).includes("synthetic_result_added"));
    const streamed = await client(fetch).responses.stream(params).finalResponse();
    assert.equal(streamed.output_text, TEXT_TURN.blocks[0].text);
    assertAccepted("openai-responses");
  });
});

describe("@google/genai", () => {
  const CONTENTS = [
    { role: "user", parts: [{ text: "Read a.rs and b.rs." }] },
    {
      role: "model",
      parts: [{ functionCall: { name: "read_file", args: { path: "a.rs" } } }, { functionCall: { name: "read_file", args: { path: "b.rs" } } }],
    },
    { role: "user", parts: [{ functionResponse: { name: "read_file", response: { output: "fn a() {}" } } }] },
    { role: "user", parts: [{ text: "Never mind b.rs. What does a.rs do?" }] },
  ];
  const request = { model: "gemini-2.5-pro", contents: CONTENTS };
  const client = (fetch) => new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: mock.baseURL("gemini"), ...(fetch ? { fetch } : {}) } });

  test("the plain client draws a 400; through repairingFetch generateContent() and generateContentStream() are accepted", async () => {
    await assert.rejects(client().models.generateContent(request), (e) => e.status === 400);
    mock.script("gemini", TEXT_TURN, TEXT_TURN);
    const { seen, fetch } = recorder();
    const res = await client(fetch).models.generateContent(request);
    assert.equal(res.text, TEXT_TURN.blocks[0].text);
    assertAccepted("gemini");
    assert.equal(seen[0].request.model, "gemini-2.5-pro", "the model is read from the URL");
    let streamed = "";
    for await (const chunk of await client(fetch).models.generateContentStream(request)) streamed += chunk.text ?? "";
    assert.equal(streamed, TEXT_TURN.blocks[0].text);
    assertAccepted("gemini");
  });
});

describe("what repairingFetch leaves alone", () => {
  /** A fetch that records what it was given and answers 200 `{}`. */
  function spy() {
    const calls = [];
    const fetch = async (url, init) => {
      calls.push({ url: String(url), init });
      return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    };
    return { calls, fetch };
  }

  test("requests that are not a provider call go out as they were", async () => {
    const { calls, fetch } = spy();
    const f = repairingFetch({ fetch });
    const init = { method: "GET", headers: { authorization: "Bearer k" } };
    await f("https://api.openai.com/v1/models", init);
    await f("https://api.anthropic.com/v1/messages/count_tokens", { method: "POST", body: "{}" });
    // as they were, asked not to follow redirects (repairingFetch follows same-origin ones itself)
    assert.deepEqual(calls[0].init, { ...init, redirect: "manual" });
    assert.equal(init.redirect, undefined, "the caller's init is left as it was");
    assert.equal(calls[1].init.body, "{}");
  });

  test("a body that is not JSON goes out as it was, and onError says why", async () => {
    const { calls, fetch } = spy();
    const errors = [];
    const f = repairingFetch({ fetch, onError: (e, request) => errors.push([e.code, request.provider]) });
    await f("https://api.anthropic.com/v1/messages", { method: "POST", body: "{not json" });
    assert.equal(calls[0].init.body, "{not json");
    assert.deepEqual(errors, [["invalid_json", "anthropic"]]);
  });

  test("headers of any form are kept, content-length is dropped, the signal is passed on", async () => {
    const { calls, fetch } = spy();
    const f = repairingFetch({ fetch });
    const signal = new AbortController().signal;
    const body = JSON.stringify({ model: "gpt-5.2", messages: [{ role: "user", content: "hi" }] });
    await f(new URL("https://api.openai.com/v1/chat/completions"), { method: "POST", headers: new Headers({ Authorization: "Bearer k", "Content-Length": "12" }), body, signal });
    assert.deepEqual(calls[0].init.headers, { authorization: "Bearer k" });
    assert.equal(calls[0].init.signal, signal);
    assert.equal(new TextDecoder().decode(calls[0].init.body), body);
    await f(new Request("https://api.openai.com/v1/chat/completions", { method: "POST", headers: [["x-a", "1"]], body }));
    assert.equal(calls[1].url, "https://api.openai.com/v1/chat/completions");
    assert.deepEqual(calls[1].init.headers, { "content-type": "text/plain;charset=UTF-8", "x-a": "1" });
    assert.equal(new TextDecoder().decode(calls[1].init.body), body);
  });

  test("a target of another API without a model is refused with a TypeError naming it", async () => {
    const { calls, fetch } = spy();
    const f = repairingFetch({ fetch, target: { provider: "gemini" } });
    await assert.rejects(f("https://api.anthropic.com/v1/messages", { method: "POST", body: "{}" }), (e) => {
      assert.ok(e instanceof TypeError);
      assert.match(e.message, /gemini target for a messages client needs target.model/);
      return true;
    });
    assert.equal(calls.length, 0);
    assert.throws(() => repairingFetch({ target: "gemini" }), TypeError);
  });
});

describe("bodies the official clients built, read back with fromRequestBody, render for every provider", () => {
  const SYSTEM = "Answer briefly.";
  const QUESTION = "What is in a.rs?";
  const RESULT = "fn main() {}";
  const KEPT = [SYSTEM, QUESTION, "read_file", RESULT];
  const SCHEMA = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
  const CALL = { blocks: [{ type: "tool_call", name: "read_file", arguments: { path: "a.rs" } }] };
  const DONE = { text: "a.rs holds an empty main." };

  // Each client sends through repairingFetch (the strict mock refuses a Responses history that
  // replays an `fc_` call id without a reasoning item, which pushing `response.output` back
  // does); `sent` records each body as the client's request builder made it, before the repair.
  let sent = [];
  const recording = repairingFetch({ fetch: (url, init) => fetch(url, init) });
  const fetchOf = () => {
    sent = [];
    return (url, init) => {
      sent.push(JSON.parse(init.body));
      return recording(url, init);
    };
  };

  /** The second request the client built (its own body), after both steps were accepted. */
  function secondBody(provider) {
    assert.deepEqual(mock.stats, { accepted: 2, rejected: 0, scriptedErrors: 0 });
    assert.equal(mock.log[1].provider, provider);
    assert.equal(sent.length, 2);
    return sent[1];
  }

  test("@anthropic-ai/sdk messages.create", async () => {
    mock.script("anthropic", CALL, DONE);
    const client = new Anthropic({ baseURL: mock.baseURL("anthropic"), apiKey: "k", maxRetries: 0, fetch: fetchOf() });
    const tools = [{ name: "read_file", description: "Read a file", input_schema: SCHEMA }];
    const messages = [{ role: "user", content: QUESTION }];
    const first = await client.messages.create({ model: "claude-sonnet-4-6", max_tokens: 512, system: SYSTEM, tools, messages });
    const use = first.content.find((b) => b.type === "tool_use");
    messages.push({ role: "assistant", content: first.content }, { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: RESULT }] });
    await client.messages.create({ model: "claude-sonnet-4-6", max_tokens: 512, system: SYSTEM, tools, messages });
    assertRendersEverywhere(turnwire, "anthropic", secondBody("anthropic"), { model: "claude-sonnet-4-6", kept: KEPT });
  });

  test("openai chat.completions.create", async () => {
    mock.script("openai-chat", CALL, DONE);
    const client = new OpenAI({ baseURL: mock.baseURL("openai-chat"), apiKey: "k", maxRetries: 0, fetch: fetchOf() });
    const tools = [{ type: "function", function: { name: "read_file", description: "Read a file", parameters: SCHEMA } }];
    const messages = [{ role: "system", content: SYSTEM }, { role: "user", content: QUESTION }];
    const first = await client.chat.completions.create({ model: "gpt-5.2", tools, messages });
    const message = first.choices[0].message;
    messages.push(message, { role: "tool", tool_call_id: message.tool_calls[0].id, content: RESULT });
    await client.chat.completions.create({ model: "gpt-5.2", tools, messages });
    assertRendersEverywhere(turnwire, "openai-chat", secondBody("openai-chat"), { model: "gpt-5.2", kept: KEPT });
  });

  test("openai responses.create", async () => {
    mock.script("openai-responses", CALL, DONE);
    const client = new OpenAI({ baseURL: mock.baseURL("openai-responses"), apiKey: "k", maxRetries: 0, fetch: fetchOf() });
    const tools = [{ type: "function", name: "read_file", description: "Read a file", parameters: SCHEMA, strict: false }];
    const input = [{ role: "user", content: QUESTION }];
    const first = await client.responses.create({ model: "gpt-5.2", instructions: SYSTEM, tools, input });
    const call = first.output.find((o) => o.type === "function_call");
    input.push(...first.output, { type: "function_call_output", call_id: call.call_id, output: RESULT });
    await client.responses.create({ model: "gpt-5.2", instructions: SYSTEM, tools, input });
    assertRendersEverywhere(turnwire, "openai-responses", secondBody("openai-responses"), { model: "gpt-5.2", kept: KEPT });
  });

  test("@google/genai models.generateContent", async () => {
    mock.script("gemini", CALL, DONE);
    const client = new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: mock.baseURL("gemini"), fetch: fetchOf() } });
    const config = { systemInstruction: SYSTEM, tools: [{ functionDeclarations: [{ name: "read_file", description: "Read a file", parametersJsonSchema: SCHEMA }] }] };
    const contents = [{ role: "user", parts: [{ text: QUESTION }] }];
    const first = await client.models.generateContent({ model: "gemini-2.5-pro", contents, config });
    const call = first.functionCalls[0];
    contents.push(first.candidates[0].content, { role: "user", parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: RESULT } } }] });
    await client.models.generateContent({ model: "gemini-2.5-pro", contents, config });
    assertRendersEverywhere(turnwire, "gemini", secondBody("gemini"), { model: "gemini-2.5-pro", kept: KEPT });
  });
});

describe("a client answered by a provider of another API (target), streaming and not", () => {
  // what the target provider says: it thinks, writes and calls a tool
  const TURN = { blocks: [{ type: "thinking", thinking: "Plan the read." }, { type: "text", text: "Reading a.rs." }, { type: "tool_call", name: "read_file", arguments: { path: "a.rs" } }] };
  const EXPECTED = { text: "Reading a.rs.", calls: [["read_file", { path: "a.rs" }]] };
  const TOOLS_SCHEMA = { type: "object", properties: { path: { type: "string" } } };
  const TARGET_MODELS = { anthropic: "claude-sonnet-4-6", "openai-chat": "gpt-5.2", "openai-responses": "gpt-5.2", gemini: "gemini-2.5-pro" };
  const textOf = (parts) => parts.join("");

  /** Each client: how it is built with a fetch, and its whole and streamed calls, read back as { text, calls }. */
  const CLIENTS = {
    anthropic: {
      make: (fetch) => new Anthropic({ apiKey: "unused", maxRetries: 0, fetch }),
      params: { model: "claude-sonnet-4-6", max_tokens: 512, messages: [{ role: "user", content: "Read a.rs." }], tools: [{ name: "read_file", input_schema: TOOLS_SCHEMA }] },
      read: (m) => ({ text: textOf(m.content.filter((b) => b.type === "text").map((b) => b.text)), calls: m.content.filter((b) => b.type === "tool_use").map((b) => [b.name, b.input]) }),
      whole: async (c, p) => c.messages.create(p),
      stream: async (c, p) => c.messages.stream(p).finalMessage(),
    },
    "openai-chat": {
      make: (fetch) => new OpenAI({ apiKey: "unused", maxRetries: 0, fetch }),
      params: { model: "gpt-5.2", messages: [{ role: "user", content: "Read a.rs." }], tools: [{ type: "function", function: { name: "read_file", parameters: TOOLS_SCHEMA } }] },
      read: (c) => ({ text: c.choices[0].message.content ?? "", calls: (c.choices[0].message.tool_calls ?? []).map((t) => [t.function.name, JSON.parse(t.function.arguments)]) }),
      whole: async (c, p) => c.chat.completions.create(p),
      stream: async (c, p) => c.chat.completions.stream(p).finalChatCompletion(),
    },
    "openai-responses": {
      make: (fetch) => new OpenAI({ apiKey: "unused", maxRetries: 0, fetch }),
      params: { model: "gpt-5.2", input: "Read a.rs.", tools: [{ type: "function", name: "read_file", parameters: TOOLS_SCHEMA, strict: false }] },
      read: (r) => ({ text: r.output_text, calls: r.output.filter((o) => o.type === "function_call").map((o) => [o.name, JSON.parse(o.arguments)]) }),
      whole: async (c, p) => c.responses.create(p),
      stream: async (c, p) => c.responses.stream(p).finalResponse(),
    },
    gemini: {
      make: (fetch) => new GoogleGenAI({ apiKey: "unused", httpOptions: { fetch } }),
      params: { model: "gemini-2.5-pro", contents: [{ role: "user", parts: [{ text: "Read a.rs." }] }], config: { tools: [{ functionDeclarations: [{ name: "read_file", parametersJsonSchema: TOOLS_SCHEMA }] }] } },
      read: (r) => ({ text: r.text ?? "", calls: (r.functionCalls ?? []).map((f) => [f.name, f.args]) }),
      whole: async (c, p) => c.models.generateContent(p),
      stream: async (c, p) => {
        const parts = [];
        const calls = [];
        for await (const chunk of await c.models.generateContentStream(p)) {
          parts.push(chunk.text ?? "");
          calls.push(...(chunk.functionCalls ?? []));
        }
        return { text: textOf(parts), functionCalls: calls };
      },
    },
  };

  for (const [client, use] of Object.entries(CLIENTS)) {
    for (const target of Object.keys(CLIENTS).filter((t) => t !== client)) {
      test(`${client} client, ${target} provider: the answer reads as the client's own, whole and streamed`, async () => {
        const answers = [];
        const fetch = repairingFetch({
          target: { provider: target, model: TARGET_MODELS[target], apiKey: "test-key", baseURL: mock.baseURL(target) },
          onAnswer: (outcome, request) => answers.push([outcome.message.blocks.map((b) => b.type), request.provider]),
        });
        const sdk = use.make(fetch);
        mock.script(target, TURN, TURN);
        assert.deepEqual(use.read(await use.whole(sdk, use.params)), EXPECTED);
        assert.deepEqual(use.read(await use.stream(sdk, use.params)), EXPECTED);
        assert.deepEqual(mock.stats, { accepted: 2, rejected: 0, scriptedErrors: 0 }, JSON.stringify(mock.log.map((l) => l.violations)));
        assert.equal(mock.log[0].model, TARGET_MODELS[target]);
        assert.equal(mock.log[1].stream, true);
        assert.deepEqual(answers.map(([, p]) => p), [target, target]);
        assert.ok(answers.every(([types]) => types.includes("tool_call")));
      });
    }
  }

  test("a two-turn tool loop: the client replays the translated answer and the target accepts it", async () => {
    const loops = [
      ["anthropic", "gemini", async (sdk) => {
        const p = structuredClone(CLIENTS.anthropic.params);
        const first = await sdk.messages.create(p);
        const use = first.content.find((b) => b.type === "tool_use");
        p.messages.push({ role: "assistant", content: first.content }, { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "fn a() {}" }] });
        return sdk.messages.create(p);
      }],
      ["openai-responses", "anthropic", async (sdk) => {
        const p = structuredClone(CLIENTS["openai-responses"].params);
        const first = await sdk.responses.create(p);
        const call = first.output.find((o) => o.type === "function_call");
        p.input = [{ role: "user", content: "Read a.rs." }, ...first.output, { type: "function_call_output", call_id: call.call_id, output: "fn a() {}" }];
        return sdk.responses.create(p);
      }],
      ["gemini", "openai-chat", async (sdk) => {
        const p = structuredClone(CLIENTS.gemini.params);
        const first = await sdk.models.generateContent(p);
        const call = first.functionCalls[0];
        p.contents.push(first.candidates[0].content, { role: "user", parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: "fn a() {}" } } }] });
        return sdk.models.generateContent(p);
      }],
    ];
    for (const [client, target, loop] of loops) {
      mock.reset();
      mock.script(target, TURN, { text: "a.rs defines a." });
      const fetch = repairingFetch({ target: { provider: target, model: TARGET_MODELS[target], apiKey: "test-key", baseURL: mock.baseURL(target) } });
      const last = CLIENTS[client].read(await loop(CLIENTS[client].make(fetch)));
      assert.deepEqual(last, { text: "a.rs defines a.", calls: [] }, `${client} → ${target}`);
      assert.deepEqual(mock.stats, { accepted: 2, rejected: 0, scriptedErrors: 0 }, `${client} → ${target}: ${JSON.stringify(mock.log.map((l) => l.violations))}`);
    }
  });

  test("an error of the target provider reaches the client as its own typed error", async () => {
    const fetch = repairingFetch({ target: { provider: "gemini", model: "gemini-2.5-pro", apiKey: "test-key", baseURL: mock.baseURL("gemini") } });
    mock.script("gemini", { kind: "error", status: 429 });
    const sdk = CLIENTS.anthropic.make(fetch);
    await assert.rejects(sdk.messages.create(CLIENTS.anthropic.params), (e) => {
      assert.ok(e instanceof Anthropic.RateLimitError, String(e));
      return true;
    });
  });
});

describe("the official clients through repairingFetch: no redirect to another origin (issue 29)", () => {
  /** A server on 127.0.0.1 that records what it got; `answer` answers. */
  const listen = async (answer) => {
    const got = [];
    const server = createServer((req, res) => {
      const chunks = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        got.push({ url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        answer(req, res);
      });
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { origin: `http://127.0.0.1:${server.address().port}`, got, close: () => new Promise((resolve) => server.close(resolve)) };
  };

  test("a 307 to another origin: the client fails with the refusal as its cause, the other origin gets nothing; a same-origin 307 works", async () => {
    const other = await listen((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
    const leaving = await listen((_req, res) => res.writeHead(307, { location: `${other.origin}/v1/messages` }).end());
    const staying = await listen((req, res) => {
      if (req.url === "/v1/messages") return void res.writeHead(307, { location: "/proxy/v1/messages" }).end();
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "Hello." }], stop_reason: "end_turn", usage: { input_tokens: 5, output_tokens: 2 } }));
    });
    try {
      const params = { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "a secret plan" }] };
      const refused = new Anthropic({ baseURL: leaving.origin, apiKey: "sk-PLANTED-sdk-key", maxRetries: 0, fetch: repairingFetch() });
      await assert.rejects(refused.messages.create(params), (e) => {
        assert.ok(e instanceof Anthropic.APIConnectionError, String(e));
        assert.equal(e.cause?.errorType, "redirect_refused", String(e.cause));
        return true;
      });
      assert.equal(leaving.got.length, 1);
      assert.deepEqual(other.got, [], "the other origin got no key and no body");

      const followed = new Anthropic({ baseURL: staying.origin, apiKey: "sk-PLANTED-sdk-key", maxRetries: 0, fetch: repairingFetch() });
      const message = await followed.messages.create(params);
      assert.equal(message.content[0].text, "Hello.");
      const auth = "Bearer sk-PLANTED-sdk-key";
      assert.deepEqual(staying.got.map((g) => [g.url, g.headers.authorization]), [["/v1/messages", auth], ["/proxy/v1/messages", auth]]);
      assert.equal(staying.got[1].body, staying.got[0].body);
    } finally {
      await Promise.all([other.close(), leaving.close(), staying.close()]);
    }
  });
});
