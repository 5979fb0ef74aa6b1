// The JS transport of the two wires issue 32 added, end to end against the strict mock providers
// (turnwire/mock, installed tarball): Bedrock Converse (`POST /model/{id}/converse-stream`, AWS
// event-stream bytes read by the turn runner as they come, SigV4 or a Bedrock API key) and Ollama
// (`POST /api/chat`, NDJSON, no key). Claude thinking with its signature over Converse and its
// replay; an exception frame and an HTTP 400 ValidationException classified as AWS means them;
// the turn's event limit reaching the binary frames; a router target for each wire.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { Conversation, createRouter, isProviderError, providerRequest, streamTurn } from "turnwire";
import { startMockProviders } from "turnwire/mock";
import { MODELS } from "./mock-helpers.mjs";

// the test credentials the mock checks SigV4 signatures with (internal: from the installed dist/)
const { MOCK_AWS_CREDENTIALS } = await import(new URL("./node_modules/turnwire/dist/mock/auth.mjs", import.meta.url).href);

const CLAUDE = MODELS["bedrock-converse"]; // us.anthropic.claude-sonnet-4-5-20250929-v1:0
const QWEN = MODELS.ollama;
const TOOLS = [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }];
const THINKING = { thinking: { enabled: true, budgetTokens: 2048 }, maxTokens: 8192 };
const human = (text) => ({ speaker: "human", blocks: [{ type: "text", text }] });
const results = (message) => ({
  speaker: "tool",
  blocks: message.blocks.filter((b) => b.type === "tool_call").map((c) => ({ type: "tool_response", callId: c.id, toolName: c.name, result: `contents of ${c.parameters.path}` })),
});

let mock;
before(async () => {
  mock = await startMockProviders({ providers: ["bedrock-converse", "ollama"], apiKey: "bedrock-api-key-abc" });
});
after(async () => {
  await mock?.close();
});
beforeEach(() => mock.reset());

/** No request the strict mock refused. */
function noRejections() {
  assert.deepEqual(
    mock.log.filter((e) => e.outcome === "rejected").map((e) => `${e.provider} ${e.status} ${e.error?.message}`),
    [],
  );
}

async function rejection(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  return assert.fail("expected a rejection");
}

