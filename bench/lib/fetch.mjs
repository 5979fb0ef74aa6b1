// A capturing `fetch`: records the request body and answers with a canned minimal response in
// the provider's format (JSON, or SSE when the request asked to stream). No network is ever
// touched: install() also replaces globalThis.fetch, so a library that falls back to the
// global fetch lands here too.

export const captured = { url: "", body: "", calls: 0 };

const ANTHROPIC_JSON = JSON.stringify({
  id: "msg_bench",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-5",
  content: [{ type: "text", text: "ok" }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});

const ANTHROPIC_SSE = [
  ["message_start", { type: "message_start", message: { id: "msg_bench", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 0 } } }],
  ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
  ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "ok" } }],
  ["content_block_stop", { type: "content_block_stop", index: 0 }],
  ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 1 } }],
  ["message_stop", { type: "message_stop" }],
]
  .map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  .join("");

const OPENAI_JSON = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 1760000000,
  model: "gpt-5.2",
  choices: [{ index: 0, message: { role: "assistant", content: "ok", refusal: null }, finish_reason: "stop", logprobs: null }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

const OPENAI_SSE =
  [
    { id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1760000000, model: "gpt-5.2", choices: [{ index: 0, delta: { role: "assistant", content: "ok" }, finish_reason: null }] },
    { id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1760000000, model: "gpt-5.2", choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
  ]
    .map((c) => `data: ${JSON.stringify(c)}\n\n`)
    .join("") + "data: [DONE]\n\n";

const GEMINI_CHUNK = {
  candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP", index: 0 }],
  usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  modelVersion: "gemini-2.5-pro",
};
const GEMINI_JSON = JSON.stringify(GEMINI_CHUNK);
const GEMINI_SSE = `data: ${GEMINI_JSON}\r\n\r\n`;

function answer(url, body) {
  const streaming = url.includes(":streamGenerateContent") || /"stream"\s*:\s*true/.test(body.slice(0, 256)) || /"stream"\s*:\s*true/.test(body.slice(-16384));
  let text;
  if (url.includes(":generateContent") || url.includes(":streamGenerateContent")) text = streaming ? GEMINI_SSE : GEMINI_JSON;
  else if (url.includes("/messages")) text = streaming ? ANTHROPIC_SSE : ANTHROPIC_JSON;
  else if (url.includes("/chat/completions")) text = streaming ? OPENAI_SSE : OPENAI_JSON;
  else throw new Error(`capturing fetch: unexpected URL ${url}`);
  return new Response(text, {
    status: 200,
    headers: { "content-type": streaming ? "text/event-stream" : "application/json", "request-id": "req_bench", "x-request-id": "req_bench" },
  });
}

function bodyText(body) {
  if (body == null) return "";
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return new TextDecoder().decode(body);
  throw new Error(`capturing fetch: unexpected body type ${Object.prototype.toString.call(body)}`);
}

export async function capturingFetch(input, init = {}) {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  let body = init.body;
  if (body === undefined && input instanceof Request) body = await input.text();
  const text = bodyText(body);
  captured.url = url;
  captured.body = text;
  captured.calls++;
  return answer(url, text);
}

export function install() {
  globalThis.fetch = capturingFetch;
}
