// An edge function on turnwire (Cloudflare Workers, Deno Deploy, any host with a `fetch`
// handler): each request resumes a stored session, runs one turn of the agent loop on it, saves
// it and answers with the reply. The session lives in a key-value store (a Workers KV namespace
// bound as SESSIONS; any `{get, put}` elsewhere).
//
//   POST /  {"session": "s1", "message": "hello"}  →  {"reply": "…", "messages": 2, "usage": {…}}
//
// Configuration (Workers vars / secrets, or the `env` a host passes): PROVIDER, MODEL, API_KEY,
// and BASE_URL for a proxy or a mock. A KV store has no transactions: two requests on one session
// at once would each save their own turn and the last one wins, so a client sends one at a time
// (a Durable Object per session serialises them where that is not enough).
import { Conversation, createRouter, kvStore, loadSession, mergeUsage, runAgent, saveSession } from "turnwire";

/** The session store over the host's key-value namespace. */
const storeOf = (kv) => kvStore({ get: (k) => kv.get(k), put: (k, v) => kv.put(k, v), delete: (k) => kv.delete(k) });

export default {
  async fetch(request, env) {
    if (request.method !== "POST") return new Response("POST {session, message}", { status: 405 });
    let input;
    try {
      input = await request.json();
    } catch {
      return Response.json({ error: "the body must be JSON: {session, message}" }, { status: 400 });
    }
    if (typeof input?.session !== "string" || typeof input?.message !== "string") {
      return Response.json({ error: "expected {session: string, message: string}" }, { status: 400 });
    }
    const store = storeOf(env.SESSIONS);
    const session = (await loadSession(store, input.session)) ?? { conversation: new Conversation(), usage: {} };
    const { conversation } = session;
    try {
      conversation.append({ speaker: "human", blocks: [{ type: "text", text: input.message }] });
      const router = createRouter([{ provider: env.PROVIDER, model: env.MODEL, apiKey: env.API_KEY, baseURL: env.BASE_URL }], { maxAttempts: 2 });
      // One turn: an edge function answers within its time budget; tools run elsewhere.
      const result = await runAgent({ conversation, router, maxTurns: 1, render: { maxTokens: 1024 } });
      if (result.stopped === "error") return Response.json({ error: result.error.message }, { status: 502 });
      mergeUsage(session.usage, result.usageByModel);
      await saveSession(store, input.session, { conversation, usage: session.usage, target: router.current.name });
      const reply = result.turns.at(-1)?.message.blocks.filter((b) => b.type === "text").map((b) => b.text).join("") ?? "";
      return Response.json({ reply, messages: conversation.length, usage: session.usage });
    } finally {
      conversation.free();
    }
  },
};
