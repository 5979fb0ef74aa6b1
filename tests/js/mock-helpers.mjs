// Helpers of mock.test.mjs, mock-sdk.test.mjs and the Bedrock auth tests: the request each
// provider's client sends, an SSE reader, a tiny reference decoder that turns any provider's
// stream (or JSON answer) back into { text, thinking, calls, finish, usage } so the tests can
// compare what came back with what was scripted, and a Node request as the mock's Bedrock
// credential check reads it.

import { MODELS } from "./models.mjs";

/** The model the tests render each provider with (the same as the JS suite and Rust goldens). */
export { MODELS };

/** The auth headers each provider's client sends. */
export function authHeaders(provider, key = "test-key") {
  switch (provider) {
    case "anthropic":
      return { "x-api-key": key, "anthropic-version": "2023-06-01" };
    case "gemini":
      return { "x-goog-api-key": key };
    default:
      return { authorization: `Bearer ${key}` };
  }
}

/** The URL a client posts to, from the provider's baseURL. */
export function endpointURL(provider, baseURL, { model = MODELS[provider], stream = false, sse = true } = {}) {
  switch (provider) {
    case "anthropic":
      return `${baseURL}/v1/messages`;
    case "gemini":
      return `${baseURL}/v1beta/models/${model}:${stream ? `streamGenerateContent${sse ? "?alt=sse" : ""}` : "generateContent"}`;
    case "openai-responses":
      return `${baseURL}/responses`;
    case "bedrock-converse":
      return `${baseURL}/model/${encodeURIComponent(model)}/${stream ? "converse-stream" : "converse"}`;
    case "ollama":
      return `${baseURL}/api/chat`;
    default:
      return `${baseURL}/chat/completions`;
  }
}

/**
 * AWS event-stream bytes → [{ event, data, exception }]: each message's `:event-type` (or
 * `:exception-type`) and its JSON payload. Only string headers are read (all Bedrock sends); the
 * CRCs are not checked here (the decoder and @smithy/eventstream-codec tests do).
 */
export function parseEventStream(bytes) {
  const out = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = new TextDecoder();
  let at = 0;
  while (at + 16 <= bytes.length) {
    const total = view.getUint32(at);
    const headersLength = view.getUint32(at + 4);
    const headers = {};
    let h = at + 12;
    const end = h + headersLength;
    while (h < end) {
      const nameLength = bytes[h];
      const name = text.decode(bytes.subarray(h + 1, h + 1 + nameLength));
      h += 1 + nameLength;
      const type = bytes[h];
      if (type !== 7) throw new Error(`header ${name}: type ${type} not read here`);
      const length = view.getUint16(h + 1);
      headers[name] = text.decode(bytes.subarray(h + 3, h + 3 + length));
      h += 3 + length;
    }
    const payload = text.decode(bytes.subarray(end, at + total - 4));
    const exception = headers[":message-type"] === "exception";
    out.push({ event: exception ? headers[":exception-type"] : headers[":event-type"], data: JSON.parse(payload), exception });
    at += total;
  }
  return out;
}

/** NDJSON text → [{ data }], one parsed object a line. */
export const parseNdjson = (text) =>
  text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => ({ data: JSON.parse(l) }));

/** A streamed answer's events, by its content type: SSE, NDJSON (Ollama) or AWS event-stream (Bedrock). */
export async function streamEvents(res) {
  const type = res.headers.get("content-type") ?? "";
  if (type.startsWith("application/vnd.amazon.eventstream")) return parseEventStream(new Uint8Array(await res.arrayBuffer()));
  if (type.startsWith("application/x-ndjson")) return parseNdjson(await res.text());
  return parseSSE(await res.text());
}

/** POSTs `body` the way the provider's client would; `headers: null` sends no auth at all. */
export async function post(mock, provider, body, { headers, model, stream, sse, path } = {}) {
  const url = path ? `${mock.endpoint(provider).origin}${path}` : endpointURL(provider, mock.baseURL(provider), { model, stream, sse });
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(headers === null ? {} : (headers ?? authHeaders(provider))) },
    body: typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body),
  });
}

