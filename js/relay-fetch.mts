// The cross-API half of repairingFetch: the repaired request goes to the target provider, and
// its answer (streamed or whole, or an error) is written back in the client's format by Rust
// (StreamRelay, relayWhole, relayErrorBody); this file only moves bytes.
import { parseBody, readErrorBody } from "./classify.mjs";
import { getCore } from "./core.mjs";
import { WIRE_HTTP, wireOf, withModel, type Wire } from "./provider-http.mjs";
import { providerRequest } from "./providers.mjs";
import { safeFetch } from "./safe-fetch.mjs";
import { redactDeep, redactText, redactUrl, secretsOf } from "./secrets.mjs";
import { SseParser } from "./sse.mjs";
import type { JsonObject, Provider, StreamOutcome } from "./turnwire.js";

/** What `relayTurn` needs: the client's side and the target's. */
export interface RelayTurn {
  /** The client's provider (its wire format is what the answer is written in). */
  client: Provider;
  /** The model the client asked for (the answer names it). */
  clientModel: string;
  /** Whether the client asked for a stream. */
  streaming: boolean;
  /** The target: provider, model, where and how to reach it. */
  target: { provider: Provider; model: string; baseURL?: string | undefined; apiKey?: string | undefined; headers?: Record<string, string> | undefined };
  /** The request body, rendered for the target. */
  body: Uint8Array;
  signal: unknown;
  /** Called with the decoded answer once it is complete (its continuity tokens included). */
  onAnswer?: ((outcome: StreamOutcome) => void) | undefined;
}

/** The web classes the answer is built with (typed structurally: no DOM types in the declarations). */
interface Web {
  Response: new (body: unknown, init: { status: number; headers: Record<string, string> }) => unknown;
  ReadableStream: new (source: { pull(c: StreamController): Promise<void>; cancel(): Promise<void> }) => unknown;
}
interface StreamController {
  enqueue(chunk: Uint8Array): void;
  close(): void;
  error(e: unknown): void;
}
interface Answer {
  ok: boolean;
  status: number;
  headers: { get(name: string): string | null };
  body: { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(reason?: unknown): Promise<void> } } | null;
  text(): Promise<string>;
}

/** The id prefix of each wire API's answers. */
const ANSWER_ID_PREFIX: Readonly<Record<Wire, string>> = {
  messages: "msg",
  responses: "resp",
  "generate-content": "tw",
  "chat-completions": "chatcmpl",
  // not relay clients (repairingFetch routes no request to them); their answers carry no id
  converse: "tw",
  "ollama-chat": "tw",
};

/** A fresh id of an answer in the client's format. */
function answerId(client: Provider): string {
  const prefix = ANSWER_ID_PREFIX[wireOf(client)];
  const random = typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID().replace(/-/g, "") : `${Date.now()}${Math.random().toString(36).slice(2)}`;
  return `${prefix}_${random}`;
}

/** Sends the request to the target and answers as the client's own provider would. */
export async function relayTurn(send: (url: string, init: Record<string, unknown>) => Promise<unknown>, turn: RelayTurn): Promise<unknown> {
  const core = getCore();
  const web = globalThis as unknown as Web;
  const { target } = turn;
  const framing = WIRE_HTTP[wireOf(target.provider)].framing;
  if (framing !== undefined) {
    throw new TypeError(`repairingFetch cannot relay to ${target.provider} yet (its ${framing} answers are not relayed): use streamTurn, or a target on another wire`);
  }
  const request = providerRequest({ provider: target.provider, model: target.model, apiKey: target.apiKey, baseURL: target.baseURL, headers: target.headers });
  // a whole answer: the wire's other path where the URL says it (Gemini's :generateContent)
  const url = turn.streaming ? request.url : request.baseURL + withModel(WIRE_HTTP[wireOf(target.provider)].wholePath, target.model);
  const headers = { ...request.headers, accept: turn.streaming ? "text/event-stream" : "application/json" };
  const init: Record<string, unknown> = { method: "POST", headers, body: turn.body };
  if (turn.signal !== undefined) init["signal"] = turn.signal;
  const secrets = secretsOf({ apiKey: target.apiKey, headers, baseURL: target.baseURL });
  // the redirect policy: never to another origin (safe-fetch.mts)
  const answer = (await safeFetch(send, url, init, { url: redactUrl(url), provider: target.provider, model: target.model }, secrets)) as Answer;
  const json = { "content-type": "application/json" };
  /** onAnswer, with the secrets out of the stream's problems (a provider may echo a key). */
  const answered = (outcome: StreamOutcome): void => {
    if (turn.onAnswer === undefined) return;
    turn.onAnswer({ ...outcome, errors: redactDeep(outcome.errors, secrets) });
  };

  if (!answer.ok) {
    const text = await answer.text();
    const { type, message } = readErrorBody(target.provider, parseBody(text));
    const body = core.relayErrorBody(turn.client, type ?? `http_${answer.status}`, redactText(message ?? text.slice(0, 300), secrets));
    const retryAfter = answer.headers.get("retry-after");
    return new web.Response(JSON.stringify(body), { status: answer.status, headers: retryAfter === null ? json : { ...json, "retry-after": retryAfter } });
  }
  const options = { model: turn.clientModel, id: answerId(turn.client), created: Math.floor(Date.now() / 1000) };
  if (!turn.streaming || answer.body === null) {
    const text = await answer.text();
    const parsed = parseBody(text);
    if (typeof parsed !== "object" || parsed === null) {
      const message = redactText(`the ${target.provider} answer was not JSON: ${text.slice(0, 300)}`, secrets);
      return new web.Response(JSON.stringify(core.relayErrorBody(turn.client, "unexpected_response", message)), { status: 502, headers: json });
    }
    const { body, outcome } = core.relayWhole(target.provider, turn.client, parsed as JsonObject, options);
    answered(outcome);
    return new web.Response(JSON.stringify(body), { status: 200, headers: json });
  }

  const relay = new core.StreamRelay(target.provider, turn.client, options);
  const reader = answer.body.getReader();
  const encoder = new TextEncoder();
  let out = "";
  const parser = new SseParser((e) => {
    out += relay.push(e.data);
  });
  let done = false;
  const finish = (): string => {
    done = true;
    parser.end();
    const rest = relay.finish();
    answered(relay.outcome());
    relay.free();
    return rest;
  };
  const stream = new web.ReadableStream({
    async pull(controller) {
      try {
        while (out === "" && !done) {
          const read = await reader.read();
          if (read.done || read.value === undefined) {
            out += finish();
            break;
          }
          parser.feed(read.value);
          if (relay.closed) {
            out += finish();
            await reader.cancel().catch(() => undefined);
          }
        }
        if (out !== "") controller.enqueue(encoder.encode(out));
        out = "";
        if (done) controller.close();
      } catch (e) {
        if (!done) finish();
        controller.error(e);
      }
    },
    async cancel() {
      if (!done) finish();
      await reader.cancel().catch(() => undefined);
    },
  });
  return new web.Response(stream, { status: 200, headers: { "content-type": "text/event-stream" } });
}
