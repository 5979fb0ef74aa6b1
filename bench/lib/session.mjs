// Seeded synthetic agent sessions, in turnwire's transcript shape and in each peer's own
// message format (pi-ai `Context`, AI SDK `ModelMessage[]`, LangChain `BaseMessage[]`), all
// four describing the same conversation.
//
// A session is a list of episodes: a user message, 0-4 tool rounds (an assistant message with
// signed thinking, sometimes a short text, and 1-5 parallel tool calls; then one tool message
// with every result, 0.2-5 KB each), and the assistant's final answer (thinking + text). The
// message count is counted in turnwire's transcript (one tool message per round); it always
// ends with a user message, the one a request is built for. An episode the user interrupted
// after its tool results (no final answer) fixes the parity where needed.

/** mulberry32: a small, fast, seeded PRNG. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  /** log-uniform between lo and hi: many small, some large (tool result sizes). */
  const logInt = (lo, hi) => Math.round(Math.exp(Math.log(lo) + next() * (Math.log(hi) - Math.log(lo))));
  return { next, int, pick, logInt };
}

export const MODELS = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-5.2",
  gemini: "gemini-2.5-pro",
};

/** The model every assistant message of a session came from (thinking is signed by it). */
const SOURCE = { provider: "anthropic", model: MODELS.anthropic };

export const SYSTEM_PROMPT =
  "You are a coding agent working in a user's repository. Use the tools to read, search and edit files and to run " +
  "commands. Prefer small, reviewable changes; run the tests after every edit; never invent file contents you have " +
  "not read. When several independent reads or searches are needed, issue them in parallel. Report what you changed " +
  "and why, in short paragraphs, and list anything you could not verify. Keep secrets out of logs and commits. ".repeat(2);

/** Tool declarations (JSON Schema), sent with every request by every library. */
export const TOOLS = [
  {
    name: "read_file",
    description: "Read a file of the repository, optionally a line range.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "Path relative to the repository root" },
        offset: { type: "integer", description: "First line (1-based)" },
        limit: { type: "integer", description: "Number of lines" },
      },
      required: ["path"],
    },
  },
  {
    name: "grep",
    description: "Search file contents with a regular expression.",
    parameters: {
      type: "object",
      properties: {
        pattern: { type: "string" },
        path: { type: "string" },
        glob: { type: "string" },
        ignore_case: { type: "boolean" },
      },
      required: ["pattern"],
    },
  },
  {
    name: "bash",
    description: "Run a shell command in the repository and return its output.",
    parameters: {
      type: "object",
      properties: { command: { type: "string" }, timeout_ms: { type: "integer" }, cwd: { type: "string" } },
      required: ["command"],
    },
  },
  {
    name: "edit_file",
    description: "Replace one exact occurrence of old_string with new_string in a file.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, old_string: { type: "string" }, new_string: { type: "string" } },
      required: ["path", "old_string", "new_string"],
    },
  },
  {
    name: "write_file",
    description: "Create or overwrite a file.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
    },
  },
  {
    name: "list_dir",
    description: "List a directory.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, depth: { type: "integer" } },
      required: ["path"],
    },
  },
];

const WORDS = (
  "the a to of and in is that for it with as on this be are we should not parser token buffer error result value " +
  "function module test config request response state render message session provider handler cache index stream " +
  "return match option string number array object field type trait impl struct enum async await promise callback " +
  "check update build failing passing because then first next also only before after around instead maybe " +
  "déjà naïve café → ✓ über"
).split(" ");
const IDENT = "parse render token buffer state cache index stream handler config request message session value".split(" ");
const DIRS = ["src", "src/wire", "src/render", "tests", "tests/js", "examples", "scripts", "docs", "crates/core/src"];
const EXTS = ["rs", "ts", "mjs", "md", "json", "toml", "sh"];
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function prose(r, chars) {
  let s = "";
  while (s.length < chars) {
    let w = r.pick(WORDS);
    if (s.length === 0 || s.endsWith(". ")) w = w[0].toUpperCase() + w.slice(1);
    s += w + (r.next() < 0.08 ? ". " : r.next() < 0.05 ? ", " : " ");
  }
  return s.trim();
}