describe("bedrock-converse through streamTurn", () => {
  test("SigV4: Claude thinking (signed), text and two tool calls, then the follow-up replaying the signature", async () => {
    const aws = { ...MOCK_AWS_CREDENTIALS, region: "us-east-1" };
    const conversation = new Conversation([human("Read a.rs and b.rs.")]);
    mock.script(
      "bedrock-converse",
      {
        blocks: [
          { type: "thinking", thinking: "Two files: read both.", signature: "EqQBCkYIBxgCKkBsig" },
          { type: "text", text: "Reading — één moment 🙂." },
          { type: "tool_call", name: "read_file", arguments: { path: "a.rs" } },
          { type: "tool_call", name: "read_file", arguments: { path: "b.rs" } },
        ],
        chunkSize: 3,
      },
      (req) => {
        // the follow-up sends the signed reasoning back, in Converse's shape, and the results
        const first = req.body.messages[1].content[0];
        assert.deepEqual(first, { reasoningContent: { reasoningText: { text: "Two files: read both.", signature: "EqQBCkYIBxgCKkBsig" } } });
        assert.ok(JSON.stringify(req.body).includes("contents of b.rs"));
        return { text: "Both read." };
      },
    );
    const render = { tools: TOOLS, ...THINKING };
    const turn = streamTurn({ provider: "bedrock-converse", model: CLAUDE, aws, baseURL: mock.baseURL("bedrock-converse"), conversation, render });
    const kinds = [];
    for await (const d of turn) kinds.push(d.type);
    const first = await turn;
    assert.deepEqual(first.message.blocks.map((b) => b.type), ["thinking", "text", "tool_call", "tool_call"]);
    assert.equal(first.message.blocks[0].thought, "Two files: read both.");
    assert.equal(first.message.blocks[1].text, "Reading — één moment 🙂.");
    assert.deepEqual(first.message.blocks.slice(2).map((b) => b.parameters), [{ path: "a.rs" }, { path: "b.rs" }]);
    assert.equal(first.stopReason, "tool_use");
    assert.ok(first.usage.inputTokens > 0 && first.usage.outputTokens > 0, JSON.stringify(first.usage));
    assert.ok(kinds.includes("reasoning") && kinds.includes("toolCallArguments") && kinds.includes("toolCallComplete"), kinds.join());
    assert.ok(kinds.filter((k) => k === "text").length > 3, "the text arrived in pieces");
    // the request as Bedrock takes it: model in the path (`:` once encoded), no model or stream in the body
    const [entry] = mock.log;
    assert.equal(entry.path, `/model/${encodeURIComponent(CLAUDE)}/converse-stream`);
    assert.equal(entry.model, CLAUDE);
    assert.equal(entry.stream, true);
    assert.equal(entry.body.model, undefined);
    assert.equal(entry.body.stream, undefined);
    assert.match(entry.headers["x-amz-date"], /^\d{8}T\d{6}Z$/);
    conversation.append(results(first.message));
    const second = await streamTurn({ provider: "bedrock-converse", model: CLAUDE, aws, baseURL: mock.baseURL("bedrock-converse"), conversation, render });
    assert.equal(second.message.blocks.at(-1).text, "Both read.");
    assert.equal(conversation.length, 4);
    noRejections();
    conversation.free();
  });

  test("a Bedrock API key goes as Bearer; a wrong one is AWS's 403, not retryable", async () => {
    mock.script("bedrock-converse", { text: "ok" });
    const ok = await streamTurn({ provider: "bedrock-converse", model: CLAUDE, apiKey: "bedrock-api-key-abc", baseURL: mock.baseURL("bedrock-converse"), transcript: [human("hi")] });
    assert.equal(ok.message.blocks[0].text, "ok");
    const e = await rejection(streamTurn({ provider: "bedrock-converse", model: CLAUDE, apiKey: "wrong", baseURL: mock.baseURL("bedrock-converse"), transcript: [human("hi")] }));
    assert.ok(isProviderError(e));
    assert.deepEqual([e.kind, e.status, e.retryable], ["http", 403, false]);
    assert.ok(e.message.includes("Authentication failed: Please make sure your API Key is valid."), e.message);
  });

  test("a throttlingException frame mid-stream: a retryable ProviderError of kind stream, the partial text kept", async () => {
    const conversation = new Conversation([human("Write a long answer.")]);
    mock.script("bedrock-converse", { text: "Here is the first part of a long answer", chunkSize: 5, errorAfter: 4, errorStatus: 429 });
    const e = await rejection(streamTurn({ provider: "bedrock-converse", model: CLAUDE, apiKey: "bedrock-api-key-abc", baseURL: mock.baseURL("bedrock-converse"), conversation }).result);
    assert.ok(isProviderError(e), String(e));
    assert.deepEqual([e.kind, e.status, e.errorType, e.retryable], ["stream", 200, "throttlingException", true]);
    assert.deepEqual(e.body, { throttlingException: { message: "Too many tokens, please wait before trying again." } });
    // four events reached the client (messageStart and three pieces of five characters)
    assert.equal(e.result.message.blocks[0].text, "Here is the fir");
    assert.equal(e.result.appended, true);
    assert.equal(conversation.length, 2);
    conversation.free();
  });

  test("HTTP 400 with x-amzn-ErrorType ValidationException: not retryable, AWS's message", async () => {
    mock.script("bedrock-converse", { kind: "error", status: 400, message: "The model returned the following errors: messages.1: bad" });
    const e = await rejection(streamTurn({ provider: "bedrock-converse", model: CLAUDE, apiKey: "bedrock-api-key-abc", baseURL: mock.baseURL("bedrock-converse"), transcript: [human("hi")] }));
    assert.deepEqual([e.kind, e.status, e.errorType, e.retryable], ["http", 400, "ValidationException", false]);
    assert.ok(e.message.endsWith("(ValidationException): The model returned the following errors: messages.1: bad"), e.message);
    assert.deepEqual(e.body, { message: "The model returned the following errors: messages.1: bad" });
  });

  test("maxEventBytes reaches the binary frames: a frame past it stops the turn with event_too_large", async () => {
    mock.script("bedrock-converse", { text: "x".repeat(4000), chunkSize: 4000 });
    const e = await rejection(
      streamTurn({ provider: "bedrock-converse", model: CLAUDE, apiKey: "bedrock-api-key-abc", baseURL: mock.baseURL("bedrock-converse"), transcript: [human("hi")], maxEventBytes: 1024 }),
    );
    assert.deepEqual([e.kind, e.errorType, e.retryable], ["limit", "event_too_large", false], e.message);
  });

  test("providerRequest: the region's endpoint by default, the model id encoded once", () => {
    const r = providerRequest({ provider: "bedrock-converse", model: CLAUDE, region: "eu-central-1" });
    assert.equal(r.url, `https://bedrock-runtime.eu-central-1.amazonaws.com/model/${CLAUDE.replace(":", "%3A")}/converse-stream`);
    assert.equal(r.headers.accept, "application/vnd.amazon.eventstream");
  });
});

