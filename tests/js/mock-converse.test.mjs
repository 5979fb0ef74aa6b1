// The mock's Bedrock Converse writer (js/mock/wire/converse.mts, internal: read here from the
// installed package's dist/mock/): its ConverseStream frames and its ConverseResponse, served on
// 127.0.0.1 behind the mock's SigV4 check, are read by the official
// @aws-sdk/client-bedrock-runtime (tests/js/mock-sdk) as Bedrock's: text, reasoning with its
// signature, tool use with its input in pieces, stop reason, usage; an exception frame is the
// SDK's ThrottlingException. Then the same SDK against the mock's own Converse route
// (startMockProviders: `/model/{id}/converse(-stream)`, strict validation, SigV4 checked).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { startMockProviders } from "turnwire/mock";
import { bedrockAuthRequest } from "./mock-helpers.mjs";

const dist = new URL("./node_modules/turnwire/dist/", import.meta.url);
const { converseJson, converseStream, converseStreamError } = await import(new URL("mock/wire/converse.mjs", dist).href);
const { plan } = await import(new URL("mock/plan.mjs", dist).href);
const { IdSource } = await import(new URL("mock/ids.mjs", dist).href);
const { checkBedrockAuth, MOCK_AWS_CREDENTIALS } = await import(new URL("mock/auth.mjs", dist).href);
const sdk = createRequire(join(resolve(process.env.TURNWIRE_MOCK_SDK ?? "../js-mock-sdk"), "package.json"));

const MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const REPLY = {
  blocks: [
    { type: "thinking", thinking: "The user greets me; I should look the weather up.", signature: "EqQBCkYIBxgCKkBsig" },
    { type: "text", text: "Hello! Let me check — één moment 🙂." },
    { type: "tool_call", name: "get_weather", id: "tooluse_abc123", arguments: { city: "Zürich", units: "metric" } },
  ],
  usage: { inputTokens: 12, outputTokens: 34 },
};
const planOf = (reply) => plan(reply, { provider: "bedrock-converse", model: MODEL, body: {}, bodyBytes: 2, ids: new IdSource(1), delayMs: 0, chunkSize: 5 });

let server;
let origin;
/** What the next request is answered with: frames (a stream) or a JSON body. */
let next;