/** SSE text → [{ event, data }] (comments dropped); `data` is parsed JSON, or the raw text ("[DONE]"). */
export function parseSSE(text) {
  const events = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (block.trim() === "") continue;
    let event;
    const data = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(":")) continue;
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length === 0) continue;
    const raw = data.join("\n");
    let parsed = raw;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // "[DONE]"
    }
    events.push({ event, data: parsed });
  }
  return events;
}

/**
 * Any provider's stream events (or, with `json`, its non-streaming answer) → what the model
 * said: { text, thinking, calls: [{ id, name, arguments, signature }], finish, usage }.
 */
export function decode(provider, events) {
  const out = { text: "", thinking: "", calls: [], finish: null, usage: null, signatures: [] };
  const byIndex = new Map();
  const call = (key, init) => {
    if (!byIndex.has(key)) {
      const c = { id: null, name: null, arguments: "", signature: null, ...init };
      byIndex.set(key, c);
      out.calls.push(c);
    }
    return byIndex.get(key);
  };
  for (const { event, data, exception } of events) {
    if (data === "[DONE]") {
      out.done = true;
      continue;
    }
    switch (provider) {
      case "bedrock-converse": {
        if (exception) {
          out.error = { type: event, message: data.message };
          break;
        }
        if (event === "contentBlockStart" && data.start?.toolUse) call(data.contentBlockIndex, { id: data.start.toolUse.toolUseId, name: data.start.toolUse.name });
        if (event === "contentBlockDelta") {
          const d = data.delta;
          if (typeof d.text === "string") out.text += d.text;
          if (typeof d.reasoningContent?.text === "string") out.thinking += d.reasoningContent.text;
          if (d.reasoningContent?.signature) out.signatures.push(d.reasoningContent.signature);
          if (d.reasoningContent?.redactedContent) out.redacted = d.reasoningContent.redactedContent;
          if (d.toolUse) call(data.contentBlockIndex).arguments += d.toolUse.input;
        }
        if (event === "messageStop") out.finish = data.stopReason;
        if (event === "metadata") {
          out.usage = data.usage;
          out.done = true;
        }
        break;
      }
      case "ollama": {
        if (typeof data.error === "string") {
          out.error = { message: data.error };
          break;
        }
        const m = data.message ?? {};
        if (typeof m.content === "string") out.text += m.content;
        if (typeof m.thinking === "string") out.thinking += m.thinking;
        for (const tc of m.tool_calls ?? []) out.calls.push({ id: tc.id ?? null, name: tc.function.name, arguments: JSON.stringify(tc.function.arguments) });
        if (data.done === true) {
          out.finish = data.done_reason;
          out.usage = { prompt_eval_count: data.prompt_eval_count, eval_count: data.eval_count };
          out.done = true;
        }
        break;
      }
      case "anthropic": {
        if (data.type === "content_block_start" && data.content_block.type === "tool_use")
          call(data.index, { id: data.content_block.id, name: data.content_block.name });
        if (data.type === "content_block_start" && data.content_block.type === "redacted_thinking") out.redacted = data.content_block.data;
        if (data.type === "content_block_delta") {
          const d = data.delta;
          if (d.type === "text_delta") out.text += d.text;
          if (d.type === "thinking_delta") out.thinking += d.thinking;
          if (d.type === "signature_delta") out.signatures.push(d.signature);
          if (d.type === "input_json_delta") call(data.index).arguments += d.partial_json;
        }
        if (data.type === "message_delta") {
          out.finish = data.delta.stop_reason;
          out.usage = data.usage;
        }
        if (data.type === "message_stop") out.done = true;
        if (event === "error") out.error = data.error;
        break;
      }
      case "openai-responses": {
        if (data.type === "response.output_text.delta") out.text += data.delta;
        if (data.type === "response.reasoning_summary_text.delta") out.thinking += data.delta;
        if (data.type === "response.output_item.done" && data.item.type === "function_call")
          call(data.item.id, { id: data.item.call_id, name: data.item.name, arguments: data.item.arguments, itemId: data.item.id });
        if (data.type === "response.output_item.done" && data.item.type === "reasoning" && data.item.encrypted_content)
          out.signatures.push(data.item.encrypted_content);
        if (data.type === "response.completed" || data.type === "response.incomplete") {
          out.finish = data.response.status;
          out.usage = data.response.usage;
          out.done = true;
        }
        if (data.type === "response.failed") out.error = data.response.error;
        break;
      }
      case "gemini": {
        if (data.error) {
          out.error = data.error;
          break;
        }
        const cand = data.candidates?.[0];
        for (const part of cand?.content?.parts ?? []) {
          if (part.functionCall)
            out.calls.push({ id: part.functionCall.id ?? null, name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args), signature: part.thoughtSignature ?? null });
          else if (part.thought) out.thinking += part.text;
          else if (typeof part.text === "string") {
            out.text += part.text;
            if (part.thoughtSignature) out.signatures.push(part.thoughtSignature);
          }
        }
        if (cand?.finishReason) {
          out.finish = cand.finishReason;
          out.usage = data.usageMetadata;
          out.done = true;
        }
        break;
      }
      default: {
        if (data.error || data.object === "error") {
          out.error = data.error ?? data;
          break;
        }
        if (data.usage) out.usage = data.usage;
        const choice = data.choices?.[0];
        if (!choice) break;
        if (choice.usage) out.usage = choice.usage;
        const d = choice.delta ?? {};
        if (typeof d.content === "string") out.text += d.content;
        if (Array.isArray(d.content))
          for (const c of d.content) {
            if (c.type === "thinking") out.thinking += c.thinking.map((t) => t.text).join("");
            if (c.type === "text") out.text += c.text;
          }
        if (typeof d.reasoning_content === "string") out.thinking += d.reasoning_content;
        for (const tc of d.tool_calls ?? []) {
          const c = call(tc.index, { id: tc.id, name: tc.function?.name });
          if (tc.id) c.id = tc.id;
          if (tc.function?.name) c.name = tc.function.name;
          c.arguments += tc.function?.arguments ?? "";
        }
        if (choice.finish_reason) out.finish = choice.finish_reason;
      }
    }
  }
  return out;
}

