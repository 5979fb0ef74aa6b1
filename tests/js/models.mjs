// The model each provider is rendered and decoded with in the JS tests: the Rust goldens'
// `Provider::reference_model`. Plain ESM with no imports, so every runtime's harness (a browser
// page, a worker bundle) can load it.

/** Provider name → reference model. */
export const MODELS = {
  anthropic: "claude-sonnet-4-5",
  "openai-chat": "gpt-5.2",
  "openai-responses": "gpt-5.2",
  gemini: "gemini-3-pro-preview",
  mistral: "mistral-large-latest",
  kimi: "kimi-k2-thinking",
  deepseek: "deepseek-reasoner",
  "openai-compatible": "llama-3.3-70b-versatile",
  "bedrock-converse": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
  ollama: "qwen3:8b",
};
