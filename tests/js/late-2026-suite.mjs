// The shapes of issue 31 ("the providers of late 2026") through the public JS API, in every
// runtime (suite.mjs calls it; Node ESM and CJS, Deno, Bun, workerd and Chromium run it):
//   - the stream decoders, fed the golden streams (tests/fixtures/streams) framed as the
//     provider sends them and cut at awkward byte boundaries: Anthropic's refusal with
//     `stop_details`, its `fallback` and `compaction` blocks and `input_transformations`; a
//     Responses (Codex) stream with `phase`, a `compaction` item and apply_patch / shell /
//     custom tool calls; Gemini 3's function call ids;
//   - the importers, fed the golden bodies (tests/fixtures/72, 93, 94, 96) and Responses
//     client-tool items in the official SDK's shapes (local_shell_call, tool_search_call,
//     program, additional_tools, a failed apply_patch_call_output): what they read, and what a
//     render for another provider keeps of it.
// Like suite.mjs it imports nothing that a browser page or a worker could not load.

import { MODELS } from "./models.mjs";
import { eventLines, frameSSE, frameArray } from "./stream-suite.mjs";

const encoder = new TextEncoder();

/** The byte offsets inside `bytes` just after each occurrence of `needles` and one byte into
 * every multi-byte UTF-8 sequence and every CRLF: the cuts a network is most likely to get wrong. */
function awkwardCuts(bytes, needles) {
  const cuts = new Set();
  const text = new TextDecoder().decode(bytes);
  for (const needle of needles) {
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
      // the needle's offset in bytes, then a cut inside it and just after it
      const start = encoder.encode(text.slice(0, at)).length;
      const len = encoder.encode(needle).length;
      cuts.add(start + Math.floor(len / 2));
      cuts.add(start + len);
    }
  }
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] >= 0xc0) cuts.add(i + 1); // inside a multi-byte character
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) cuts.add(i + 1); // between CR and LF
  }
  return [...cuts].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b);
}

/** `bytes` in the pieces every two consecutive `cuts` make, and `bytes` cut in two at each cut. */
function splits(bytes, cuts) {
  const all = [];
  const pieces = [];
  let from = 0;
  for (const c of cuts) {
    pieces.push(bytes.subarray(from, c));
    from = c;
  }
  pieces.push(bytes.subarray(from));
  all.push(pieces);
  for (const c of cuts) all.push([bytes.subarray(0, c), bytes.subarray(c)]);
  all.push(Array.from(bytes, (b) => new Uint8Array([b])));
  return all;
}

/** An SSE body, given in `chunks`, parsed with SseParser and decoded with a StreamDecoder. */
function decodeChunks(api, provider, chunks, options) {
  const decoder = new api.StreamDecoder(provider, options);
  try {
    const deltas = [];
    const parser = new api.SseParser((e) => deltas.push(...decoder.push(e.data)));
    for (const c of chunks) parser.feed(c);
    parser.end();
    return { outcome: decoder.finish(), deltas };
  } finally {
    decoder.free();
  }
}

/** A Gemini JSON array body (no alt=sse), given in `chunks`, parsed and decoded. */
function decodeArrayChunks(api, chunks, options) {
  const decoder = new api.StreamDecoder("gemini", options);
  try {
    const deltas = [];
    const parser = new api.JsonArrayParser((json) => deltas.push(...decoder.push(json)));
    for (const c of chunks) parser.feed(c);
    parser.end();
    return { outcome: decoder.finish(), deltas };
  } finally {
    decoder.free();
  }
}

/** Text of a rendered body (`renderBody` gives bytes) as its JSON value. */
const parsed = (bytes) => JSON.parse(new TextDecoder().decode(bytes));

