// `make demo`: one agent session through turnwire's fetch shim, live, on this machine.
//
// The agent fixes a failing test in a small in-memory repository (tools.mjs). Every turn goes
// to the next wire format round robin — anthropic, openai-chat, openai-responses, gemini,
// mistral, kimi, deepseek, openai-compatible — so each provider receives a history that other
// providers wrote: their tool-call ids, thinking signatures, reasoning items. One tool of the
// first parallel batch is cancelled by the agent's time limit (it never gets a result), and one
// provider answers HTTP 500 once, so the agent fails over to the next one.
//
// The providers are turnwire/mock servers on 127.0.0.1 (no network, no keys): each speaks its
// provider's request and stream format and checks every request with the strict validator,
// answering a violation with the provider's own HTTP 400. The session ends with
//   requests: N accepted, M rejected
// where M counts every non-2xx answer that was not scripted (it must be 0).
//
// With TURNWIRE_DEMO_LIVE=1 the same agent talks to the real providers whose API keys are in
// the environment (see README.md, "The live demo"); the replies are then the models' own.
import { Conversation, isProviderError, streamTurn } from "turnwire";
import { startMockProviders } from "turnwire/mock";
import { REPLIES, USER } from "./script.mjs";
import { TOOLS, runTool } from "./tools.mjs";

const ROTATION = [
  ["anthropic", "claude-sonnet-4-5"],
  ["openai-chat", "gpt-5.2"],
  ["openai-responses", "gpt-5.2"],
  ["gemini", "gemini-3-pro-preview"],
  ["mistral", "mistral-large-latest"],
  ["kimi", "kimi-k2-thinking"],
  ["deepseek", "deepseek-reasoner"],
  ["openai-compatible", "llama-3.3-70b-versatile"],
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
  mock = await startMockProviders({ delayMs: 2 });
}
const endpoint = (provider) =>
  live
    ? { apiKey: process.env[LIVE[provider].key], baseURL: LIVE[provider].baseURL }
    : { apiKey: "demo-key", baseURL: mock.baseURL(provider) };

// ---- the session -----------------------------------------------------------------------------
const conversation = new Conversation();
conversation.cacheTargets = ROTATION.length; // a render cache for each provider of the round robin
conversation.append({ speaker: "system", blocks: [{ type: "text", text: SYSTEM }] });
conversation.append({ speaker: "human", blocks: [{ type: "text", text: USER[0] }] });
console.log(`${bold("user")}  ${USER[0]}`);

let next = 0; // position in the rotation
let users = 1;
let failedOver = 0;
let cancelled = 0;
const served = new Set();
const maxTurns = live ? 14 : REPLIES.length;

for (let turn = 1; turn <= maxTurns; turn++) {
  const reply = live ? undefined : REPLIES[turn - 1];
  let result;
  let failover = "";
  for (let attempt = 0; attempt < rotation.length; attempt++) {
    const [provider, model] = rotation[next % rotation.length];
    next++;
    // The mock plays what the script says this turn's model answers (an HTTP 500 first, once).
    if (reply) {
      if (reply.failFirst && attempt === 0) mock.script(provider, { kind: "error", status: 500 });
      else mock.script(provider, { blocks: reply.blocks });
    }
    try {
      result = await runTurn(turn, provider, model, failover);
      served.add(provider);
      break;
    } catch (e) {
      if (!isProviderError(e) || !e.retryable) throw e;
      failedOver++;
      failover = provider;
      const to = rotation[next % rotation.length][0];
      console.log(`  ${paint(31, "error")}     HTTP ${e.status} ${e.errorType} (retryable): failing over to ${to}`);
    }
  }
  if (!result) throw new Error(`turn ${turn}: every provider failed`);

  const calls = result.message.blocks.filter((b) => b.type === "tool_call");
  if (calls.length > 0) {
    const outcomes = await Promise.all(
      calls.map((c) => runTool(c, { timeoutMs: TOOL_TIME_LIMIT_MS, slow: c.name === "run_tests" && cancelled === 0 })),
    );
    const blocks = [];
    outcomes.forEach((o, i) => {
      const c = calls[i];
      if (o.cancelled) {
        cancelled++;
        console.log(`  ${paint(33, "cancelled")} ${c.name} (${c.id}) after ${TOOL_TIME_LIMIT_MS} ms: no result is stored`);
        return;
      }
      blocks.push({ type: "tool_response", callId: c.id, toolName: c.name, result: o.result, error: o.error });
      console.log(`  ${dim("result")}    ${c.name} → ${short(o.error ?? o.result, 70)}`);
    });
    if (blocks.length > 0) conversation.append({ speaker: "tool", blocks });
  } else if (users < USER.length && (live || reply?.user)) {
    conversation.append({ speaker: "human", blocks: [{ type: "text", text: USER[users] }] });
    console.log(`\n${bold("user")}  ${USER[users]}`);
    users++;
  } else if (live) {
    break;
  }
}

// ---- the end: what the providers said about our requests ------------------------------------
console.log("");
console.log(
  `${served.size} wire formats served ${maxTurns} turns; ${failedOver} failover, ${cancelled} cancelled tool call(s)`,
);
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

// ---- one turn through the shim ---------------------------------------------------------------
async function runTurn(turn, provider, model, failover) {
  const header = `turn ${turn} · ${provider} · ${model}`;
  console.log(`\n${bold(`── ${header} `)}${dim("─".repeat(Math.max(0, 72 - header.length)))}`);
  if (failover) console.log(`  ${paint(33, "failover")}  ${failover} failed this turn; the same history goes here`);
  const stream = streamTurn({
    provider,
    model,
    ...endpoint(provider),
    conversation,
    idSeed: `turn-${turn}`,
    render: { tools: TOOLS, maxTokens: 4096, thinking: { enabled: true, budgetTokens: 2048 } },
  });
  let thinking = "";
  for await (const d of stream) {
    if (d.type === "reasoning") thinking += d.text;
  }
  const result = await stream.result;
  const synthetic = result.diagnostics.filter((d) => d.code === "synthetic_result_added").length;
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
  if (synthetic > 0) console.log(`  ${dim("synthetic")} ${synthetic} result(s) for calls that never got one`);
  if (thinking) console.log(`  ${dim("thinking")}  ${short(thinking)}`);
  for (const b of result.message.blocks) {
    if (b.type === "text") console.log(`  ${paint(36, "text")}      ${short(b.text)}`);
    if (b.type === "tool_call") {
      console.log(`  ${paint(35, "call")}      ${b.name}(${short(JSON.stringify(b.parameters), 50)}) ${dim(b.id)}`);
    }
  }
  const u = result.usage;
  console.log(`  ${dim(`${result.stopReason} · ${u.inputTokens ?? 0} in / ${u.outputTokens ?? 0} out tokens`)}`);
  return result;
}