/** A non-streaming answer → the same summary as `decode`. */
export function decodeJSON(provider, body) {
  const out = { text: "", thinking: "", calls: [], finish: null, usage: null, signatures: [] };
  switch (provider) {
    case "bedrock-converse":
      for (const b of body.output.message.content) {
        if (typeof b.text === "string") out.text += b.text;
        if (b.reasoningContent?.reasoningText) {
          out.thinking += b.reasoningContent.reasoningText.text;
          out.signatures.push(b.reasoningContent.reasoningText.signature);
        }
        if (b.toolUse) out.calls.push({ id: b.toolUse.toolUseId, name: b.toolUse.name, arguments: JSON.stringify(b.toolUse.input) });
      }
      out.finish = body.stopReason;
      out.usage = body.usage;
      break;
    case "ollama":
      out.text = body.message.content;
      out.thinking = body.message.thinking ?? "";
      for (const tc of body.message.tool_calls ?? []) out.calls.push({ id: tc.id ?? null, name: tc.function.name, arguments: JSON.stringify(tc.function.arguments) });
      out.finish = body.done_reason;
      out.usage = { prompt_eval_count: body.prompt_eval_count, eval_count: body.eval_count };
      break;
    case "anthropic":
      for (const b of body.content) {
        if (b.type === "text") out.text += b.text;
        if (b.type === "thinking") {
          out.thinking += b.thinking;
          out.signatures.push(b.signature);
        }
        if (b.type === "tool_use") out.calls.push({ id: b.id, name: b.name, arguments: JSON.stringify(b.input) });
      }
      out.finish = body.stop_reason;
      out.usage = body.usage;
      break;
    case "openai-responses":
      for (const item of body.output) {
        if (item.type === "message") out.text += item.content.map((c) => c.text).join("");
        if (item.type === "reasoning") out.thinking += item.summary.map((s) => s.text).join("");
        if (item.type === "function_call") out.calls.push({ id: item.call_id, name: item.name, arguments: item.arguments, itemId: item.id });
      }
      out.finish = body.status;
      out.usage = body.usage;
      break;
    case "gemini": {
      const cand = body.candidates[0];
      for (const part of cand.content.parts) {
        if (part.functionCall)
          out.calls.push({ id: part.functionCall.id ?? null, name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args), signature: part.thoughtSignature ?? null });
        else if (part.thought) out.thinking += part.text;
        else out.text += part.text;
      }
      out.finish = cand.finishReason;
      out.usage = body.usageMetadata;
      break;
    }
    default: {
      const m = body.choices[0].message;
      if (typeof m.content === "string") out.text = m.content;
      else if (Array.isArray(m.content))
        for (const c of m.content) {
          if (c.type === "text") out.text += c.text;
          if (c.type === "thinking") out.thinking += c.thinking.map((t) => t.text).join("");
        }
      if (m.reasoning_content) out.thinking += m.reasoning_content;
      for (const tc of m.tool_calls ?? []) out.calls.push({ id: tc.id, name: tc.function.name, arguments: tc.function.arguments });
      out.finish = body.choices[0].finish_reason;
      out.usage = body.usage;
    }
  }
  return out;
}