function code(r, chars) {
  let s = "";
  let depth = 0;
  while (s.length < chars) {
    const id = `${r.pick(IDENT)}_${r.pick(IDENT)}`;
    const line = r.pick([
      `let ${id} = ${r.pick(IDENT)}(&mut ${r.pick(IDENT)})?;`,
      `if ${id}.is_empty() { return Err(Error::Empty("${r.pick(IDENT)}")); }`,
      `fn ${id}(input: &str) -> Result<${r.pick(["String", "Vec<u8>", "usize", "()"])}> {`,
      `// ${prose(r, r.int(20, 70))}`,
      `${id}.push_str("\\t${r.pick(WORDS)}\\n");`,
      `}`,
    ]);
    if (line.endsWith("{")) depth++;
    if (line === "}") depth = Math.max(0, depth - 1);
    s += "    ".repeat(Math.min(depth, 4)) + line + "\n";
  }
  return s;
}

const path = (r) => `${r.pick(DIRS)}/${r.pick(IDENT)}_${r.pick(IDENT)}.${r.pick(EXTS)}`;
const randStr = (r, alphabet, n) => {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(r.next() * alphabet.length)];
  return s;
};

function toolCall(r, n) {
  const name = r.pick(["read_file", "read_file", "grep", "grep", "bash", "edit_file", "write_file", "list_dir"]);
  const id = `toolu_01${randStr(r, B62, 22)}`;
  let input;
  switch (name) {
    case "read_file":
      input = r.next() < 0.5 ? { path: path(r) } : { path: path(r), offset: r.int(1, 400), limit: r.int(20, 200) };
      break;
    case "grep":
      input = { pattern: `${r.pick(IDENT)}_\\w+\\(`, path: r.pick(DIRS), glob: `*.${r.pick(EXTS)}`, ignore_case: r.next() < 0.3 };
      break;
    case "bash":
      input = { command: r.pick(["cargo test --quiet", "npm test", "git status --short", `rg -n ${r.pick(IDENT)} ${r.pick(DIRS)}`, "make lint"]), timeout_ms: 120000 };
      break;
    case "edit_file":
      input = { path: path(r), old_string: code(r, r.int(50, 800)), new_string: code(r, r.int(50, 800)) };
      break;
    case "write_file":
      input = { path: path(r), content: code(r, r.int(300, 3000)) };
      break;
    default:
      input = { path: r.pick(DIRS), depth: r.int(1, 3) };
  }
  void n;
  return { id, name, input };
}

function toolResult(r, call) {
  const size = r.logInt(200, 5000);
  const isError = r.next() < 0.03;
  let text;
  if (isError) text = `error: ${prose(r, Math.min(size, 400))}`;
  else if (call.name === "grep") {
    text = "";
    while (text.length < size) text += `${path(r)}:${r.int(1, 900)}:    ${code(r, 40).split("\n")[0].trim()}\n`;
  } else if (call.name === "bash" || call.name === "list_dir") text = prose(r, size);
  else if (call.name === "read_file") text = code(r, size);
  else text = `Wrote ${r.int(1, 200)} lines to ${call.input.path}`;
  return { text, isError };
}

const thinking = (r) => ({ thought: prose(r, r.int(200, 2000)), signature: randStr(r, B64, r.int(300, 550)) + "==" });

/**
 * Builds a session of exactly `n` messages (n >= 4) with the seed `seed`: an array of neutral
 * events from which every format is derived.
 */
export function generateEvents(n, seed) {
  const r = rng(seed);
  const ev = [];
  let remaining = n - 1; // the closing user message is added at the end
  let t = 1_760_000_000_000;
  while (remaining > 0) {
    // An odd remainder: one episode without a final answer (the user interrupted it).
    const interrupted = remaining % 2 === 1;
    const maxRounds = interrupted ? (remaining - 1) / 2 : (remaining - 2) / 2;
    const rounds = interrupted ? Math.max(1, Math.min(maxRounds, r.int(1, 4))) : Math.min(maxRounds, r.int(0, 4));
    ev.push({ kind: "user", text: prose(r, r.int(50, 600)), t: (t += 1000) });
    for (let k = 0; k < rounds; k++) {
      const ncalls = r.pick([1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5]);
      const calls = [];
      for (let c = 0; c < ncalls; c++) calls.push(toolCall(r, c));
      ev.push({ kind: "calls", ...thinking(r), text: r.next() < 0.3 ? prose(r, r.int(40, 300)) : null, calls, t: (t += 1000) });
      ev.push({ kind: "results", results: calls.map((c) => ({ call: c, ...toolResult(r, c) })), t: (t += 1000) });
    }
    if (!interrupted) ev.push({ kind: "answer", ...thinking(r), text: prose(r, r.int(100, 1500)), t: (t += 1000) });
    remaining -= 1 + 2 * rounds + (interrupted ? 0 : 1);
  }
  ev.push({ kind: "user", text: prose(r, r.int(50, 600)), t: (t += 1000) });
  if (ev.length !== n) throw new Error(`generator: wanted ${n} messages, made ${ev.length}`);
  return ev;
}

