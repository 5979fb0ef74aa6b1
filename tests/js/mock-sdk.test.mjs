// The official SDKs' own parsers against turnwire/mock: each SDK sends a body turnwire rendered
// (as its request params), and streams one scripted text turn and one parallel tool-call turn
// back through its stream helper (the one that accumulates the final message and throws on
// events out of place). Scripted errors and 400s must surface as the SDK's typed errors.
//
// The SDKs come from tests/js/mock-sdk/package.json, installed by scripts/test-js.sh into
// $TURNWIRE_MOCK_SDK (default target/js-mock-sdk); loaded with require() from there.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { after, before, beforeEach, describe, test } from "node:test";
import { isValidToolId, renderBody } from "turnwire";
import { startMockProviders } from "turnwire/mock";
import { MODELS } from "./mock-helpers.mjs";

const SDK_DIR = resolve(process.env.TURNWIRE_MOCK_SDK ?? "../js-mock-sdk");
const sdk = createRequire(join(SDK_DIR, "package.json"));
const { default: Anthropic } = sdk("@anthropic-ai/sdk");
const { default: OpenAI } = sdk("openai");
const { GoogleGenAI, ApiError: GeminiApiError } = sdk("@google/genai");
const versionOf = (name) => JSON.parse(readFileSync(join(SDK_DIR, "node_modules", name, "package.json"), "utf8")).version;

const FIXTURE = join(process.env.TURNWIRE_FIXTURES ?? "", "01-clean-multi-turn-tools");
const TRANSCRIPT = readFileSync(join(FIXTURE, "transcript.json"), "utf8");
const OPTIONS = JSON.parse(readFileSync(join(FIXTURE, "options.json"), "utf8"));

/** The SDK warns on every call with claude-sonnet-4-5 (deprecated): a current Claude here. */
const SDK_MODELS = { ...MODELS, anthropic: "claude-sonnet-4-6" };

/** turnwire's body for `provider`, as an object (the SDK call's params). */
const params = (provider, model = SDK_MODELS[provider]) =>
  JSON.parse(new TextDecoder().decode(renderBody(TRANSCRIPT, { provider, model, ...OPTIONS })));

const TEXT = "Edition 2021, declared in Cargo.toml. ✓";
const THOUGHT = "The user asks about the edition.";
const TEXT_TURN = { blocks: [{ type: "thinking", thinking: THOUGHT }, { type: "text", text: TEXT }] };
const TOOL_TURN = {
  blocks: [
    { type: "tool_call", name: "read_file", arguments: { path: "Cargo.toml", maxLines: 5 } },
    { type: "tool_call", name: "stat", arguments: { path: "Cargo.lock" } },
  ],
};
const CALLS = [
  ["read_file", { path: "Cargo.toml", maxLines: 5 }],
  ["stat", { path: "Cargo.lock" }],
];

let mock;
before(async () => {
  mock = await startMockProviders({ chunkSize: 5 });
  console.log(`SDKs: @anthropic-ai/sdk ${versionOf("@anthropic-ai/sdk")}, openai ${versionOf("openai")}, @google/genai ${versionOf("@google/genai")}`);
});
after(async () => {
  await mock?.close();
});
beforeEach(() => {
  mock.reset();
});

