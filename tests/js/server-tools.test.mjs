// Issue 14, point 1: server tools. `serverTools` declares web search and code execution in each
// provider's own form (or reports what a provider lacks); a streamed turn in which Claude
// searched the web keeps its `server_tool_use` and `web_search_tool_result` blocks, which go
// back to Anthropic byte for byte and to every other provider as assistant text; the next turn,
// with `serverTools` declared, is accepted by the strict mock providers for every format.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Conversation, isTurnwireError, renderForProvider, streamTurn, validateRequest } from "turnwire";
import { MOCK_PROVIDERS, startMockProviders } from "turnwire/mock";
import { MODELS } from "./mock-helpers.mjs";

const history = [{ speaker: "human", blocks: [{ type: "text", text: "What changed in Rust 1.90?" }] }];
const tools = [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }];
const serverTools = [{ type: "web_search", maxUses: 3, allowedDomains: ["rust-lang.org"] }, { type: "code_execution" }];
const codes = (diagnostics, code) => diagnostics.filter((d) => d.code === code);

const searchUse = { type: "server_tool_use", id: "srvtoolu_01A9", name: "web_search", input: { query: "Rust 1.90" } };
const searchResult = {
  type: "web_search_tool_result",
  tool_use_id: "srvtoolu_01A9",
  content: [{ type: "web_search_result", url: "https://blog.rust-lang.org/2025/09/18/Rust-1.90.0/", title: "Announcing Rust 1.90.0", encrypted_content: "EqgfCioIARgBIiQ3YTAw", page_age: "September 18, 2025" }],
};

/** An Anthropic SSE answer in which the model searched, then answered. */
function anthropicSearchStream() {
  const events = [
    { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: MODELS.anthropic, content: [], usage: { input_tokens: 20, output_tokens: 1 } } },
    { type: "content_block_start", index: 0, content_block: { ...searchUse, input: {} } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"query":' } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '"Rust 1.90"}' } },
    { type: "content_block_stop", index: 0 },
    { type: "content_block_start", index: 1, content_block: searchResult },
    { type: "content_block_stop", index: 1 },
    { type: "content_block_start", index: 2, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "LLD is now the default linker on x86_64 Linux." } },
    { type: "content_block_stop", index: 2 },
    { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 30 } },
    { type: "message_stop" },
  ];
  const text = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
  return new Response(text, { status: 200, headers: { "content-type": "text/event-stream" } });
}

describe("serverTools declarations", () => {
  test("each provider gets its own form; what one lacks is reported, not sent", () => {
    const declared = {
      anthropic: (b) => b.tools.slice(1).map((t) => t.type),
      "openai-responses": (b) => b.tools.slice(1).map((t) => t.type),
      gemini: (b) => b.tools.slice(1).map((t) => Object.keys(t)[0]),
    };
    const want = {
      anthropic: [["web_search_20250305", "code_execution_20250825"], 0],
      "openai-responses": [["web_search", "code_interpreter"], 1],
      gemini: [["googleSearch", "codeExecution"], 1],
    };
    for (const provider of MOCK_PROVIDERS) {
      const { body, diagnostics } = renderForProvider(history, { provider, model: MODELS[provider], tools, serverTools });
      assert.deepEqual(validateRequest(provider, body), [], provider);
      const unavailable = codes(diagnostics, "server_tool_unavailable");
      if (declared[provider]) {
        assert.deepEqual([declared[provider](body), unavailable.length], want[provider], provider);
      } else {
        // Converse declares its functions in toolConfig.tools
        assert.equal((provider === "bedrock-converse" ? body.toolConfig.tools : body.tools).length, 1, provider);
        assert.deepEqual(unavailable.map((d) => d.path), ["$.serverTools[0]", "$.serverTools[1]"], provider);
      }
    }
    const anthropic = renderForProvider(history, { provider: "anthropic", model: MODELS.anthropic, serverTools });
    assert.deepEqual(anthropic.body.tools[0], { type: "web_search_20250305", name: "web_search", max_uses: 3, allowed_domains: ["rust-lang.org"] });
    const gemini = renderForProvider(history, { provider: "gemini", model: MODELS.gemini, tools, serverTools });
    assert.deepEqual(gemini.body.toolConfig, { includeServerSideToolInvocations: true });
    const gemini2 = renderForProvider(history, { provider: "gemini", model: "gemini-2.5-pro", tools, serverTools });
    assert.equal(gemini2.body.tools.length, 1, "Gemini 2.x: the functions win");
    assert.equal(codes(gemini2.diagnostics, "server_tool_unavailable").length, 2);
  });

  test("bad declarations are typed errors with their path", () => {
    for (const [bad, path] of [
      [[{ type: "web_search" }, { type: "web_search" }], "$.serverTools[1]"],
      [[{ type: "web_search", allowedDomains: ["a"], blockedDomains: ["b"] }], "$.serverTools[0]"],
    ]) {
      assert.throws(() => renderForProvider(history, { provider: "anthropic", model: MODELS.anthropic, serverTools: bad }), (e) => isTurnwireError(e) && e.code === "invalid_value" && e.path === path);
    }
    assert.throws(() => renderForProvider(history, { provider: "anthropic", model: MODELS.anthropic, serverTools: [{ type: "web_fetch" }] }), (e) => isTurnwireError(e));
  });
});

describe("server-tool blocks from a streamed turn", () => {
  let mock;
  before(async () => {
    mock = await startMockProviders();
  });
  after(async () => {
    await mock?.close();
  });

  test("kept by the decoder, replayed to Anthropic byte for byte, text for the others, and accepted next turn", async () => {
    const conversation = new Conversation(history);
    const { message } = await streamTurn({
      provider: "anthropic",
      model: MODELS.anthropic,
      apiKey: "test-key",
      conversation,
      render: { serverTools },
      fetch: async () => anthropicSearchStream(),
    });
    assert.deepEqual(message.blocks.map((b) => `${b.type}:${b.phase ?? ""}`), ["server_tool:call", "server_tool:result", "text:"]);
    assert.deepEqual(message.blocks[0].wire, searchUse);
    assert.deepEqual(message.blocks[1].wire, searchResult);
    conversation.append({ speaker: "human", blocks: [{ type: "text", text: "And in 1.91?" }] });

    const again = renderForProvider(conversation.toJSON(), { provider: "anthropic", model: MODELS.anthropic, serverTools });
    assert.deepEqual(again.body.messages[1].content.slice(0, 2), [searchUse, searchResult]);
    assert.deepEqual(codes(again.diagnostics, "server_tool_as_text"), []);
    const chat = renderForProvider(conversation.toJSON(), { provider: "openai-chat", model: MODELS["openai-chat"] });
    assert.match(chat.body.messages[1].content, /^\[web_search\] query: Rust 1\.90\n\n\[web_search\]\n- Announcing Rust 1\.90\.0 <https:\/\/blog/);
    assert.equal(codes(chat.diagnostics, "server_tool_as_text").length, 2);

    for (const provider of MOCK_PROVIDERS) {
      const next = new Conversation(conversation.toJSON());
      const turn = await streamTurn({ provider, model: MODELS[provider], apiKey: "test-key", baseURL: mock.baseURL(provider), conversation: next, render: { tools, serverTools } });
      assert.equal(turn.message.speaker, "ai", provider);
      next.free();
    }
    conversation.free();
    assert.deepEqual(mock.log.filter((e) => e.outcome === "rejected").map((e) => `${e.provider}: ${e.reason ?? ""}`), []);
    assert.equal(mock.log.filter((e) => e.outcome === "accepted").length, MOCK_PROVIDERS.length);
  });
});
