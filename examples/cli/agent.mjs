#!/usr/bin/env node
// An interactive agent CLI on turnwire: type a task, watch the model stream its answer and run
// tools, switch provider mid-session with `/model <provider>`, press Ctrl-C to cancel the turn
// and its running tools (each is recorded as cancelled in the history), `/exit` to leave.
//
//   node agent.mjs --mock                 the strict local mock providers (no keys, no network)
//   node agent.mjs                        the real providers whose API keys are set
//   node agent.mjs --session ./sessions   save the session after every turn, resume it next time
//
// Everything a turn does goes through turnwire: createRouter picks the provider, runAgent runs
// turn -> tools -> turn, runToolCalls runs each batch, saveSession writes it.
import { createInterface } from "node:readline";
import { stdin, stdout } from "node:process";
import { Conversation, createRouter, loadSession, mergeUsage, runAgent, saveSession } from "turnwire";
import { fileStore } from "turnwire/file-store";

const args = process.argv.slice(2);
const useMock = args.includes("--mock");
const sessionDir = args.includes("--session") ? args[args.indexOf("--session") + 1] : undefined;
const SESSION_ID = "cli";

const MODELS = {
  anthropic: ["claude-sonnet-4-5", "ANTHROPIC_API_KEY"],
  "openai-chat": ["gpt-5.2", "OPENAI_API_KEY"],
  "openai-responses": ["gpt-5.2", "OPENAI_API_KEY"],
  gemini: ["gemini-3-pro-preview", "GEMINI_API_KEY"],
  mistral: ["mistral-large-latest", "MISTRAL_API_KEY"],
  kimi: ["kimi-k2-thinking", "MOONSHOT_API_KEY"],
  deepseek: ["deepseek-reasoner", "DEEPSEEK_API_KEY"],
};

// ---- the tools: a tiny workspace ------------------------------------------------------------
const files = new Map([
  ["README.md", "# demo\nA workspace for the turnwire CLI example.\n"],
  ["src/main.rs", 'fn main() {\n    println!("hello");\n}\n'],
]);
const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
const tools = [
  {
    name: "read_file",
    description: "Read a file of the workspace.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    execute: ({ path }) => {
      if (!files.has(path)) throw new Error(`no such file: ${path} (files: ${[...files.keys()].join(", ")})`);
      return files.get(path);
    },
  },
  {
    name: "run_command",
    description: "Run a shell command in the workspace (slow: builds take a while).",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    execute: async ({ command }, { signal }) => {
      await sleep(30_000, signal);
      return `$ ${command}\nok`;
    },
  },
];

// ---- the providers --------------------------------------------------------------------------
let mock;
let targets;
if (useMock) {
  const { startMockProviders } = await import("turnwire/mock");
  // A scripted model: reads a file when asked to, runs a (slow) command when asked to build,
  // answers from the tool results when it has them.
  mock = await startMockProviders({
    delayMs: 5,
    defaultTurn: (req) => {
      // the request's last message, in any provider's shape
      const history = req.body?.messages ?? req.body?.input ?? req.body?.contents ?? [];
      const last = JSON.stringify(history.at(-1) ?? {});
      if (/thanks/i.test(last)) return { text: "You're welcome." };
      if (/"tool_result"|"functionResponse"|"function_call_output"|"role":"tool"/.test(last)) {
        return { text: "Done: I read the result of the tool." };
      }
      if (/build it/i.test(last)) return { blocks: [{ type: "text", text: "Building." }, { type: "tool_call", name: "run_command", arguments: { command: "cargo build" } }] };
      if (/readme/i.test(last)) return { blocks: [{ type: "tool_call", name: "read_file", arguments: { path: "README.md" } }] };
      return { blocks: [{ type: "thinking", thinking: "A greeting." }, { type: "text", text: "Hello! Ask me to read the readme or to build it." }] };
    },
  });
  targets = Object.entries(MODELS).map(([provider, [model]]) => ({ provider, model, apiKey: "mock-key", baseURL: mock.baseURL(provider) }));
} else {
  targets = Object.entries(MODELS)
    .filter(([, [, key]]) => process.env[key])
    .map(([provider, [model, key]]) => ({ provider, model, apiKey: process.env[key] }));
  if (targets.length === 0) {
    console.error("No API key is set (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, …); run with --mock to try the mock providers.");
    process.exit(2);
  }
}
const router = createRouter(targets);

// ---- the session ----------------------------------------------------------------------------
const store = sessionDir ? fileStore(sessionDir) : undefined;
const saved = store ? await loadSession(store, SESSION_ID) : undefined;
const conversation = saved?.conversation ?? new Conversation();
const usage = saved?.usage ?? {};
if (saved?.target && router.targets.some((t) => t.name === saved.target)) router.switchTo(saved.target);
if (saved) console.log(`resumed a session of ${conversation.length} messages on ${router.current.name}`);
const save = async () => store && saveSession(store, SESSION_ID, { conversation, usage, target: router.current.name });

// ---- the loop -------------------------------------------------------------------------------
const rl = createInterface({ input: stdin, output: stdout, prompt: "> " });
let running; // the AbortController of the turn in flight
rl.on("SIGINT", () => {
  if (running) {
    running.abort(new Error("the user pressed Ctrl-C"));
    return;
  }
  rl.close();
});

console.log(`turnwire agent CLI · ${router.current.name} · /model <provider> to switch, /exit to leave`);
rl.prompt();
for await (const line of rl) {
  const input = line.trim();
  if (input === "/exit") break;
  if (input.startsWith("/model")) {
    const provider = input.split(/\s+/)[1];
    try {
      router.switchTo(provider);
      console.log(`next turn goes to ${router.pending?.name ?? router.current.name}`);
    } catch (e) {
      console.log(String(e.message));
    }
    rl.prompt();
    continue;
  }
  if (input === "") {
    rl.prompt();
    continue;
  }
  conversation.append({ speaker: "human", blocks: [{ type: "text", text: input }] });
  running = new AbortController();
  let cancelled = 0;
  let result;
  try {
    result = await runAgent({
    conversation,
    router,
    tools,
    signal: running.signal,
    onEvent: (e) => {
      if (e.type === "attempt") stdout.write(`[${e.target.name}] `);
      if (e.type === "delta" && e.delta.type === "text") stdout.write(e.delta.text);
      if (e.type === "delta" && e.delta.type === "toolCallStart") stdout.write(`\n  running ${e.delta.name}…`);
      if (e.type === "retry") stdout.write(`\n  ${e.error.status} from ${e.error.provider}; trying ${e.target.name}\n`);
      if (e.type === "tool-result") {
        const r = e.response;
        if (r.cancelled) cancelled++;
        stdout.write(`\n  ${r.toolName}: ${r.cancelled ? "cancelled (recorded)" : r.error ? `error: ${r.error}` : "done"}\n`);
      }
      if (e.type === "turn") stdout.write("\n");
    },
    });
  } catch (e) {
    // not a provider's failure (those end the run with stopped: "error"): a bad option, a bug
    result = { stopped: "error", error: e, usageByModel: {} };
  }
  running = undefined;
  mergeUsage(usage, result.usageByModel);
  if (result.stopped === "aborted") {
    console.log(`cancelled: ${cancelled} tool call(s) recorded as cancelled; ${conversation.openCalls().length} left open`);
  }
  if (result.stopped === "error") console.log(`error: ${result.error.message}`);
  await save();
  rl.prompt();
}

await save();
rl.close();
if (mock) {
  const { accepted, rejected } = mock.stats;
  console.log(`requests: ${accepted} accepted, ${rejected} rejected`);
  await mock.close();
}
conversation.free();
