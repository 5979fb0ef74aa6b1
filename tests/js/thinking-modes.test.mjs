// Issue 14, point 1: current thinking controls, driven by the capability table. Claude 4.5 and
// earlier think with a budget; Opus 4.6 and Sonnet 4.6 adaptively unless a budget is given;
// Opus 4.7 and later adaptively only. `effort` becomes Anthropic `output_config.effort` and
// Gemini 3 `thinkingLevel` at the highest level the model takes that is not above it, OpenAI's
// `reasoning_effort` / `reasoning.effort` as given; what is not sent as asked is reported.
// Turns with these settings are accepted by the strict mock providers.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Conversation, isTurnwireError, renderForProvider, streamTurn, validateRequest } from "turnwire";
import { startMockProviders } from "turnwire/mock";

const history = [{ speaker: "human", blocks: [{ type: "text", text: "Plan the refactor of the render path." }] }];
const effortNotes = (diagnostics) => diagnostics.filter((d) => d.path === "$.thinking.effort").length;

describe("thinking modes", () => {
  test("Anthropic: budget, adaptive or adaptive only, from the model", () => {
    const cases = [
      ["claude-sonnet-4-5", { enabled: true }, { type: "enabled", budget_tokens: 1024 }],
      ["claude-opus-4-6", { enabled: true }, { type: "adaptive" }],
      ["claude-opus-4-6", { enabled: true, budgetTokens: 4096 }, { type: "enabled", budget_tokens: 4096 }],
      ["claude-opus-4-7", { enabled: true, budgetTokens: 4096 }, { type: "adaptive" }],
    ];
    for (const [model, thinking, want] of cases) {
      const { body, diagnostics } = renderForProvider(history, { provider: "anthropic", model, maxTokens: 16000, thinking });
      assert.deepEqual(body.thinking, want, model);
      assert.deepEqual(validateRequest("anthropic", body), [], model);
      const budgetNote = diagnostics.some((d) => d.path === "$.thinking.budgetTokens");
      assert.equal(budgetNote, model === "claude-opus-4-7", model);
    }
  });

  test("effort: output_config.effort and thinkingLevel at the highest level the model takes", () => {
    const claude = (model, effort) => renderForProvider(history, { provider: "anthropic", model, maxTokens: 16000, thinking: { enabled: true, effort } });
    assert.equal(claude("claude-opus-4-7", "xhigh").body.output_config.effort, "xhigh");
    const sonnet = claude("claude-sonnet-4-6", "xhigh");
    assert.equal(sonnet.body.output_config.effort, "high");
    assert.equal(effortNotes(sonnet.diagnostics), 1);
    const old = claude("claude-sonnet-4-5", "high");
    assert.equal(old.body.output_config, undefined);
    assert.equal(effortNotes(old.diagnostics), 1);
    const gemini = (model, effort) => renderForProvider(history, { provider: "gemini", model, thinking: { enabled: true, effort } });
    assert.deepEqual(gemini("gemini-3.1-pro-preview", "medium").body.generationConfig.thinkingConfig, { includeThoughts: true, thinkingLevel: "MEDIUM" });
    const pro = gemini("gemini-3-pro-preview", "medium");
    assert.equal(pro.body.generationConfig.thinkingConfig.thinkingLevel, "LOW");
    assert.equal(effortNotes(pro.diagnostics), 1);
    assert.equal(gemini("gemini-2.5-pro", "high").body.generationConfig.thinkingConfig.thinkingLevel, undefined);
    const chat = renderForProvider(history, { provider: "openai-chat", model: "gpt-5.2", thinking: { enabled: true, effort: "xhigh" } });
    assert.equal(chat.body.reasoning_effort, "xhigh");
    const responses = renderForProvider(history, { provider: "openai-responses", model: "gpt-5.2", thinking: { enabled: true, effort: "low" } });
    assert.deepEqual(responses.body.reasoning, { effort: "low", summary: "auto" });
  });

  test("summary: Anthropic display, Responses reasoning.summary, Gemini includeThoughts", () => {
    const r = (provider, model, summary) => renderForProvider(history, { provider, model, maxTokens: 16000, thinking: { enabled: true, summary } });
    assert.deepEqual(r("anthropic", "claude-opus-4-7", "none").body.thinking, { type: "adaptive", display: "omitted" });
    assert.deepEqual(r("anthropic", "claude-opus-4-6", "detailed").body.thinking, { type: "adaptive", display: "summarized" });
    assert.equal(r("openai-responses", "gpt-5.2", "concise").body.reasoning.summary, "concise");
    assert.equal(r("gemini", "gemini-3-pro-preview", "none").body.generationConfig.thinkingConfig.includeThoughts, false);
    assert.equal(r("openai-chat", "gpt-5.2", "detailed").diagnostics.filter((d) => d.path === "$.thinking.summary").length, 1);
  });

  test("effort is a closed set: another value is a typed error with its path", () => {
    assert.throws(
      () => renderForProvider(history, { provider: "anthropic", model: "claude-opus-4-7", thinking: { enabled: true, effort: "turbo" } }),
      (e) => isTurnwireError(e) && e.code === "invalid_value" && e.path === "$.thinking.effort",
    );
  });
});

describe("turns with current thinking controls are accepted by the strict mock providers", () => {
  let mock;
  before(async () => {
    mock = await startMockProviders();
  });
  after(async () => {
    await mock?.close();
  });

  test("Claude Opus 4.7 adaptive with effort, Gemini 3.1 Pro with a level, GPT-5.2 with effort", async () => {
    const turns = [
      ["anthropic", "claude-opus-4-7", { enabled: true, effort: "high" }],
      ["gemini", "gemini-3.1-pro-preview", { enabled: true, effort: "medium" }],
      ["openai-responses", "gpt-5.2", { enabled: true, effort: "high" }],
      ["openai-chat", "gpt-5.2", { enabled: true, effort: "low" }],
    ];
    for (const [provider, model, thinking] of turns) {
      const conversation = new Conversation(history);
      const { message } = await streamTurn({
        provider, model, apiKey: "test-key", baseURL: mock.baseURL(provider), conversation,
        render: { maxTokens: 16000, thinking },
      });
      assert.equal(message.speaker, "ai", provider);
      conversation.free();
    }
    assert.deepEqual(mock.log.filter((e) => e.outcome === "rejected").map((e) => `${e.provider}: ${e.reason ?? ""}`), []);
    assert.equal(mock.log.filter((e) => e.outcome === "accepted").length, turns.length);
  });
});