before(async () => {
  server = createServer(async (req, res) => {
    const denied = await checkBedrockAuth(await bedrockAuthRequest(req));
    if (denied !== null) {
      res.writeHead(denied.status, denied.headers);
      res.end(JSON.stringify(denied.body));
    } else if (Array.isArray(next)) {
      res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
      // one frame per write, the last ones cut across writes
      const all = Buffer.concat(next);
      for (let at = 0; at < all.length; at += 37) res.write(all.subarray(at, at + 37));
      res.end();
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(next));
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

function client() {
  const { BedrockRuntimeClient } = sdk("@aws-sdk/client-bedrock-runtime");
  const { NodeHttpHandler } = sdk("@smithy/node-http-handler");
  return new BedrockRuntimeClient({ region: "us-east-1", endpoint: origin, credentials: { ...MOCK_AWS_CREDENTIALS }, maxAttempts: 1, requestHandler: new NodeHttpHandler() });
}
const messages = [{ role: "user", content: [{ text: "Hello" }] }];

describe("mock Converse writer, read by @aws-sdk/client-bedrock-runtime", () => {
  test("ConverseStream: reasoning, text and a tool call arrive whole, with stop reason and usage", async () => {
    const { ConverseStreamCommand } = sdk("@aws-sdk/client-bedrock-runtime");
    next = converseStream(planOf(REPLY));
    const out = await client().send(new ConverseStreamCommand({ modelId: MODEL, messages }));
    const blocks = [];
    let stop;
    let usage;
    let started = false;
    for await (const e of out.stream) {
      if (e.messageStart) started = e.messageStart.role === "assistant";
      if (e.contentBlockStart?.start?.toolUse) blocks[e.contentBlockStart.contentBlockIndex] = { toolUse: { ...e.contentBlockStart.start.toolUse, input: "" } };
      if (e.contentBlockDelta) {
        const { contentBlockIndex: i, delta } = e.contentBlockDelta;
        const b = (blocks[i] ??= {});
        if (delta.text !== undefined) b.text = (b.text ?? "") + delta.text;
        if (delta.reasoningContent?.text !== undefined) b.reasoning = (b.reasoning ?? "") + delta.reasoningContent.text;
        if (delta.reasoningContent?.signature !== undefined) b.signature = delta.reasoningContent.signature;
        if (delta.toolUse) b.toolUse.input += delta.toolUse.input;
      }
      if (e.messageStop) stop = e.messageStop.stopReason;
      if (e.metadata) usage = e.metadata.usage;
    }
    assert.ok(started);
    assert.deepEqual(blocks, [
      { reasoning: REPLY.blocks[0].thinking, signature: REPLY.blocks[0].signature },
      { text: REPLY.blocks[1].text },
      { toolUse: { toolUseId: "tooluse_abc123", name: "get_weather", input: JSON.stringify(REPLY.blocks[2].arguments) } },
    ]);
    assert.equal(stop, "tool_use");
    assert.deepEqual(usage, { inputTokens: 12, outputTokens: 34, totalTokens: 46, cacheReadInputTokens: 0, cacheWriteInputTokens: 0 });
  });

  test("an exception frame mid-stream is the SDK's ThrottlingException", async () => {
    const { ConverseStreamCommand } = sdk("@aws-sdk/client-bedrock-runtime");
    next = [...converseStream(planOf({ text: "partial answer" })).slice(0, 2), converseStreamError(429)];
    const out = await client().send(new ConverseStreamCommand({ modelId: MODEL, messages }));
    await assert.rejects(
      (async () => {
        for await (const e of out.stream) void e;
      })(),
      (e) => e.name === "ThrottlingException" && e.message === "Too many tokens, please wait before trying again.",
    );
  });

  test("Converse: the whole answer as a ConverseResponse", async () => {
    const { ConverseCommand } = sdk("@aws-sdk/client-bedrock-runtime");
    next = converseJson(planOf(REPLY));
    const out = await client().send(new ConverseCommand({ modelId: MODEL, messages }));
    assert.deepEqual(out.output.message.content, [
      { reasoningContent: { reasoningText: { text: REPLY.blocks[0].thinking, signature: REPLY.blocks[0].signature } } },
      { text: REPLY.blocks[1].text },
      { toolUse: { toolUseId: "tooluse_abc123", name: "get_weather", input: REPLY.blocks[2].arguments } },
    ]);
    assert.equal(out.stopReason, "tool_use");
    assert.equal(out.usage.totalTokens, 46);
  });
});

describe("the mock's Converse route, driven by @aws-sdk/client-bedrock-runtime", () => {
  let providers;
  before(async () => {
    providers = await startMockProviders({ providers: ["bedrock-converse"] });
  });
  after(() => providers.close());

  const routed = () => {
    const { BedrockRuntimeClient } = sdk("@aws-sdk/client-bedrock-runtime");
    const { NodeHttpHandler } = sdk("@smithy/node-http-handler");
    return new BedrockRuntimeClient({
      region: "us-east-1",
      endpoint: providers.baseURL("bedrock-converse"),
      credentials: { ...MOCK_AWS_CREDENTIALS },
      maxAttempts: 1,
      requestHandler: new NodeHttpHandler(),
    });
  };

  test("ConverseStream and Converse: signed by the SDK, accepted, answered with the scripted turn", async () => {
    const { ConverseStreamCommand, ConverseCommand } = sdk("@aws-sdk/client-bedrock-runtime");
    providers.script("bedrock-converse", { blocks: REPLY.blocks.slice(1) }, { text: "whole" });
    const out = await routed().send(new ConverseStreamCommand({ modelId: MODEL, messages }));
    let text = "";
    let input = "";
    let stop;
    for await (const e of out.stream) {
      text += e.contentBlockDelta?.delta?.text ?? "";
      input += e.contentBlockDelta?.delta?.toolUse?.input ?? "";
      if (e.messageStop) stop = e.messageStop.stopReason;
    }
    assert.equal(text, REPLY.blocks[1].text);
    assert.deepEqual(JSON.parse(input), REPLY.blocks[2].arguments);
    assert.equal(stop, "tool_use");
    const whole = await routed().send(new ConverseCommand({ modelId: MODEL, messages }));
    assert.deepEqual(whole.output.message.content, [{ text: "whole" }]);
    assert.deepEqual(
      providers.log.map((e) => [e.path, e.outcome, e.stream, e.model]),
      [
        [`/model/${encodeURIComponent(MODEL)}/converse-stream`, "accepted", true, MODEL],
        [`/model/${encodeURIComponent(MODEL)}/converse`, "accepted", false, MODEL],
      ],
    );
  });

  test("a body Bedrock refuses is the SDK's ValidationException with AWS's text", async () => {
    const { ConverseCommand } = sdk("@aws-sdk/client-bedrock-runtime");
    const bad = [
      { role: "user", content: [{ text: "hi" }] },
      { role: "assistant", content: [{ toolUse: { toolUseId: "tooluse_1", name: "ls", input: {} } }] },
      { role: "user", content: [{ text: "next" }] },
    ];
    await assert.rejects(
      routed().send(new ConverseCommand({ modelId: MODEL, messages: bad, toolConfig: { tools: [{ toolSpec: { name: "ls", inputSchema: { json: { type: "object" } } } }] } })),
      (e) => e.name === "ValidationException" && e.message === "Expected toolResult blocks at messages.2.content for the following Ids: tooluse_1",
    );
  });
});