// --- turnwire ------------------------------------------------------------------------------

export function toTurnwire(events) {
  return events.map((e) => {
    switch (e.kind) {
      case "user":
        return { speaker: "human", blocks: [{ type: "text", text: e.text }] };
      case "calls":
      case "answer": {
        const blocks = [{ type: "thinking", thought: e.thought, signature: e.signature }];
        if (e.text) blocks.push({ type: "text", text: e.text });
        for (const c of e.calls ?? []) blocks.push({ type: "tool_call", id: c.id, name: c.name, parameters: c.input });
        return { speaker: "ai", metadata: { ...SOURCE }, blocks };
      }
      case "results":
        return {
          speaker: "tool",
          blocks: e.results.map((x) =>
            x.isError
              ? { type: "tool_response", callId: x.call.id, toolName: x.call.name, error: x.text }
              : { type: "tool_response", callId: x.call.id, toolName: x.call.name, result: x.text },
          ),
        };
    }
    throw new Error(e.kind);
  });
}

// --- pi-ai (Context.messages) ----------------------------------------------------------------

const ZERO_USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

export function toPiAi(events) {
  const out = [];
  for (const e of events) {
    switch (e.kind) {
      case "user":
        out.push({ role: "user", content: e.text, timestamp: e.t });
        break;
      case "calls":
      case "answer": {
        const content = [{ type: "thinking", thinking: e.thought, thinkingSignature: e.signature }];
        if (e.text) content.push({ type: "text", text: e.text });
        for (const c of e.calls ?? []) content.push({ type: "toolCall", id: c.id, name: c.name, arguments: c.input });
        out.push({
          role: "assistant",
          content,
          api: "anthropic-messages",
          provider: "anthropic",
          model: SOURCE.model,
          usage: ZERO_USAGE,
          stopReason: e.kind === "calls" ? "toolUse" : "stop",
          timestamp: e.t,
        });
        break;
      }
      case "results":
        for (const x of e.results)
          out.push({ role: "toolResult", toolCallId: x.call.id, toolName: x.call.name, content: [{ type: "text", text: x.text }], isError: x.isError, timestamp: e.t });
        break;
    }
  }
  return out;
}

// --- AI SDK (ModelMessage[]) ----------------------------------------------------------------

export function toAiSdk(events) {
  return events.map((e) => {
    switch (e.kind) {
      case "user":
        return { role: "user", content: [{ type: "text", text: e.text }] };
      case "calls":
      case "answer": {
        const content = [{ type: "reasoning", text: e.thought, providerOptions: { anthropic: { signature: e.signature } } }];
        if (e.text) content.push({ type: "text", text: e.text });
        for (const c of e.calls ?? []) content.push({ type: "tool-call", toolCallId: c.id, toolName: c.name, input: c.input });
        return { role: "assistant", content };
      }
      case "results":
        return {
          role: "tool",
          content: e.results.map((x) => ({
            type: "tool-result",
            toolCallId: x.call.id,
            toolName: x.call.name,
            output: x.isError ? { type: "error-text", value: x.text } : { type: "text", value: x.text },
          })),
        };
    }
    throw new Error(e.kind);
  });
}

// --- LangChain (BaseMessage[]) --------------------------------------------------------------

/** `lc` is `@langchain/core/messages`. */
export function toLangChain(events, lc) {
  const out = [];
  for (const e of events) {
    switch (e.kind) {
      case "user":
        out.push(new lc.HumanMessage(e.text));
        break;
      case "calls":
      case "answer": {
        const content = [{ type: "thinking", thinking: e.thought, signature: e.signature }];
        if (e.text) content.push({ type: "text", text: e.text });
        for (const c of e.calls ?? []) content.push({ type: "tool_use", id: c.id, name: c.name, input: c.input });
        out.push(
          new lc.AIMessage({
            content,
            tool_calls: (e.calls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.input, type: "tool_call" })),
            response_metadata: { model_provider: "anthropic", model_name: SOURCE.model },
          }),
        );
        break;
      }
      case "results":
        for (const x of e.results)
          out.push(new lc.ToolMessage({ content: x.text, tool_call_id: x.call.id, name: x.call.name, status: x.isError ? "error" : "success" }));
        break;
    }
  }
  return out;
}