describe("ollama through streamTurn", () => {
  test("no key: thinking, text and two tool calls (ids minted by Ollama), then the follow-up", async () => {
    const conversation = new Conversation([human("Read a.rs and b.rs.")]);
    mock.script(
      "ollama",
      {
        blocks: [
          { type: "thinking", thinking: "Two reads." },
          { type: "text", text: "Reading both." },
          { type: "tool_call", name: "read_file", arguments: { path: "a.rs" } },
          { type: "tool_call", name: "read_file", arguments: { path: "b.rs" } },
        ],
      },
      (req) => {
        const tool = req.body.messages.filter((m) => m.role === "tool");
        assert.deepEqual(tool.map((m) => [m.tool_name, m.content]), [["read_file", "contents of a.rs"], ["read_file", "contents of b.rs"]]);
        return { text: "Both read." };
      },
    );
    const render = { tools: TOOLS, ...THINKING };
    const first = await streamTurn({ provider: "ollama", model: QWEN, baseURL: mock.baseURL("ollama"), conversation, render });
    assert.deepEqual(first.message.blocks.map((b) => b.type), ["thinking", "text", "tool_call", "tool_call"]);
    for (const c of first.message.blocks.slice(2)) assert.match(c.id, /^call_[a-z0-9]{8}$/);
    assert.equal(first.stopReason, "tool_use");
    const [entry] = mock.log;
    assert.equal(entry.path, "/api/chat");
    assert.equal(entry.headers.authorization, undefined, "no key sent");
    assert.equal(entry.body.stream, true);
    assert.equal(entry.body.model, QWEN);
    conversation.append(results(first.message));
    const second = await streamTurn({ provider: "ollama", model: QWEN, baseURL: mock.baseURL("ollama"), conversation, render });
    assert.equal(second.message.blocks.at(-1).text, "Both read.");
    assert.ok(second.usage.inputTokens > 0, JSON.stringify(second.usage));
    noRejections();
    conversation.free();
  });

  test("the default base URL is the local server's; an HTTP error's `error` text is the message", async () => {
    assert.equal(providerRequest({ provider: "ollama", model: QWEN }).url, "http://localhost:11434/api/chat");
    mock.script("ollama", { kind: "error", status: 404, message: `model "${QWEN}" not found, try pulling it first` });
    const e = await rejection(streamTurn({ provider: "ollama", model: QWEN, baseURL: mock.baseURL("ollama"), transcript: [human("hi")] }));
    assert.deepEqual([e.kind, e.status, e.retryable], ["http", 404, false]);
    assert.ok(e.message.includes(`model "${QWEN}" not found, try pulling it first`), e.message);
  });
});

describe("router targets on the new wires", () => {
  test("failover: Bedrock throttled (HTTP 429) → Ollama answers the same turn", async () => {
    const conversation = new Conversation([human("hi")]);
    mock.script("bedrock-converse", { kind: "error", status: 429 });
    mock.script("ollama", { text: "Ollama here." });
    const router = createRouter(
      [
        { provider: "bedrock-converse", model: CLAUDE, apiKey: "bedrock-api-key-abc", baseURL: mock.baseURL("bedrock-converse") },
        { provider: "ollama", model: QWEN, baseURL: mock.baseURL("ollama") },
      ],
      { strategy: "failover", backoff: { initialMs: 1 } },
    );
    const r = await router.turn({ conversation });
    assert.equal(r.target.provider, "ollama");
    assert.deepEqual(r.attempts.map((a) => [a.target.provider, a.error?.errorType ?? "ok"]), [["bedrock-converse", "ThrottlingException"], ["ollama", "ok"]]);
    assert.equal(r.message.blocks[0].text, "Ollama here.");
    // round robin back to Bedrock, signed with SigV4 this time: the Ollama turn replays to it
    const signed = createRouter([{ provider: "bedrock-converse", model: CLAUDE, aws: { ...MOCK_AWS_CREDENTIALS, region: "us-west-2" }, baseURL: mock.baseURL("bedrock-converse") }]);
    mock.script("bedrock-converse", { text: "Bedrock here." });
    conversation.append(human("and you?"));
    const back = await signed.turn({ conversation });
    assert.equal(back.message.blocks[0].text, "Bedrock here.");
    assert.equal(conversation.length, 4);
    noRejections();
    conversation.free();
  });
});
