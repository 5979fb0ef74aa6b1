// An editable, guarded Conversation (issue 13, point 2), against the package installed in the
// scratch consumer: at / truncate / replace / splice render exactly what a full render of the
// edited history gives, toolCalls / openCalls report each call's status (REQ-915-046, 048), and
// a turn in flight owns its conversation: appends, edits, a second turn and free() are
// TurnInFlightErrors until it settles (REQ-915-050), while the turn's own reply is appended.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Conversation, isTurnInFlightError, isTurnwireError, renderBody, streamTurn } from "turnwire";
import { startMockProviders } from "turnwire/mock";

const human = (text) => ({ speaker: "human", blocks: [{ type: "text", text }] });
const answer = (text) => ({ speaker: "ai", blocks: [{ type: "text", text }] });
const call = (id, path) => ({ speaker: "ai", blocks: [{ type: "tool_call", id, name: "read_file", parameters: { path } }] });
const result = (id, fields) => ({ speaker: "tool", blocks: [{ type: "tool_response", callId: id, toolName: "read_file", ...fields }] });
const OPTIONS = { provider: "anthropic", model: "claude-sonnet-4-5" };
const text = (bytes) => new TextDecoder().decode(bytes);

/** A session of `turns` finished tool loops, as values. */
function session(turns) {
  const out = [];
  for (let t = 0; t < turns; t++) {
    out.push(human(`task ${t}`), call(`call_${t}`, `f${t}`), result(`call_${t}`, { result: `contents ${t}` }), answer(`done ${t}`));
  }
  return out;
}

/** The conversation renders exactly what a full render of its history gives. */
function assertFull(c, options = OPTIONS) {
  assert.equal(text(c.render(options)), text(renderBody(c.toJSON(), options)));
}

describe("a Conversation can be edited, and every render stays exact", () => {
  test("at() reads a message; a negative index counts from the end", () => {
    const c = new Conversation(session(2));
    assert.deepEqual(c.at(0), human("task 0"));
    assert.deepEqual(c.at(-1), answer("done 1"));
    assert.equal(c.at(8), undefined);
    assert.equal(c.at(-9), undefined);
    assert.throws(() => c.at(1.5), (e) => isTurnwireError(e) && e.code === "invalid_type");
  });

  test("truncate, replace and splice after renders equal full renders (every provider)", () => {
    for (const provider of ["anthropic", "openai-chat", "openai-responses", "gemini", "mistral", "kimi", "deepseek", "openai-compatible"]) {
      const options = { provider, model: { anthropic: "claude-sonnet-4-5", gemini: "gemini-3-pro-preview", mistral: "mistral-large-latest", kimi: "kimi-k2-thinking", deepseek: "deepseek-reasoner", "openai-compatible": "llama-3.3-70b-versatile" }[provider] ?? "gpt-5.2" };
      const c = new Conversation(session(30));
      c.append(human("next"));
      assertFull(c, options);
      c.append(answer("sure"));
      assertFull(c, options);
      // regenerate: drop the answer; edit the question
      assert.deepEqual(c.truncate(c.length - 1), [answer("sure")]);
      assert.deepEqual(c.replace(-1, human("next, shorter")), human("next"));
      assertFull(c, options);
      // splice a correction in, variadic as Array.prototype.splice
      assert.deepEqual(c.splice(-1, 0, human("(context)"), answer("noted")), []);
      assert.equal(c.length, 123);
      assertFull(c, options);
      assert.deepEqual(c.splice(-3, 2), [human("(context)"), answer("noted")]);
      assertFull(c, options);
      // an early edit: the cache goes, the render is still exact
      c.replace(1, call("call_0", "other"));
      assertFull(c, options);
      assert.deepEqual(c.splice(120), [human("next, shorter")]);
      assertFull(c, options);
    }
  });

  test("splice(start) removes to the end; splice(start, undefined) removes nothing, as arrays do", () => {
    const c = new Conversation(session(1));
    const plain = session(1);
    assert.deepEqual(c.splice(1, undefined, human("x")), plain.splice(1, undefined, human("x")));
    assert.deepEqual(c.toJSON(), plain);
    assert.deepEqual(c.splice(2), plain.splice(2));
    assert.deepEqual(c.toJSON(), plain);
    assert.deepEqual(c.splice(-100, 1), plain.splice(-100, 1));
    assert.deepEqual(c.toJSON(), plain);
  });

  test("a bad edit is a typed error with its path, and changes nothing", () => {
    const c = new Conversation(session(1));
    const before = JSON.stringify(c);
    assert.throws(() => c.replace(4, human("x")), (e) => isTurnwireError(e) && e.code === "out_of_range");
    assert.throws(() => c.replace(0, { speaker: "robot", blocks: [] }), (e) => isTurnwireError(e) && e.code === "invalid_value" && e.path === "$[0].speaker");
    assert.throws(() => c.splice(1, 0, human("ok"), { speaker: "human" }), (e) => isTurnwireError(e) && e.path === "$[2].blocks");
    assert.throws(() => c.truncate(-1), (e) => isTurnwireError(e) && e.code === "out_of_range");
    assert.throws(() => c.truncate("2"), (e) => isTurnwireError(e) && e.code === "invalid_type");
    assert.equal(JSON.stringify(c), before);
  });

  test("a message cut mid-emoji in an edit is repaired and reported at its index", () => {
    const c = new Conversation([human("a"), answer("b")]);
    c.splice(1, 0, human("cut \ud83d"));
    const { diagnostics } = c.renderObject(OPTIONS);
    const repairs = diagnostics.filter((d) => d.code === "lone_surrogate_replaced");
    assert.deepEqual(repairs.map((d) => d.path), ["$[1].blocks[0].text"]);
    c.splice(0, 1);
    assert.deepEqual(c.renderObject(OPTIONS).diagnostics.filter((d) => d.code === "lone_surrogate_replaced").map((d) => d.path), ["$[0].blocks[0].text"]);
  });
});