/** Non-reasoning models for each provider: a foreign history renders for them without thinking rules. */
export const PLAIN_MODELS = {
  anthropic: "claude-sonnet-4-5",
  "openai-chat": "gpt-5.2",
  "openai-responses": "gpt-5.2",
  gemini: "gemini-2.5-pro",
  mistral: "mistral-medium-latest",
  kimi: "kimi-k2-0905-preview",
  deepseek: "deepseek-chat",
  "openai-compatible": "local-model",
  "bedrock-converse": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
  ollama: "llama3.2",
};

/**
 * Reads a body another library built for `provider` with turnwire's `fromRequestBody`, renders
 * it for every provider, and checks that every strict validator passes and that each of
 * `kept` (texts, tool names, results) is in every rendered body. `api` is the package's exports.
 */
export function assertRendersEverywhere(api, provider, body, { model, kept, where = provider }) {
  const { transcript, options, diagnostics } = api.fromRequestBody(provider, body, { model });
  const opaque = diagnostics.filter((d) => d.code === "import_opaque");
  if (opaque.length > 0) throw new Error(`${where}: parts read as opaque: ${JSON.stringify(opaque)}`);
  for (const [target, targetModel] of Object.entries(PLAIN_MODELS)) {
    const out = JSON.parse(new TextDecoder().decode(api.renderBody(transcript, { provider: target, model: targetModel, tools: options?.tools })));
    const violations = api.validateRequest(target, out, targetModel);
    if (violations.length > 0) throw new Error(`${where} → ${target}: ${JSON.stringify(violations)}`);
    const text = JSON.stringify(out);
    for (const k of kept) if (!text.includes(k)) throw new Error(`${where} → ${target}: ${k} lost`);
  }
}

/**
 * A Node request as the mock's Bedrock credential check takes it (`checkBedrockAuth`): the path
 * as sent, the raw headers as pairs (repeated ones kept apart), the body's bytes.
 */
export async function bedrockAuthRequest(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const headers = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
  return { method: req.method, target: req.url, headers, body: new Uint8Array(Buffer.concat(chunks)) };
}