describe("@anthropic-ai/sdk", () => {
  const client = () => new Anthropic({ baseURL: mock.baseURL("anthropic"), apiKey: "test-key", maxRetries: 0 });

  test("messages.stream(): thinking + text turn, then a parallel tool_use turn", async () => {
    mock.script("anthropic", TEXT_TURN, TOOL_TURN);
    let streamedText = "";
    const stream = client().messages.stream(params("anthropic"));
    stream.on("text", (t) => {
      streamedText += t;
    });
    const first = await stream.finalMessage();
    assert.equal(streamedText, TEXT);
    assert.deepEqual(first.content.map((b) => b.type), ["thinking", "text"]);
    assert.equal(first.content[0].thinking, THOUGHT);
    assert.ok(first.content[0].signature.length > 20, "signature_delta accumulated");
    assert.equal(first.stop_reason, "end_turn");
    assert.ok(first.usage.input_tokens > 0);

    const second = await client().messages.stream(params("anthropic")).finalMessage();
    assert.equal(second.stop_reason, "tool_use");
    assert.deepEqual(second.content.map((b) => [b.name, b.input]), CALLS);
    for (const b of second.content) assert.ok(isValidToolId("anthropic", b.id), b.id);

    // The SDK sends Authorization: Bearer and anthropic-version 2026-10-21; both accepted.
    assert.equal(mock.log[0].headers["anthropic-version"], "2026-10-21");
    assert.deepEqual(mock.stats, { accepted: 2, rejected: 0, scriptedErrors: 0 });
  });

  test("non-streaming messages.create()", async () => {
    mock.script("anthropic", TOOL_TURN);
    const message = await client().messages.create(params("anthropic"));
    assert.deepEqual(message.content.map((b) => [b.name, b.input]), CALLS);
  });

  test("a scripted 529 and a broken body become the SDK's typed errors", async () => {
    mock.script("anthropic", { kind: "error", status: 529 });
    await assert.rejects(client().messages.stream(params("anthropic")).finalMessage(), (e) => {
      assert.ok(e instanceof Anthropic.APIError);
      assert.equal(e.status, 529);
      assert.equal(e.error.error.type, "overloaded_error");
      return true;
    });
    const broken = params("anthropic");
    broken.messages.splice(2, 1); // drop the first tool_result
    await assert.rejects(client().messages.create(broken), (e) => {
      assert.ok(e instanceof Anthropic.BadRequestError);
      assert.match(e.error.error.message, /tool_use/);
      return true;
    });
    assert.deepEqual(mock.stats, { accepted: 0, rejected: 1, scriptedErrors: 1 });
  });
});

describe("openai: chat.completions.stream() against every chat-completions provider", () => {
  for (const provider of ["openai-chat", "mistral", "kimi", "deepseek", "openai-compatible"]) {
    const client = () => new OpenAI({ baseURL: mock.baseURL(provider), apiKey: "test-key", maxRetries: 0 });

    test(`${provider}: text turn, then parallel tool calls`, async () => {
      // Mistral's thinking chunks are content arrays the OpenAI SDK does not know: text only there.
      mock.script(provider, provider === "mistral" ? { text: TEXT } : TEXT_TURN, TOOL_TURN);
      const body = params(provider);
      if (provider !== "mistral" && provider !== "kimi") body.stream_options = { include_usage: true };
      let deltas = "";
      let reasoning = "";
      const stream = client().chat.completions.stream(body);
      stream.on("content", (d) => {
        deltas += d;
      });
      // The SDK keeps fields it does not know (reasoning_content) per chunk, not accumulated.
      stream.on("chunk", (chunk) => {
        reasoning += chunk.choices[0]?.delta?.reasoning_content ?? "";
      });
      const first = await stream.finalChatCompletion();
      const message = first.choices[0].message;
      assert.equal(message.content, TEXT);
      assert.equal(deltas, TEXT);
      assert.equal(first.choices[0].finish_reason, "stop");
      if (provider === "deepseek" || provider === "kimi" || provider === "openai-compatible") assert.equal(reasoning, THOUGHT);

      const second = await client().chat.completions.stream(params(provider)).finalChatCompletion();
      assert.equal(second.choices[0].finish_reason, "tool_calls");
      const calls = second.choices[0].message.tool_calls;
      assert.deepEqual(calls.map((c) => [c.function.name, JSON.parse(c.function.arguments)]), CALLS);
      const format = { mistral: "mistral", kimi: "kimi" }[provider] ?? "openai";
      for (const c of calls) assert.ok(isValidToolId(format, c.id), `${provider}: ${c.id}`);
      assert.deepEqual(mock.endpoint(provider).stats, { accepted: 2, rejected: 0, scriptedErrors: 0 });
    });
  }

  test("openai-chat: create({ stream: true }) raw chunks with usage, and non-streaming create()", async () => {
    const client = new OpenAI({ baseURL: mock.baseURL("openai-chat"), apiKey: "test-key", maxRetries: 0 });
    mock.script("openai-chat", { text: TEXT }, TOOL_TURN);
    const stream = await client.chat.completions.create({ ...params("openai-chat"), stream: true, stream_options: { include_usage: true } });
    let text = "";
    let usage = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    assert.equal(text, TEXT);
    assert.ok(usage.total_tokens > 0);
    const completion = await client.chat.completions.create(params("openai-chat"));
    assert.equal(completion.choices[0].message.tool_calls.length, 2);
  });

  test("a scripted 429 becomes RateLimitError with retry-after; a broken body BadRequestError", async () => {
    const client = new OpenAI({ baseURL: mock.baseURL("deepseek"), apiKey: "test-key", maxRetries: 0 });
    mock.script("deepseek", { kind: "error", status: 429, retryAfter: 2 });
    await assert.rejects(client.chat.completions.stream(params("deepseek")).finalChatCompletion(), (e) => {
      assert.ok(e instanceof OpenAI.RateLimitError);
      assert.equal(e.headers.get("retry-after"), "2");
      return true;
    });
    const broken = params("deepseek");
    broken.messages = broken.messages.filter((m) => m.role !== "tool");
    await assert.rejects(client.chat.completions.create(broken), OpenAI.BadRequestError);
    assert.deepEqual(mock.stats, { accepted: 0, rejected: 1, scriptedErrors: 1 });
  });
});