export function defineLate2026Suite(api, label, host) {
  const { describe, test, assert } = host;
  const stream = (name) => {
    const f = host.fixtures.find((x) => x.name === `streams/${name}`);
    assert.ok(f, `golden stream ${name} missing`);
    return f;
  };
  const fixture = (name) => {
    const f = host.fixtures.find((x) => x.name === name);
    assert.ok(f, `fixture ${name} missing`);
    return f;
  };
  const golden = (name, provider) => JSON.parse(fixture(name).files[`${provider}.json`]).body;

  /** Every split of golden stream `name` decoded; `check(outcome, deltas, where)` on each, and
   * all of them equal to the whole stream's decode. */
  function eachSplit(name, needles, check) {
    const f = stream(name);
    const { provider } = f.stream;
    const bytes = encoder.encode(frameSSE(provider, eventLines(f)));
    const cuts = awkwardCuts(bytes, needles);
    assert.ok(cuts.length >= needles.length, `${name}: ${cuts.length} cuts`);
    const whole = decodeChunks(api, provider, [bytes], { model: MODELS[provider] });
    check(whole.outcome, whole.deltas, `${name} whole`);
    let n = 0;
    for (const chunks of splits(bytes, cuts)) {
      const got = decodeChunks(api, provider, chunks, { model: MODELS[provider] });
      assert.deepEqual(got, whole, `${name}, ${chunks.length} pieces (split ${n++})`);
    }
    return whole;
  }

  describe(`late-2026 provider shapes (${label})`, () => {
    describe("stream decoders, golden streams cut at awkward boundaries", () => {
      test("Anthropic: a refusal with stop_details, a fallback block, a compaction block and input_transformations", () => {
        eachSplit("anthropic/refusal_fallback", ["stop_details", "compaction_delta", '"fallback"', "signature_delta", "input_transformations"], (outcome, deltas, where) => {
          assert.equal(outcome.stopReason, "refusal", where);
          assert.equal(outcome.incomplete, false, where);
          assert.deepEqual(outcome.errors, [], where);
          const meta = outcome.message.metadata;
          assert.equal(meta.stopReason, "refusal", where);
          assert.deepEqual(meta.stopDetails, {
            type: "refusal",
            category: "cyber",
            explanation: "This could enable cyber harm.",
            fallback_credit_token: "fct_01Ab",
            fallback_has_prefill_claim: false,
            recommended_model: "claude-opus-5",
          }, where);
          // the entry of a type the SDK does not name yet is left out; the known one is kept whole
          assert.deepEqual(meta.inputTransformations, [{ type: "thinking_dropped", path: "messages.1.content.0", reason: "prefix_binding_mismatch" }], where);
          const [compaction, fallback, thinking, text] = outcome.message.blocks;
          assert.deepEqual([compaction.type, compaction.name, compaction.wire], ["server_tool", "compaction", { type: "compaction", content: "We pinned the toolchain.", encrypted_content: "EncX==" }], where);
          assert.deepEqual([fallback.type, fallback.name, fallback.wire.from, fallback.wire.to, fallback.wire.trigger], ["server_tool", "fallback", { model: "claude-fable-5-1" }, { model: "claude-opus-5" }, { type: "refusal", category: "cyber" }], where);
          // the blocks after the fallback are the to-model's
          assert.deepEqual([thinking.type, thinking.signature, thinking.provenance], ["thinking", "EqQBCkYIBxgCKkBfallback", { provider: "anthropic", model: "claude-opus-5" }], where);
          assert.deepEqual([text.text, text.provenance?.model], ["I can explain the vulnerability class.", "claude-opus-5"], where);
          assert.deepEqual(deltas.at(-1), { type: "done", stopReason: "refusal" }, where);
          assert.deepEqual(deltas.filter((d) => d.type === "text").map((d) => d.text), ["I can explain the vulnerability class."], where);
        });
      });

      test("OpenAI Responses: phase, a compaction item and Codex client-tool calls", () => {
        eachSplit("openai-responses/codex_tools", ['"phase"', "apply_patch_call", "shell_call", "custom_tool_call_input.delta", "compaction", "\\n+assert"], (outcome, deltas, where) => {
          assert.equal(outcome.stopReason, "tool_use", where);
          const blocks = outcome.message.blocks;
          assert.deepEqual(blocks.map((b) => b.type), ["server_tool", "text", "tool_call", "tool_call", "tool_call"], where);
          assert.deepEqual([blocks[0].name, blocks[0].wire.encrypted_content], ["compaction", "gAAAAABpCmpctd-opaque=="], where);
          assert.deepEqual([blocks[1].text, blocks[1].phase], ["Patching the failing test, then running it.", "commentary"], where);
          const calls = blocks.slice(2).map((b) => [b.id, b.name, b.openaiItem.type]);
          assert.deepEqual(calls, [["call_Pa7cH1", "apply_patch", "apply_patch_call"], ["call_Sh3lL2", "shell", "shell_call"], ["call_Cu5tM3", "grep", "custom_tool_call"]], where);
          assert.deepEqual(blocks[2].parameters.operation, { type: "update_file", path: "tests/math.rs", diff: "@@\n-assert_eq!(add(2, 2), 5);\n+assert_eq!(add(2, 2), 4);\n" }, where);
          assert.deepEqual(blocks[3].parameters.action.commands, ["cargo test --test math"], where);
          // the custom tool's streamed input, its deltas joined
          assert.deepEqual(blocks[4].parameters, { input: "fn add" }, where);
          const complete = deltas.filter((d) => d.type === "toolCallComplete").map((d) => [d.id, d.name]);
          assert.deepEqual(complete, [["call_Pa7cH1", "apply_patch"], ["call_Sh3lL2", "shell"], ["call_Cu5tM3", "grep"]], where);
        });
      });

      test("Gemini 3: function call ids, as SSE (CRLF) and as a JSON array", () => {
        const check = (outcome, deltas, where) => {
          assert.equal(outcome.stopReason, "tool_use", where);
          const calls = outcome.message.blocks.filter((b) => b.type === "tool_call");
          assert.deepEqual(calls.map((c) => [c.id, c.name, c.parameters.path]), [["k3v9d1qa", "read_file", "src/lib.rs"], ["p0x7m2zb", "read_file", "src/main.rs"]], where);
          assert.ok(calls[0].thoughtSignature.startsWith("CiQB"), where);
          assert.equal(calls[1].thoughtSignature, undefined, where);
          assert.deepEqual(deltas.filter((d) => d.type === "toolCallStart").map((d) => d.id), ["k3v9d1qa", "p0x7m2zb"], where);
        };
        const whole = eachSplit("gemini/call_ids", ['"id":"k3v9', "functionCall", "thoughtSignature"], check);
        const lines = eventLines(stream("gemini/call_ids"));
        const bytes = encoder.encode(frameArray(lines));
        for (const chunks of splits(bytes, awkwardCuts(bytes, ['"id":"p0x7', "functionCall", "},{"]))) {
          const got = decodeArrayChunks(api, chunks, { model: MODELS.gemini });
          assert.deepEqual(got, whole, `JSON array in ${chunks.length} pieces`);
        }
      });
    });

    describe("importers, and what a render for another provider keeps", () => {
      test("a Codex Responses body (fixture 72): phase, compaction and client-tool items with their outputs; every other provider gets the same calls", () => {
        const f = fixture("72-codex-responses-items");
        const imported = api.fromRequestBody("openai-responses", golden(f.name, "openai-responses"));
        assert.deepEqual(imported.diagnostics, []);
        const blocks = imported.transcript.flatMap((m) => m.blocks.map((b) => ({ speaker: m.speaker, ...b })));
        assert.deepEqual(blocks.filter((b) => b.type === "text" && b.speaker === "ai").map((b) => b.phase), ["commentary", "final_answer"]);
        const compaction = blocks.find((b) => b.type === "server_tool");
        assert.deepEqual([compaction.name, compaction.wire], ["compaction", { type: "compaction", encrypted_content: "gAAAAABpCmpctd-opaque==" }]);
        const calls = blocks.filter((b) => b.type === "tool_call");
        assert.deepEqual(calls.map((c) => [c.id, c.name, c.openaiItem.type]), [["call_Pa7cH1", "apply_patch", "apply_patch_call"], ["call_Sh3lL2", "shell", "shell_call"], ["call_Cu5tM3", "grep", "custom_tool_call"]]);
        assert.deepEqual(calls[1].openaiItem, { type: "shell_call", status: "completed", caller: { type: "direct" } });
        assert.equal(calls[2].openaiItem.namespace, "fs");
        const results = blocks.filter((b) => b.type === "tool_response");
        assert.deepEqual(results.map((r) => [r.callId, r.toolName, r.openaiItem.type]), [["call_Pa7cH1", "apply_patch", "apply_patch_call_output"], ["call_Sh3lL2", "shell", "shell_call_output"], ["call_Cu5tM3", "grep", "custom_tool_call_output"]]);
        assert.deepEqual(results[1].result, [{ stdout: "test add ... ok\n", stderr: "", outcome: { type: "exit", exit_code: 0 } }]);
        // read back and rendered for the other providers: the fixture's goldens, byte for byte
        // (the patch and the shell command as ordinary tool calls with their results)
        for (const provider of ["anthropic", "gemini", "openai-chat", "openai-responses"]) {
          const body = parsed(api.renderBody(imported.transcript, { ...imported.options, provider, model: MODELS[provider] }));
          assert.deepEqual(body, golden(f.name, provider), provider);
        }
      });

      test("Responses client-tool items in the SDK's shapes: local_shell_call, client tool_search, program, additional_tools, a failed apply_patch", () => {
        const tools = [{ type: "function", name: "grep", description: "Search", parameters: { type: "object" }, strict: false }];
        const input = [
          { type: "message", role: "user", content: "List the repo, find a search tool, then patch." },
          { type: "additional_tools", id: "at_1", role: "developer", tools },
          { type: "local_shell_call", id: "lsh_1", call_id: "call_Ls1", status: "completed", action: { type: "exec", command: ["ls", "-la"], env: { LANG: "C" }, timeout_ms: 5000 } },
          { type: "local_shell_call_output", id: "call_Ls1", output: "Cargo.toml\nsrc\n", status: "completed" },
          { type: "tool_search_call", id: "tsc_1", call_id: "call_Ts1", execution: "client", status: "completed", arguments: { query: "grep" } },
          { type: "tool_search_output", id: "tso_1", call_id: "call_Ts1", execution: "client", status: "completed", tools },
          { type: "program", id: "prg_1", call_id: "call_Pg1", code: "console.log(1 + 1)", fingerprint: "fp_1" },
          { type: "program_output", id: "po_1", call_id: "call_Pg1", result: "2", status: "completed" },
          { type: "apply_patch_call", id: "apc_1", call_id: "call_Ap1", status: "completed", operation: { type: "delete_file", path: "src/old.rs" } },
          { type: "apply_patch_call_output", id: "apco_1", call_id: "call_Ap1", status: "failed", output: "src/old.rs: no such file" },
          { type: "message", role: "user", content: "Go on." },
        ];
        const imported = api.fromResponsesInput(input, "be brief", { model: "gpt-5.2" });
        assert.deepEqual(imported.diagnostics, []);
        const blocks = imported.transcript.flatMap((m) => m.blocks);
        const calls = blocks.filter((b) => b.type === "tool_call").map((c) => [c.id, c.name, c.parameters]);
        assert.deepEqual(calls, [
          ["call_Ls1", "local_shell", { action: input[2].action }],
          ["call_Ts1", "tool_search", { arguments: { query: "grep" } }],
          ["call_Pg1", "program", { code: "console.log(1 + 1)" }],
          ["call_Ap1", "apply_patch", { operation: { type: "delete_file", path: "src/old.rs" } }],
        ]);
        const results = blocks.filter((b) => b.type === "tool_response").map((r) => [r.callId, r.toolName, r.result ?? null, r.error ?? null]);
        assert.deepEqual(results, [
          ["call_Ls1", "local_shell", "Cargo.toml\nsrc\n", null],
          ["call_Ts1", "tool_search", tools, null],
          ["call_Pg1", "program", "2", null],
          ["call_Ap1", "apply_patch", null, "src/old.rs: no such file"],
        ]);
        const added = blocks.find((b) => b.type === "server_tool");
        assert.deepEqual([added.name, added.wire.tools], ["additional_tools", tools]);

        // back to Responses: the same items, without the optional item ids (the required ones kept)
        const responses = api.renderForProvider(imported.transcript, { provider: "openai-responses", model: "gpt-5.2" });
        assert.deepEqual(responses.diagnostics, []);
        const want = input.map((item) => {
          const keep = ["local_shell_call", "local_shell_call_output", "program", "program_output"].includes(item.type);
          const { id, ...rest } = item;
          return keep ? item : rest;
        });
        const byType = (items) => Object.fromEntries(items.filter((i) => i.type !== "message").map((i) => [i.type, i]));
        assert.deepEqual(byType(responses.body.input), byType(want));
        assert.deepEqual(responses.body.input.map((i) => i.type), want.map((i) => i.type));

        // to Anthropic and Chat Completions: ordinary tool calls, the failed patch an error result
        const anthropic = api.renderForProvider(imported.transcript, { provider: "anthropic", model: MODELS.anthropic }).body;
        const uses = anthropic.messages.flatMap((m) => m.content).filter((b) => b.type === "tool_use");
        assert.deepEqual(uses.map((u) => [u.id, u.name, u.input]), calls.map(([id, name, parameters]) => [id.replace("call_", "toolu_"), name, parameters]));
        const failed = anthropic.messages.flatMap((m) => m.content).find((b) => b.type === "tool_result" && b.tool_use_id === "toolu_Ap1");
        assert.deepEqual([failed.content, failed.is_error], ["src/old.rs: no such file", true]);
        const chat = api.renderForProvider(imported.transcript, { provider: "openai-chat", model: MODELS["openai-chat"] }).body;
        const chatCalls = chat.messages.flatMap((m) => m.tool_calls ?? []);
        assert.deepEqual(chatCalls.map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments)]), calls);
      });

      test("an Anthropic body with system messages mid-conversation (fixture 93): read in place, kept in place where the API takes them", () => {
        const f = fixture("93-mid-conversation-system-messages");
        const imported = api.fromRequestBody("anthropic", golden(f.name, "anthropic"));
        assert.deepEqual(imported.diagnostics, []);
        assert.deepEqual(imported.transcript.map((m) => m.speaker), ["system", "human", "ai", "tool", "system", "ai", "human", "system"]);
        assert.deepEqual(imported.transcript[4].blocks, [{ type: "text", text: "The user switched to terse mode." }]);
        const again = api.renderForProvider(imported.transcript, { ...imported.options, provider: "anthropic", model: "claude-opus-4-8" });
        assert.deepEqual(again.body, golden(f.name, "anthropic"));
        // Chat Completions takes system messages anywhere; Gemini has one system instruction
        const chat = api.renderForProvider(imported.transcript, { ...imported.options, provider: "openai-chat", model: MODELS["openai-chat"] }).body;
        assert.deepEqual(chat.messages.map((m) => m.role), ["system", "user", "assistant", "tool", "system", "assistant", "user", "system"]);
        const gemini = api.renderForProvider(imported.transcript, { ...imported.options, provider: "gemini", model: MODELS.gemini }).body;
        assert.equal(gemini.systemInstruction.parts[0].text, "You are a build assistant.\n\nThe user switched to terse mode.\n\nLint with clippy.\n\nDeny warnings.");
      });

      test("an Anthropic body with compaction and fallback blocks (fixture 94), and the decoded refusal stream: kept for Anthropic with their betas, summary text for the others", () => {
        const f = fixture("94-refusal-fallback-and-compaction");
        const imported = api.fromRequestBody("anthropic", golden(f.name, "anthropic"));
        assert.deepEqual(imported.diagnostics, []);
        const ai = imported.transcript[1];
        assert.deepEqual(ai.blocks.map((b) => b.name ?? b.type), ["compaction", "fallback", "text"]);
        // the text after the fallback is the to-model's
        assert.deepEqual(ai.blocks[2].provenance, { provider: "anthropic", model: "claude-opus-5" });
        const again = api.renderForProvider(imported.transcript, { ...imported.options, provider: "anthropic", model: "claude-fable-5-1" });
        assert.deepEqual(again.body, golden(f.name, "anthropic"));
        const betas = (again.headers?.["anthropic-beta"] ?? "").split(",");
        assert.ok(betas.some((b) => b.startsWith("compact-")) && betas.some((b) => b.startsWith("server-side-fallback-")), JSON.stringify(again.headers));

        const streamed = decodeChunks(api, "anthropic", [encoder.encode(frameSSE("anthropic", eventLines(stream("anthropic/refusal_fallback"))))], { model: MODELS.anthropic });
        const history = [
          { speaker: "human", blocks: [{ type: "text", text: "Explain the exploit." }] },
          streamed.outcome.message,
          { speaker: "human", blocks: [{ type: "text", text: "Do that." }] },
        ];
        const anthropic = api.renderForProvider(history, { provider: "anthropic", model: "claude-fable-5-1" }).body;
        assert.deepEqual(anthropic.messages[1].content.map((b) => b.type), ["compaction", "fallback", "text"]);
        assert.deepEqual(anthropic.messages[1].content[0], { type: "compaction", content: "We pinned the toolchain." });
        for (const provider of ["openai-chat", "openai-responses"]) {
          const body = api.renderForProvider(history, { provider, model: MODELS[provider] }).body;
          const assistant = (body.messages ?? body.input).find((m) => m.role === "assistant");
          assert.equal(assistant.content, "We pinned the toolchain.\n\nI can explain the vulnerability class.", provider);
        }
      });

      test("Gemini 3 function call and response ids: read, paired by id (not order), echoed to Gemini 3 only", () => {
        const contents = [
          { role: "user", parts: [{ text: "Read both." }] },
          { role: "model", parts: [{ functionCall: { name: "read_file", args: { path: "a.rs" }, id: "k3v9d1qa" }, thoughtSignature: "c2lnLWE=" }, { functionCall: { name: "read_file", args: { path: "b.rs" }, id: "p0x7m2zb" } }] },
          // the responses in the other order
          { role: "user", parts: [{ functionResponse: { name: "read_file", response: { output: "B" }, id: "p0x7m2zb" } }, { functionResponse: { name: "read_file", response: { output: "A" }, id: "k3v9d1qa" } }] },
          { role: "user", parts: [{ text: "Next." }] },
        ];
        const imported = api.fromGemini(contents, null, { model: MODELS.gemini });
        assert.deepEqual(imported.diagnostics, []);
        const blocks = imported.transcript.flatMap((m) => m.blocks);
        assert.deepEqual(blocks.filter((b) => b.type === "tool_call").map((c) => [c.id, c.parameters.path]), [["k3v9d1qa", "a.rs"], ["p0x7m2zb", "b.rs"]]);
        assert.deepEqual(blocks.filter((b) => b.type === "tool_response").map((r) => [r.callId, r.result]), [["p0x7m2zb", "B"], ["k3v9d1qa", "A"]]);
        const gemini3 = api.renderForProvider(imported.transcript, { provider: "gemini", model: MODELS.gemini }).body;
        assert.deepEqual(gemini3.contents[1].parts.map((p) => p.functionCall.id), ["k3v9d1qa", "p0x7m2zb"]);
        assert.deepEqual(gemini3.contents[2].parts.filter((p) => p.functionResponse).map((p) => [p.functionResponse.id, p.functionResponse.response.output]), [["k3v9d1qa", "A"], ["p0x7m2zb", "B"]]);
        const gemini25 = api.renderForProvider(imported.transcript, { provider: "gemini", model: "gemini-2.5-flash" }).body;
        assert.ok(gemini25.contents.flatMap((c) => c.parts).every((p) => p.functionCall?.id === undefined && p.functionResponse?.id === undefined));
        const anthropic = api.renderForProvider(imported.transcript, { provider: "anthropic", model: MODELS.anthropic }).body;
        const results = anthropic.messages[2].content.filter((b) => b.type === "tool_result").map((b) => [b.tool_use_id, b.content]);
        assert.deepEqual(results, [["toolu_k3v9d1qa", "A"], ["toolu_p0x7m2zb", "B"]]);
        // the golden fixture 96 reads back to its own body
        const f = fixture("96-gemini-3-call-ids-and-signed-empty-text");
        const back = api.fromRequestBody("gemini", golden(f.name, "gemini"), { model: MODELS.gemini });
        assert.deepEqual(api.renderForProvider(back.transcript, { ...back.options, provider: "gemini", model: MODELS.gemini }).body, golden(f.name, "gemini"));
      });

      test("a decoded Codex stream, answered, renders back to Responses as the same items and to Anthropic as tool calls", () => {
        const { outcome } = decodeChunks(api, "openai-responses", [encoder.encode(frameSSE("openai-responses", eventLines(stream("openai-responses/codex_tools"))))], { model: MODELS["openai-responses"] });
        const shellOut = [{ stdout: "ok\n", stderr: "", outcome: { type: "exit", exit_code: 0 } }];
        const history = [
          { speaker: "human", blocks: [{ type: "text", text: "Fix the test." }] },
          outcome.message,
          { speaker: "tool", blocks: [
            { type: "tool_response", callId: "call_Pa7cH1", toolName: "apply_patch", result: "Updated tests/math.rs" },
            { type: "tool_response", callId: "call_Sh3lL2", toolName: "shell", result: shellOut },
            { type: "tool_response", callId: "call_Cu5tM3", toolName: "grep", result: "src/lib.rs:3" },
          ] },
        ];
        const responses = api.renderForProvider(history, { provider: "openai-responses", model: "gpt-5.5" });
        assert.deepEqual(responses.diagnostics, []);
        const items = responses.body.input;
        assert.deepEqual(items.map((i) => i.type), ["message", "compaction", "message", "apply_patch_call", "shell_call", "custom_tool_call", "apply_patch_call_output", "shell_call_output", "custom_tool_call_output"]);
        assert.equal(items[2].phase, "commentary");
        // no item ids (stateless replay), the call ids kept
        assert.ok(items.every((i) => i.id === undefined), JSON.stringify(items));
        assert.deepEqual(items[3], { type: "apply_patch_call", call_id: "call_Pa7cH1", operation: outcome.message.blocks[2].parameters.operation, status: "completed" });
        assert.deepEqual(items[7], { type: "shell_call_output", call_id: "call_Sh3lL2", output: shellOut });
        assert.deepEqual(items[8], { type: "custom_tool_call_output", call_id: "call_Cu5tM3", output: "src/lib.rs:3" });
        const anthropic = api.renderForProvider(history, { provider: "anthropic", model: MODELS.anthropic }).body;
        const uses = anthropic.messages[1].content.filter((b) => b.type === "tool_use");
        assert.deepEqual(uses.map((u) => [u.id, u.name]), [["toolu_Pa7cH1", "apply_patch"], ["toolu_Sh3lL2", "shell"], ["toolu_Cu5tM3", "grep"]]);
        assert.equal(uses[0].input.operation.diff, "@@\n-assert_eq!(add(2, 2), 5);\n+assert_eq!(add(2, 2), 4);\n");
        assert.deepEqual(uses[1].input.action.commands, ["cargo test --test math"]);
      });
    });
  });
}