describe("REQ-915-046 / REQ-915-048 the tool calls of a conversation and their status", () => {
  test("toolCalls() reports every call with the precedence error > isComplete > result > pending", () => {
    const c = new Conversation([
      human("go"),
      { speaker: "ai", blocks: ["err", "flag", "res", "pend", "none"].map((id) => ({ type: "tool_call", id, name: "t", parameters: {} })) },
      {
        speaker: "tool",
        blocks: [
          { type: "tool_response", callId: "err", error: "boom", result: "partial", isComplete: true },
          { type: "tool_response", callId: "flag", isComplete: true },
          { type: "tool_response", callId: "res", result: { ok: 1 } },
          { type: "tool_response", callId: "pend", result: null },
        ],
      },
    ]);
    const calls = c.toolCalls();
    assert.deepEqual(calls.map((s) => [s.id, s.status]), [["err", "errored"], ["flag", "complete"], ["res", "complete"], ["pend", "pending"], ["none", "pending"]]);
    assert.deepEqual(calls[0], { id: "err", name: "t", messageIndex: 1, blockIndex: 0, status: "errored", result: { messageIndex: 2, blockIndex: 0 }, responses: 1 });
    assert.equal(calls[4].result, undefined);
    assert.deepEqual(c.openCalls().map((s) => s.id), ["pend", "none"]);
    // reconstructed from the history alone: a conversation loaded from its JSON agrees
    const loaded = Conversation.fromJSON(JSON.stringify(c));
    assert.deepEqual(loaded.toolCalls(), calls);
  });
});

describe("REQ-915-050 a turn in flight owns its conversation", () => {
  let mock;
  before(async () => {
    mock = await startMockProviders();
  });
  after(async () => {
    await mock?.close();
  });

  test("appends, edits, a second turn and free() are TurnInFlightErrors until the turn settles; its reply is appended", async () => {
    const c = new Conversation([human("hi")]);
    mock.script("anthropic", { text: "Hello there, in several pieces.", delayMs: 20, chunkSize: 4 });
    const options = { ...OPTIONS, apiKey: "test-key", baseURL: mock.baseURL("anthropic"), conversation: c };
    assert.equal(c.inFlight, false);
    const turn = streamTurn(options);
    assert.equal(c.inFlight, true);
    const refused = (e) => isTurnInFlightError(e) && e.code === "turn_in_flight";
    assert.throws(() => c.append(human("queued")), refused);
    assert.throws(() => c.appendJson(JSON.stringify(human("queued"))), refused);
    assert.throws(() => c.truncate(0), refused);
    assert.throws(() => c.replace(0, human("changed")), refused);
    assert.throws(() => c.splice(0, 1), refused);
    assert.throws(() => c.free(), refused);
    await assert.rejects(streamTurn(options).result, refused);
    // reading and rendering are fine while in flight
    assert.equal(c.length, 1);
    assert.ok(c.render(OPTIONS).length > 0);
    const { message } = await turn;
    assert.equal(message.blocks[0].text, "Hello there, in several pieces.");
    assert.equal(c.inFlight, false);
    assert.equal(c.length, 2, "the turn's own reply was appended");
    c.append(human("thanks"));
    assert.deepEqual(c.truncate(2), [human("thanks")]);
    assert.equal(mock.stats.rejected, 0);
  });
});

// Issue 12: renderBlob hands JavaScript only the bytes it has not seen. Cached pieces of the
// prefix become Blobs once; a merged piece is a Blob of its halves' Blobs. A piece merged again
// before any body showed it had no Blob to be made from, and its bytes (the whole prefix, on a
// loaded conversation) were copied again: 28.8 MB on turns 5 and 9 of a 10,000-message session.
describe("renderBlob copies only new bytes, turn after turn (issue 12)", () => {
  test("a loaded conversation, 40 turns: each render hands over its tail, never the prefix again", async () => {
    const filler = "fn main() { println!(\"{}\", 42); } // ".repeat(40);
    const history = [];
    for (let t = 0; t < 150; t++) {
      history.push(human(`task ${t}`), call(`call_${t}`, `f${t}.rs`), result(`call_${t}`, { result: `${filler}${t}` }), answer(`done ${t}`));
    }
    const RealBlob = globalThis.Blob;
    let copied = 0;
    globalThis.Blob = class extends RealBlob {
      constructor(parts, options) {
        for (const p of parts) if (ArrayBuffer.isView(p)) copied += p.byteLength;
        super(parts, options);
      }
    };
    try {
      for (const options of [OPTIONS, { provider: "openai-chat", model: "gpt-5.2" }]) {
        const conv = Conversation.fromJSON(JSON.stringify(history));
        conv.renderBlob(options);
        conv.renderBlob(options);
        const prefixBytes = copied;
        for (let k = 0; k < 40; k++) {
          conv.append(human(`turn ${k}`));
          copied = 0;
          const blob = conv.renderBlob(options);
          const bytes = new Uint8Array(await blob.arrayBuffer());
          assert.deepEqual(bytes, conv.render(options), `${options.provider} turn ${k}`);
          assert.ok(copied < 4096, `${options.provider} turn ${k}: ${copied} bytes copied (the first renders: ${prefixBytes})`);
          conv.append(answer(`answer ${k}`));
        }
        conv.free();
        copied = 0;
      }
    } finally {
      globalThis.Blob = RealBlob;
    }
  });
});
