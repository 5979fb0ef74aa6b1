// Issue 14, point 1: the request controls `toolChoice` and `stopSequences`. Each provider gets
// them in its own field (the README's table), every body passes the strict validator, a forced
// choice the provider refuses with thinking turns thinking off (or becomes `auto` on a model
// that always thinks) with a diagnostic, and turns with them are accepted by the strict mock
// providers for every wire format.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Conversation, isTurnwireError, renderForProvider, streamTurn, validateRequest } from "turnwire";
import { MOCK_PROVIDERS, startMockProviders } from "turnwire/mock";
import { MODELS } from "./mock-helpers.mjs";

const PROVIDERS = ["anthropic", "openai-chat", "openai-responses", "gemini", "mistral", "kimi", "deepseek", "openai-compatible"];
const history = [{ speaker: "human", blocks: [{ type: "text", text: "What is in the repository root?" }] }];
const tools = [
  { name: "list_dir", description: "List a directory", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  { name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
];
const codes = (diagnostics) => diagnostics.map((d) => d.code);
/** One harmless field per provider (fixture 70): each turn's body carries its own. */
const PROVIDER_OPTIONS = {
  anthropic: { top_k: 40 },
  "openai-chat": { parallel_tool_calls: false },
  "openai-responses": { truncation: "auto" },
  gemini: { generationConfig: { topK: 40 } },
  mistral: { random_seed: 7 },
  kimi: { n: 1 },
  deepseek: { frequency_penalty: 0.2 },
  "openai-compatible": { seed: 7 },
};

/** Where each provider keeps the tool choice and the stop sequences of a body. */
const choiceOf = (provider, body) => (provider === "gemini" ? body.toolConfig?.functionCallingConfig : body.tool_choice);
const stopOf = (provider, body) =>
  provider === "anthropic" ? body.stop_sequences : provider === "gemini" ? body.generationConfig?.stopSequences : body.stop;

describe("toolChoice", () => {
  test("a named tool lands in each provider's own shape, and every body is valid", () => {
    const want = {
      anthropic: { type: "tool", name: "read_file" },
      "openai-responses": { type: "function", name: "read_file" },
      gemini: { mode: "ANY", allowedFunctionNames: ["read_file"] },
    };
    for (const provider of ["anthropic", "openai-chat", "openai-responses", "gemini", "mistral", "openai-compatible"]) {
      const { body, diagnostics } = renderForProvider(history, { provider, model: MODELS[provider], tools, toolChoice: { name: "read_file" } });
      assert.deepEqual(choiceOf(provider, body), want[provider] ?? { type: "function", function: { name: "read_file" } }, provider);
      assert.deepEqual(validateRequest(provider, body), [], provider);
      assert.deepEqual(codes(diagnostics), [], provider);
    }
  });

  test("required, auto and none use each provider's values (Mistral: any)", () => {
    const values = {
      required: { anthropic: { type: "any" }, gemini: { mode: "ANY" }, mistral: "any", other: "required" },
      auto: { anthropic: { type: "auto" }, gemini: { mode: "AUTO" }, other: "auto" },
      none: { anthropic: { type: "none" }, gemini: { mode: "NONE" }, other: "none" },
    };
    for (const [toolChoice, byProvider] of Object.entries(values)) {
      for (const provider of ["anthropic", "openai-chat", "openai-responses", "gemini", "mistral", "openai-compatible"]) {
        const { body } = renderForProvider(history, { provider, model: MODELS[provider], tools, toolChoice });
        assert.deepEqual(choiceOf(provider, body), byProvider[provider] ?? byProvider.other, `${provider} ${toolChoice}`);
        assert.deepEqual(validateRequest(provider, body), [], `${provider} ${toolChoice}`);
      }
    }
  });

  test("a forced choice with thinking: thinking off for the request, or auto where the model always thinks", () => {
    const thinking = { enabled: true, budgetTokens: 2048 };
    const claude = renderForProvider(history, { provider: "anthropic", model: "claude-sonnet-4-5", maxTokens: 8192, thinking, tools, toolChoice: "required" });
    assert.equal(claude.body.thinking, undefined);
    assert.deepEqual(claude.body.tool_choice, { type: "any" });
    assert.deepEqual(codes(claude.diagnostics), ["thinking_disabled_for_request"]);
    const kimi = renderForProvider(history, { provider: "kimi", model: "kimi-k2.6", tools, toolChoice: "required" });
    assert.deepEqual(kimi.body.thinking, { type: "disabled" });
    assert.equal(kimi.body.tool_choice, "required");
    const reasoner = renderForProvider(history, { provider: "deepseek", model: "deepseek-reasoner", tools, toolChoice: { name: "list_dir" } });
    assert.equal(reasoner.body.tool_choice, "auto");
    assert.deepEqual(codes(reasoner.diagnostics), ["tool_choice_lowered"]);
    for (const [provider, r] of [["anthropic", claude], ["kimi", kimi], ["deepseek", reasoner]]) {
      assert.deepEqual(validateRequest(provider, r.body), [], provider);
    }
  });

  test("a choice nothing can satisfy is a typed error naming the option", () => {
    const cases = [
      [{ toolChoice: "required" }, "$.toolChoice"],
      [{ tools, toolChoice: { name: "write_file" } }, "$.toolChoice.name"],
      [{ tools, toolChoice: "any" }, "$"],
    ];
    for (const [options, path] of cases) {
      assert.throws(
        () => renderForProvider(history, { provider: "openai-chat", model: MODELS["openai-chat"], ...options }),
        (e) => isTurnwireError(e) && e.code === "invalid_value" && e.path === path,
        JSON.stringify(options),
      );
    }
  });
});

describe("stopSequences", () => {
  test("each provider gets what it takes; what it cannot take is a diagnostic with its path", () => {
    const stopSequences = ["\n\n## ", "END", "", "   ", "###", "<|stop|>"];
    const kept = {
      anthropic: ["\n\n## ", "END", "###", "<|stop|>"],
      "openai-chat": undefined, // gpt-5.2 takes no stop sequences (OAC-18)
      "openai-responses": undefined, // Responses has no stop field (ORS-15)
      gemini: ["\n\n## ", "END", "   ", "###", "<|stop|>"],
      mistral: ["\n\n## ", "END", "   ", "###"],
      kimi: ["\n\n## ", "END", "   ", "###", "<|stop|>"],
      deepseek: ["\n\n## ", "END", "   ", "###", "<|stop|>"],
      "openai-compatible": ["\n\n## ", "END", "   ", "###"],
    };
    for (const provider of PROVIDERS) {
      const { body, diagnostics } = renderForProvider(history, { provider, model: MODELS[provider], stopSequences });
      assert.deepEqual(stopOf(provider, body), kept[provider], provider);
      assert.deepEqual(validateRequest(provider, body), [], provider);
      const adjusted = diagnostics.filter((d) => d.code === "stop_sequences_adjusted");
      assert.ok(adjusted.length > 0, provider);
      if (kept[provider]) assert.ok(adjusted.every((d) => /^\$\.stopSequences\[\d\]$/.test(d.path)), provider);
    }
  });
});

describe("responseFormat", () => {
  const responseFormat = {
    type: "json_schema",
    name: "listing",
    strict: true,
    schema: { type: "object", properties: { files: { type: "array", items: { type: "string" } } }, required: ["files"], additionalProperties: false },
  };
  const formatOf = (provider, body) =>
    provider === "anthropic"
      ? body.output_config?.format
      : provider === "openai-responses"
        ? body.text?.format
        : provider === "gemini"
          ? { mime: body.generationConfig?.responseMimeType, schema: body.generationConfig?.responseJsonSchema }
          : body.response_format;

  test("each provider with structured output gets the schema in its own field; every body is valid", () => {
    for (const provider of PROVIDERS.filter((p) => p !== "deepseek")) {
      const { body } = renderForProvider(history, { provider, model: MODELS[provider], tools, responseFormat });
      const got = formatOf(provider, body);
      if (provider === "anthropic") assert.deepEqual(got, { type: "json_schema", schema: responseFormat.schema });
      else if (provider === "openai-responses") assert.deepEqual(got, { type: "json_schema", name: "listing", schema: responseFormat.schema, strict: true });
      else if (provider === "gemini") assert.deepEqual(got, { mime: "application/json", schema: responseFormat.schema });
      else assert.deepEqual(got, { type: "json_schema", json_schema: { name: "listing", schema: responseFormat.schema, strict: true } }, provider);
      assert.deepEqual(validateRequest(provider, body), [], provider);
    }
  });

  test("issue 31, one rule for a missing feature: a target without structured output gets the request without it, reported", () => {
    const cases = [
      ["deepseek", MODELS.deepseek, { responseFormat }, "$.responseFormat"],
      ["anthropic", "claude-3-7-sonnet-latest", { responseFormat }, "$.responseFormat"],
      ["gemini", "gemini-2.5-pro", { tools, toolChoice: "required", responseFormat }, "$.toolChoice"],
    ];
    for (const [provider, model, options, path] of cases) {
      const out = renderForProvider(history, { provider, model, ...options });
      const left = out.diagnostics.filter((d) => d.code === "feature_unavailable");
      assert.deepEqual(left.map((d) => d.path), [path], `${provider} ${model}`);
      assert.deepEqual(validateRequest(provider, out.body, model), [], `${provider} ${model}`);
    }
  });

  test("a bad name or a schema that is not strict is an error naming the option", () => {
    const cases = [
      ["openai-chat", MODELS["openai-chat"], { responseFormat: { ...responseFormat, name: "a listing" } }, "invalid_value", "$.responseFormat.name"],
      ["openai-chat", MODELS["openai-chat"], { responseFormat: { ...responseFormat, schema: { type: "object", properties: { a: { type: "string" } } } } }, "invalid_value", "$.responseFormat.schema"],
    ];
    for (const [provider, model, options, code, path] of cases) {
      assert.throws(
        () => renderForProvider(history, { provider, model, ...options }),
        (e) => isTurnwireError(e) && e.code === code && e.path === path,
        `${provider} ${model} ${path}`,
      );
    }
  });

  test("Gemini 2.x takes no calls with JSON output: toolConfig NONE; Mistral gets auto for a forced choice", () => {
    const gemini = renderForProvider(history, { provider: "gemini", model: "gemini-2.5-pro", tools, responseFormat });
    assert.deepEqual(gemini.body.toolConfig, { functionCallingConfig: { mode: "NONE" } });
    assert.deepEqual(codes(gemini.diagnostics), ["tool_choice_lowered"]);
    assert.deepEqual(validateRequest("gemini", gemini.body, "gemini-2.5-pro"), []);
    const mistral = renderForProvider(history, { provider: "mistral", model: MODELS.mistral, tools, toolChoice: "required", responseFormat });
    assert.equal(mistral.body.tool_choice, "auto");
    assert.deepEqual(validateRequest("mistral", mistral.body), []);
  });
});

describe("providerOptions", () => {
  test("the target's entry is merged into its body (a JSON Merge Patch), the others ignored", () => {
    const providerOptions = {
      anthropic: { top_k: 40, metadata: { user_id: "u-7" } },
      gemini: { generationConfig: { topK: 40 }, safetySettings: [] },
      "openai-responses": { store: null, truncation: "auto" },
    };
    const a = renderForProvider(history, { provider: "anthropic", model: MODELS.anthropic, tools, providerOptions }).body;
    assert.equal(a.top_k, 40);
    assert.equal(a.generationConfig, undefined);
    assert.deepEqual(validateRequest("anthropic", a), []);
    const g = renderForProvider(history, { provider: "gemini", model: MODELS.gemini, maxTokens: 1000, providerOptions }).body;
    assert.deepEqual(g.generationConfig, { maxOutputTokens: 1000, topK: 40 });
    const r = renderForProvider(history, { provider: "openai-responses", model: MODELS["openai-responses"], providerOptions }).body;
    assert.equal("store" in r, false);
    assert.equal(r.truncation, "auto");
  });

  test("a merged field the validator refuses is a typed error naming the option's path", () => {
    assert.throws(
      () => renderForProvider(history, { provider: "anthropic", model: "claude-opus-4-7", providerOptions: { anthropic: { thinking: { type: "enabled", budget_tokens: 2048 } } } }),
      (e) => isTurnwireError(e) && e.code === "invalid_value" && e.path === "$.providerOptions.anthropic.thinking.type" && e.message.includes("ANT-34"),
    );
    assert.throws(
      () => renderForProvider(history, { provider: "gemini", model: MODELS.gemini, providerOptions: { gemini: { contents: [] } } }),
      (e) => isTurnwireError(e) && e.path === "$.providerOptions.gemini.contents",
    );
  });
});

describe("turns with the controls are accepted by the strict mock providers", () => {
  let mock;
  before(async () => {
    mock = await startMockProviders();
  });
  after(async () => {
    await mock?.close();
  });

  test("toolChoice required, two stop sequences and providerOptions, on every wire format", async () => {
    for (const provider of MOCK_PROVIDERS) {
      const conversation = new Conversation(history);
      const { message, diagnostics } = await streamTurn({
        provider,
        model: MODELS[provider],
        apiKey: "test-key",
        baseURL: mock.baseURL(provider),
        conversation,
        render: { tools, toolChoice: "required", stopSequences: ["END", "###"], providerOptions: PROVIDER_OPTIONS },
      });
      assert.equal(message.speaker, "ai", provider);
      assert.ok(Array.isArray(diagnostics), provider);
      conversation.free();
    }
    assert.deepEqual(mock.log.filter((e) => e.outcome === "rejected").map((e) => `${e.provider}: ${e.reason ?? ""}`), []);
    assert.equal(mock.log.filter((e) => e.outcome === "accepted").length, MOCK_PROVIDERS.length);
  });
});
