// Resume fidelity across runtimes (issue 13, point 6): a session saved in one process or page
// and loaded in a fresh one renders the next request byte for byte as the original would have.
// The history is fixed here (tool calls, signed thinking of two providers, a cut emoji); each
// runtime saves it through its store, a fresh process or page loads it, and run.mjs compares
// the digest of the next request for every provider with Node's.
import { MODELS } from "./models.mjs";

export const SESSION_ID = "resume-fidelity";
export const SESSION_TARGET = "gemini:gemini-3-pro-preview";
/** Every provider, with the model the JS tests use for it. */
export const SESSION_PROVIDERS = MODELS;

const claude = { provider: "anthropic", model: "claude-sonnet-4-5" };
const gemini = { provider: "gemini", model: "gemini-3-pro-preview" };

/** The session's messages, as an agent stored them. */
export function sessionHistory() {
  return [
    { speaker: "human", blocks: [{ type: "text", text: "Read a.rs and b.rs" }] },
    {
      speaker: "ai",
      metadata: claude,
      blocks: [
        { type: "thinking", thought: "Two files, in parallel.", signature: "EqQBCkYIBxgCKkA" },
        { type: "tool_call", id: "toolu_01A", name: "read_file", parameters: { path: "a.rs" } },
        { type: "tool_call", id: "toolu_01B", name: "read_file", parameters: { path: "b.rs" } },
      ],
    },
    { speaker: "tool", blocks: [{ type: "tool_response", callId: "toolu_01A", toolName: "read_file", result: "fn a() {}" }] },
    { speaker: "tool", blocks: [{ type: "tool_response", callId: "toolu_01B", toolName: "read_file", error: "The tool call was cancelled before it finished.", cancelled: true }] },
    { speaker: "ai", metadata: claude, blocks: [{ type: "text", text: "a.rs has one function; reading b.rs was cancelled." }] },
    { speaker: "human", blocks: [{ type: "text", text: "Try b.rs again" }] },
    {
      speaker: "ai",
      metadata: gemini,
      blocks: [{ type: "tool_call", id: "call_g1", name: "read_file", parameters: { path: "b.rs" }, thoughtSignature: "CiQBcsjafQ" }],
    },
    { speaker: "tool", blocks: [{ type: "tool_response", callId: "call_g1", toolName: "read_file", result: { text: "fn b() {}", lines: 1 } }] },
    { speaker: "ai", metadata: gemini, blocks: [{ type: "text", text: "b.rs has one function too." }] },
    { speaker: "human", blocks: [{ type: "text", text: "Thanks \ud83d" }] },
  ];
}

/** The usage totals saved with it. */
export function sessionUsage(api) {
  const usage = {};
  api.addUsage(usage, "anthropic", "claude-sonnet-4-5", { inputTokens: 1200, outputTokens: 80 });
  api.addUsage(usage, "gemini", "gemini-3-pro-preview", { inputTokens: 1500, outputTokens: 40 });
  return usage;
}

/** SHA-256 over the next request's body for every provider, in a fixed order. */
export async function nextRequestsDigest(api, conversation) {
  const bodies = Object.entries(SESSION_PROVIDERS).map(([provider, model]) => conversation.renderRequest({ provider, model }).body);
  const bytes = new TextEncoder().encode(bodies.join("\n"));
  const hash = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
