// A browser chat front end on turnwire/render: it streams replies, shows tool calls, their
// results and the repairs turnwire made to the history, switches provider from the picker
// between turns (a switch during a turn waits for it), and keeps the session in IndexedDB, so a
// reload resumes it. The targets come from /config.json (serve.mjs writes it: the mock
// providers, or the providers whose keys it was given).
import { Conversation, createRouter, indexedDbStore, loadSession, mergeUsage, runAgent, saveSession } from "turnwire/render";

const $ = (id) => document.getElementById(id);
const messagesEl = $("messages");
const picker = $("provider");
const statusEl = $("status");
const input = $("input");
const SESSION = "chat";

// The page's tools: a few notes the model can read.
const NOTES = new Map([
  ["notes.md", "Ship the release on Friday."],
  ["todo.md", "- write the changelog\n- tag v1.0"],
]);
const tools = [
  {
    name: "read_file",
    description: "Read one of the user's notes (notes.md, todo.md).",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    execute: ({ path }) => {
      const name = path.split("/").pop();
      if (!NOTES.has(name)) throw new Error(`no note named ${name}`);
      return NOTES.get(name);
    },
  },
];

const config = await (await fetch("/config.json")).json();
const router = createRouter(config.targets);
for (const t of router.targets) picker.append(new Option(t.name, t.name));
const store = indexedDbStore({ name: "turnwire-chat" });
const saved = await loadSession(store, SESSION);
const conversation = saved?.conversation ?? new Conversation();
const usage = saved?.usage ?? {};
// the saved provider, when it is still configured
if (saved?.target && router.targets.some((t) => t.name === saved.target)) router.switchTo(saved.target);
picker.value = router.current.name;
for (let i = 0; i < conversation.length; i++) show(conversation.at(i));

picker.addEventListener("change", () => {
  router.switchTo(picker.value);
  statusEl.textContent = router.pending ? `next turn: ${router.pending.name}` : `on ${router.current.name}`;
});

let running;
$("stop").addEventListener("click", () => running?.abort(new Error("stopped by the user")));
$("composer").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text || running) return;
  input.value = "";
  const message = { speaker: "human", blocks: [{ type: "text", text }] };
  conversation.append(message);
  show(message);
  running = new AbortController();
  $("send").disabled = true;
  $("stop").disabled = false;
  let bubble;
  try {
    const result = await runAgent({
      conversation,
      router,
      tools,
      signal: running.signal,
      onEvent: (e) => {
        if (e.type === "attempt") {
          bubble = bubbleFor("ai", e.target.name);
          statusEl.textContent = `${e.target.name} is answering…`;
        }
        if (e.type === "delta" && e.delta.type === "text") bubble.body.append(e.delta.text);
        if (e.type === "delta" && e.delta.type === "toolCallComplete") line(bubble.body, "call", `${e.delta.name}(${JSON.stringify(e.delta.arguments)})`);
        if (e.type === "tool-result") {
          const r = e.response;
          line(bubble.body, r.error ? "result error" : "result", `${r.toolName} → ${r.error ?? r.result}`);
        }
        if (e.type === "turn" && e.result.diagnostics.length > 0) {
          const codes = [...new Set(e.result.diagnostics.map((d) => d.code))];
          line(bubble.body, "repairs", `turnwire repaired the history for ${e.result.target.provider}: ${codes.join(", ")}`);
        }
      },
    });
    statusEl.textContent = result.stopped === "error" ? `error: ${result.error.message}` : `on ${router.current.name} · ${result.usage.outputTokens ?? 0} tokens out`;
    picker.value = router.current.name;
    mergeUsage(usage, result.usageByModel);
    await saveSession(store, SESSION, { conversation, usage, target: router.current.name });
  } finally {
    running = undefined;
    $("send").disabled = false;
    $("stop").disabled = true;
    document.body.dataset.turns = String(Number(document.body.dataset.turns ?? 0) + 1);
  }
});

$("send").disabled = false;
statusEl.textContent = `on ${router.current.name}`;
document.body.dataset.ready = "true";

/** A message of the history, as the page shows it. */
function show(m) {
  if (m.speaker === "human" || m.speaker === "ai") {
    const b = bubbleFor(m.speaker, m.metadata?.provider ?? "you");
    for (const block of m.blocks) {
      if (block.type === "text") b.body.append(block.text);
      if (block.type === "tool_call") line(b.body, "call", `${block.name}(${JSON.stringify(block.parameters)})`);
    }
  }
}

function bubbleFor(speaker, who) {
  const el = document.createElement("div");
  el.className = `message ${speaker}`;
  const name = document.createElement("span");
  name.className = "who";
  name.textContent = speaker === "human" ? "you" : who;
  const body = document.createElement("span");
  el.append(name, body);
  messagesEl.append(el);
  messagesEl.scrollTop = messagesEl.scrollHeight;
  return { el, body };
}

function line(parent, kind, text) {
  const el = document.createElement("span");
  el.className = kind;
  el.textContent = text;
  parent.append(el);
}
