// `make demo`: one agent session on turnwire's agent loop, live, on this machine.
//
// The agent fixes a failing test in a small in-memory repository (tools.mjs). `runAgent` runs
// turn → tools → turn; a round-robin router sends every turn to the next wire format —
// anthropic, openai-chat, openai-responses, gemini, mistral, kimi, deepseek, openai-compatible,
// bedrock-converse (AWS event-stream frames), ollama (NDJSON) — so each provider receives a history that other providers wrote: their tool-call ids, thinking
// signatures, reasoning items. The first parallel batch has a tool that outlives the agent's
// time limit (`runToolCalls` records a timeout for it), and one provider answers HTTP 500 once,
// so the router moves that turn to the next provider.
//
// The providers are turnwire/mock servers on 127.0.0.1 (no network, no keys): each speaks its
// provider's request and stream format and checks every request with the strict validator,
// answering a violation with the provider's own HTTP 400. The session ends with
//   requests: N accepted, M rejected
// where M counts every non-2xx answer that was not scripted (it must be 0).
//
// With TURNWIRE_DEMO_LIVE=1 the same agent talks to the real providers whose API keys are in
// the environment (see README.md, "The live demo"); the replies are then the models' own.
import { Conversation, createRouter, runAgent, streamTurn } from "turnwire";
import { startMockProviders } from "turnwire/mock";
import { REPLIES, USER } from "./script.mjs";
import { TOOLS } from "./tools.mjs";

