// A browser (DOM lib) consumer of streamTurn: the host's own `fetch`, `AbortController`,
// `Response` and `ReadableStream` fit the options and the fetch type without casts.
import { Conversation, repairingFetch, streamTurn, type TurnFetch, type TurnResult } from "turnwire";

export async function chat(conversation: Conversation): Promise<TurnResult> {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 30_000);
  const turn = streamTurn({
    provider: "openai-chat",
    model: "gpt-5.2",
    apiKey: "k",
    conversation,
    fetch: globalThis.fetch,
    signal: controller.signal,
  });
  for await (const d of turn) if (d.type === "text") document.title = d.text;
  return turn;
}

const events = new ReadableStream<Uint8Array>({
  start(c) {
    c.enqueue(new TextEncoder().encode('data: {"choices":[]}\n\ndata: [DONE]\n\n'));
    c.close();
  },
});
export const replay: TurnFetch = async () => new Response(events, { headers: { "content-type": "text/event-stream" } });
export const proxied: TurnFetch = (url, init) => fetch(url.replace("https://api.openai.com", "https://proxy.example"), init);
export const withTimeout = (conversation: Conversation) =>
  streamTurn({ provider: "gemini", model: "gemini-3-pro-preview", transcript: conversation.toJSON(), fetch: replay, signal: AbortSignal.timeout(5_000) });

// repairingFetch() has the host's own fetch type: an SDK's `fetch` option takes it as it is.
export const repairing: typeof fetch = repairingFetch();
export const wrapped: typeof fetch = repairingFetch({ fetch: (input, init) => fetch(input, init), target: { provider: "openai-chat" } });