describe("openai: responses.stream()", () => {
  const client = () => new OpenAI({ baseURL: mock.baseURL("openai-responses"), apiKey: "test-key", maxRetries: 0 });

  test("reasoning + text turn, then parallel function calls", async () => {
    mock.script("openai-responses", TEXT_TURN, TOOL_TURN);
    const body = { ...params("openai-responses"), include: ["reasoning.encrypted_content"], store: false };
    let deltas = "";
    const stream = client().responses.stream(body);
    stream.on("response.output_text.delta", (e) => {
      deltas += e.delta;
    });
    const first = await stream.finalResponse();
    assert.equal(first.output_text, TEXT);
    assert.equal(deltas, TEXT);
    const [reasoning] = first.output;
    assert.equal(reasoning.type, "reasoning");
    assert.match(reasoning.id, /^rs_/);
    assert.equal(reasoning.summary[0].text, THOUGHT);
    assert.ok(reasoning.encrypted_content.length > 20);

    const second = await client().responses.stream(params("openai-responses")).finalResponse();
    const calls = second.output.filter((o) => o.type === "function_call");
    assert.deepEqual(calls.map((c) => [c.name, JSON.parse(c.arguments)]), CALLS);
    for (const c of calls) {
      assert.ok(isValidToolId("responses", c.call_id), c.call_id);
      assert.match(c.id, /^fc_/);
    }
  });

  test("a scripted 500 becomes InternalServerError", async () => {
    mock.script("openai-responses", { kind: "error", status: 500 });
    await assert.rejects(client().responses.stream(params("openai-responses")).finalResponse(), OpenAI.InternalServerError);
  });
});

describe("@google/genai: models.generateContentStream()", () => {
  const client = () => new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: mock.baseURL("gemini") } });
  /** turnwire's Gemini body as generateContent() parameters. */
  const request = (model = MODELS.gemini) => {
    const body = params("gemini", model);
    return { model, contents: body.contents, config: { systemInstruction: body.systemInstruction, tools: body.tools, ...body.generationConfig } };
  };

  test("thought + text turn, then parallel function calls (Gemini 3 signs the first)", async () => {
    mock.script("gemini", TEXT_TURN, TOOL_TURN);
    let text = "";
    let thought = "";
    for await (const chunk of await client().models.generateContentStream(request())) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (part.thought) thought += part.text;
        else text += part.text ?? "";
      }
    }
    assert.equal(text, TEXT);
    assert.equal(thought, THOUGHT);

    const calls = [];
    const parts = [];
    for await (const chunk of await client().models.generateContentStream(request())) {
      calls.push(...(chunk.functionCalls ?? []));
      parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
    }
    assert.deepEqual(calls.map((c) => [c.name, c.args]), CALLS);
    assert.ok(parts[0].thoughtSignature, "first call signed");
    assert.equal(parts[1].thoughtSignature, undefined, "second call unsigned");
    assert.deepEqual(mock.stats, { accepted: 2, rejected: 0, scriptedErrors: 0 });
    assert.match(mock.log[0].path, /:streamGenerateContent\?alt=sse$/);
  });

  test("non-streaming generateContent()", async () => {
    mock.script("gemini", { text: TEXT });
    const res = await client().models.generateContent(request());
    assert.equal(res.text, TEXT);
    assert.ok(res.usageMetadata.totalTokenCount > 0);
  });

  test("a scripted 503 becomes ApiError 503", async () => {
    mock.script("gemini", { kind: "error", status: 503 });
    await assert.rejects(
      (async () => {
        for await (const _ of await client().models.generateContentStream(request()));
      })(),
      (e) => {
        assert.ok(e instanceof GeminiApiError);
        assert.equal(e.status, 503);
        assert.match(e.message, /UNAVAILABLE|overloaded/);
        return true;
      },
    );
    assert.deepEqual(mock.stats, { accepted: 0, rejected: 0, scriptedErrors: 1 });
  });
});