const ROTATION = [
  ["anthropic", "claude-sonnet-4-5"],
  ["openai-chat", "gpt-5.2"],
  ["openai-responses", "gpt-5.2"],
  ["gemini", "gemini-3-pro-preview"],
  ["mistral", "mistral-large-latest"],
  ["kimi", "kimi-k2-thinking"],
  ["deepseek", "deepseek-reasoner"],
  ["openai-compatible", "llama-3.3-70b-versatile"],
  ["bedrock-converse", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"],
  ["ollama", "qwen3:8b"],
];

/** Real endpoints for TURNWIRE_DEMO_LIVE=1: the environment variable that holds each key. */
const LIVE = {
  anthropic: { key: "ANTHROPIC_API_KEY" },
  "openai-chat": { key: "OPENAI_API_KEY" },
  "openai-responses": { key: "OPENAI_API_KEY" },
  gemini: { key: "GEMINI_API_KEY" },
  mistral: { key: "MISTRAL_API_KEY" },
  kimi: { key: "MOONSHOT_API_KEY" },
  deepseek: { key: "DEEPSEEK_API_KEY" },
  "openai-compatible": { key: "GROQ_API_KEY", baseURL: "https://api.groq.com/openai/v1" },
  // a Bedrock API key (Bearer), in the region of AWS_REGION
  "bedrock-converse": { key: "AWS_BEARER_TOKEN_BEDROCK", region: process.env.AWS_REGION ?? "us-east-1" },
  // a local Ollama takes no key: OLLAMA_HOST (e.g. http://localhost:11434) switches it on
  ollama: { key: "OLLAMA_HOST", baseURL: process.env.OLLAMA_HOST, keyless: true },
};

const SYSTEM = "You are a careful coding agent. Use the tools; keep answers short.";
const TOOL_TIME_LIMIT_MS = 200;
const live = process.env.TURNWIRE_DEMO_LIVE === "1";
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, s) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
const dim = (s) => paint(2, s);
const bold = (s) => paint(1, s);
const short = (s, n = 96) => {
  const one = String(s).replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

// ---- providers: the mock servers, or the real ones ------------------------------------------
let mock;
let rotation = ROTATION;
if (live) {
  rotation = ROTATION.filter(([p]) => process.env[LIVE[p].key]);
  if (rotation.length === 0) {
    console.error("TURNWIRE_DEMO_LIVE=1 but no API key is set (ANTHROPIC_API_KEY, OPENAI_API_KEY, …)");
    process.exit(2);
  }
} else {
  // Whichever provider a turn goes to plays the script's next reply (an HTTP 500 first, once).
  let next = 0;
  let failed = false;
  mock = await startMockProviders({
    delayMs: 2,
    defaultTurn: () => {
      const reply = REPLIES[next];
      if (reply === undefined) return { text: "Nothing left to do." };
      if (reply.failFirst && !failed) {
        failed = true;
        return { kind: "error", status: 500 };
      }
      next++;
      return { blocks: reply.blocks };
    },
  });
}
const targets = rotation.map(([provider, model]) => ({
  provider,
  model,
  ...(live
    ? { apiKey: LIVE[provider].keyless ? undefined : process.env[LIVE[provider].key], baseURL: LIVE[provider].baseURL, region: LIVE[provider].region }
    : { apiKey: "demo-key", baseURL: mock.baseURL(provider) }),
}));
const router = createRouter(targets, { strategy: "round-robin", backoff: { initialMs: 50 } });

// ---- the session: the user's messages, each followed by the agent loop -----------------------
const conversation = new Conversation();
conversation.cacheTargets = ROTATION.length; // a render cache for each provider of the round robin
conversation.append({ speaker: "system", blocks: [{ type: "text", text: SYSTEM }] });

const served = new Set();
let turns = 0;
let failovers = 0;
let timedOut = 0;
for (const message of USER) {
  conversation.append({ speaker: "human", blocks: [{ type: "text", text: message }] });
  console.log(`\n${bold("user")}  ${message}`);
  let thinking = "";
  const result = await runAgent({
    conversation,
    router,
    tools: TOOLS,
    maxTurns: live ? 8 : 6,
    toolTimeoutMs: TOOL_TIME_LIMIT_MS,
    render: { maxTokens: 4096, thinking: { enabled: true, budgetTokens: 2048 } },
    onEvent: (e) => {
      if (e.type === "attempt") {
        thinking = "";
        const header = `turn ${turns + 1} · ${e.target.provider} · ${e.target.model}`;
        console.log(`\n${bold(`── ${header} `)}${dim("─".repeat(Math.max(0, 72 - header.length)))}`);
      }
      if (e.type === "retry") {
        failovers++;
        console.log(`  ${paint(31, "error")}     HTTP ${e.error.status} ${e.error.errorType} (retryable): the router moves the turn to ${e.target.provider}`);
      }
      if (e.type === "delta" && e.delta.type === "reasoning") thinking += e.delta.text;
      if (e.type === "turn") {
        turns++;
        served.add(e.result.target.provider);
        showTurn(e.result, thinking);
      }
      if (e.type === "tool-result") {
        const r = e.response;
        if (r.timedOut) timedOut++;
        const outcome = r.timedOut ? paint(33, r.error) : short(r.error ?? (typeof r.result === "string" ? r.result : JSON.stringify(r.result)), 70);
        console.log(`  ${dim("result")}    ${r.toolName} → ${outcome}`);
      }
    },
  });
  if (result.stopped === "error") throw result.error;
}

// ---- a host profile: one turn to Claude on Bedrock InvokeModel (mock only) ------------------
// The same conversation, rendered in Bedrock's envelope (anthropic_version in the body, no model
// or stream) and POSTed to /model/{id}/invoke-with-response-stream; the answer's event-stream
// `chunk` frames are decoded in Rust.
if (mock) {
  const model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
  conversation.append({ speaker: "human", blocks: [{ type: "text", text: "One line: what did we change?" }] });
  console.log(`\n${bold(`── turn ${turns + 1} · anthropic on host bedrock (InvokeModel) · ${model} `)}`);
  const hosted = await streamTurn({ provider: "anthropic", model, host: "bedrock", region: "us-east-1", apiKey: "demo-key", baseURL: mock.baseURL("anthropic"), conversation, render: { maxTokens: 1024 } });
  turns++;
  showTurn(hosted, "");
}

// ---- the end: what the providers said about our requests ------------------------------------
console.log("");
console.log(`${served.size} wire formats served ${turns} turns; ${failovers} failover, ${timedOut} tool call(s) timed out`);
if (mock) {
  const { accepted, rejected, scriptedErrors } = mock.stats;
  for (const entry of mock.log.filter((e) => e.outcome === "rejected")) {
    console.log(`  rejected by ${entry.provider}: ${entry.status} ${entry.violations?.map((v) => v.rule).join(", ")}`);
  }
  console.log(`${accepted + rejected + scriptedErrors} requests sent, ${scriptedErrors} of them answered with the scripted HTTP 500`);
  console.log(`requests: ${accepted} accepted, ${rejected} rejected`);
  await mock.close();
  conversation.free();
  process.exit(rejected === 0 && served.size === ROTATION.length ? 0 : 1);
}
conversation.free();

/** What one turn sent and got: the repairs of the request, projected ids, the reply. */
function showTurn(result, thinking) {
  const repairs = new Map();
  for (const d of result.diagnostics) repairs.set(d.code, (repairs.get(d.code) ?? 0) + 1);
  if (repairs.size > 0) {
    const list = [...repairs].map(([code, n]) => (n > 1 ? `${code} ×${n}` : code)).join(", ");
    console.log(`  ${dim("repairs")}   ${list} ${dim("(whole history, this request)")}`);
  }
  // Calls made by other providers get ids in this provider's format (the same every turn).
  const moved = Object.entries(result.idMap).filter(([canonical, sent]) => canonical !== sent);
  if (moved.length > 0) {
    const [canonical, sent] = moved[moved.length - 1];
    console.log(`  ${dim("ids")}       ${moved.length} call id(s) projected, e.g. ${short(canonical, 34)} → ${short(sent, 34)}`);
  }
  if (thinking) console.log(`  ${dim("thinking")}  ${short(thinking)}`);
  for (const b of result.message.blocks) {
    if (b.type === "text") console.log(`  ${paint(36, "text")}      ${short(b.text)}`);
    if (b.type === "tool_call") console.log(`  ${paint(35, "call")}      ${b.name}(${short(JSON.stringify(b.parameters), 50)}) ${dim(b.id)}`);
  }
  const u = result.usage;
  console.log(`  ${dim(`${result.stopReason} · ${u.inputTokens ?? 0} in / ${u.outputTokens ?? 0} out tokens`)}`);
}
