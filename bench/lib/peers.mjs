// Each peer's own history → request-body path, driven through its public API with the
// capturing fetch (lib/fetch.mjs): conversion, validation, serialisation and the (canned,
// minimal) response handling a real call does, and no network.
//
// A driver is { peer, target, prepare(events) → history in the peer's format (untimed: the
// application holds it already), run(history) → Promise (timed) }.

import { captured, capturingFetch } from "./fetch.mjs";
import { MODELS, SYSTEM_PROMPT, TOOLS, toAiSdk, toLangChain, toPiAi } from "./session.mjs";

const MAX_TOKENS = 16000;
const BUDGET = 8000;
const KEY = "sk-bench-not-a-real-key";

export async function loadPeers() {
  const pi = await import("@mariozechner/pi-ai");
  const ai = await import("ai");
  const { createAnthropic } = await import("@ai-sdk/anthropic");
  const { createOpenAI } = await import("@ai-sdk/openai");
  const { createGoogleGenerativeAI } = await import("@ai-sdk/google");
  const lcMessages = await import("@langchain/core/messages");
  const { ChatAnthropic } = await import("@langchain/anthropic");
  const { ChatOpenAI } = await import("@langchain/openai");

  const drivers = [];

  // --- pi-ai: complete(model, context, options) ----------------------------------------
  {
    const tools = TOOLS.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
    const ctx = (events) => ({ systemPrompt: SYSTEM_PROMPT, messages: toPiAi(events), tools });
    const check = (m) => {
      if (m.stopReason === "error" || m.stopReason === "aborted") throw new Error(`pi-ai: ${m.errorMessage}`);
    };
    const anthropicModel = pi.getModel("anthropic", MODELS.anthropic);
    drivers.push({
      peer: "pi-ai",
      target: "anthropic",
      how: "`complete(getModel('anthropic', …), context, { thinkingEnabled, thinkingBudgetTokens, maxTokens })` — pi-ai always streams: its @anthropic-ai/sdk client posts with \`stream: true\` through the global fetch (the capturing one), and the canned SSE reply is parsed",
      prepare: ctx,
      run: async (c) =>
        check(await pi.complete(anthropicModel, c, { apiKey: KEY, maxTokens: MAX_TOKENS, thinkingEnabled: true, thinkingBudgetTokens: BUDGET, maxRetries: 0 })),
    });
    // pi-ai's OpenAI models use the Responses API; its Chat Completions provider takes the same
    // model with api "openai-completions" (what it uses for OpenAI-compatible servers).
    const openaiModel = { ...pi.getModel("openai", MODELS.openai), api: "openai-completions" };
    drivers.push({
      peer: "pi-ai",
      target: "openai-chat",
      how: "`complete({ ...getModel('openai', 'gpt-5.2'), api: 'openai-completions' }, context, { maxTokens })` — its Chat Completions provider (pi-ai's own OpenAI models default to Responses); openai SDK client, streaming, global fetch",
      prepare: ctx,
      run: async (c) => check(await pi.complete(openaiModel, c, { apiKey: KEY, maxTokens: MAX_TOKENS, maxRetries: 0 })),
    });
    const geminiModel = pi.getModel("google", MODELS.gemini);
    drivers.push({
      peer: "pi-ai",
      target: "gemini",
      how: "`complete(getModel('google', 'gemini-2.5-pro'), context, { maxTokens })` — @google/genai client, streaming (\`streamGenerateContent?alt=sse\`), global fetch",
      prepare: ctx,
      run: async (c) => check(await pi.complete(geminiModel, c, { apiKey: KEY, maxTokens: MAX_TOKENS, maxRetries: 0 })),
    });
  }

  // --- AI SDK: generateText({ model, system, messages, tools }) -------------------------
  {
    const tools = Object.fromEntries(TOOLS.map((t) => [t.name, ai.tool({ description: t.description, inputSchema: ai.jsonSchema(t.parameters) })]));
    const anthropic = createAnthropic({ apiKey: KEY, fetch: capturingFetch });
    const openai = createOpenAI({ apiKey: KEY, fetch: capturingFetch });
    const google = createGoogleGenerativeAI({ apiKey: KEY, fetch: capturingFetch });
    const base = { system: SYSTEM_PROMPT, tools, maxOutputTokens: MAX_TOKENS, maxRetries: 0 };
    drivers.push({
      peer: "AI SDK",
      target: "anthropic",
      how: "`generateText({ model: createAnthropic({ fetch })('claude-sonnet-4-5'), system, messages, tools, providerOptions: { anthropic: { thinking } } })` (non-streaming; like every AI SDK row, `generateText` first validates the whole `ModelMessage[]` against its zod schema, on every call)",
      prepare: toAiSdk,
      run: (messages) =>
        ai.generateText({
          ...base,
          model: anthropic(MODELS.anthropic),
          messages,
          providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: BUDGET } } },
        }),
    });
    drivers.push({
      peer: "AI SDK",
      target: "openai-chat",
      how: "`generateText({ model: createOpenAI({ fetch }).chat('gpt-5.2'), system, messages, tools })` (Chat Completions, non-streaming)",
      prepare: toAiSdk,
      run: (messages) => ai.generateText({ ...base, model: openai.chat(MODELS.openai), messages }),
    });
    drivers.push({
      peer: "AI SDK",
      target: "gemini",
      how: "`generateText({ model: createGoogleGenerativeAI({ fetch })('gemini-2.5-pro'), system, messages, tools })` (non-streaming)",
      prepare: toAiSdk,
      run: (messages) => ai.generateText({ ...base, model: google(MODELS.gemini), messages }),
    });
  }

  // --- LangChain: chat model .bindTools(tools).invoke([system, ...history]) -------------
  {
    const tools = TOOLS.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
    const system = new lcMessages.SystemMessage(SYSTEM_PROMPT);
    const prepare = (events) => [system, ...toLangChain(events, lcMessages)];
    const claude = new ChatAnthropic({
      model: MODELS.anthropic,
      apiKey: KEY,
      maxTokens: MAX_TOKENS,
      maxRetries: 0,
      thinking: { type: "enabled", budget_tokens: BUDGET },
      clientOptions: { fetch: capturingFetch },
    }).bindTools(tools);
    drivers.push({
      peer: "LangChain",
      target: "anthropic",
      how: "`new ChatAnthropic({ thinking, clientOptions: { fetch } }).bindTools(tools).invoke([SystemMessage, ...history])` (non-streaming)",
      prepare,
      run: (messages) => claude.invoke(messages),
    });
    const gpt = new ChatOpenAI({
      model: MODELS.openai,
      apiKey: KEY,
      maxTokens: MAX_TOKENS,
      maxRetries: 0,
      configuration: { fetch: capturingFetch },
    }).bindTools(tools);
    drivers.push({
      peer: "LangChain",
      target: "openai-chat",
      how: "`new ChatOpenAI({ configuration: { fetch } }).bindTools(tools).invoke([SystemMessage, ...history])` (Chat Completions, non-streaming)",
      prepare,
      run: (messages) => gpt.invoke(messages),
    });
  }

  return drivers;
}

/** Runs a driver once and returns the captured body (text). */
export async function captureOnce(driver, history) {
  captured.body = "";
  await driver.run(history);
  return captured.body;
}
