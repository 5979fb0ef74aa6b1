//! The top-level request fields of each API and the JSON types each takes, read from the
//! request types of the pinned official SDKs. Written by
//! `tests/js/sdk-types/gen-request-fields.mjs`: do not edit; scripts/test-js.sh regenerates it
//! and fails when it differs (an SDK bump shows the new fields).
//!
//! Sources: @anthropic-ai/sdk 1.12.0 (`MessageCreateParams` and the beta
//! `MessageCreateParams`, header params left out), openai 6.49.0 (`ChatCompletionCreateParams`,
//! `ResponseCreateParams`), @google/genai 2.32.0 (`GenerateContentConfig`, `GenerationConfig`),
//! @mistralai/mistralai 2.7.0 (`ChatCompletionRequest`, in the wire's snake_case).

use super::request_field_types::{Field, Json};

/// anthropic: 25 fields.
#[rustfmt::skip]
pub(crate) const ANTHROPIC: &[Field] = &[
    Field::new("billing_policy", Json::NULL.or(Json::OBJECT)),
    Field::new("cache_control", Json::NULL.or(Json::OBJECT)),
    Field::new("compaction", Json::NULL.or(Json::OBJECT)),
    Field::new("container", Json::NULL.or(Json::OBJECT).or(Json::STRING)),
    Field::new("context_management", Json::NULL.or(Json::OBJECT)),
    Field::new("diagnostics", Json::NULL.or(Json::OBJECT)),
    Field::new("fallback_credit_token", Json::NULL.or(Json::OBJECT).or(Json::STRING)),
    Field::new("fallbacks", Json::ARRAY.or(Json::NULL).or(Json::STRING)),
    Field::new("inference_geo", Json::NULL.or(Json::STRING)),
    Field::new("max_tokens", Json::NUMBER),
    Field::new("mcp_servers", Json::ARRAY),
    Field::new("messages", Json::ARRAY),
    Field::new("metadata", Json::OBJECT),
    Field::new("model", Json::STRING),
    Field::new("output_config", Json::OBJECT),
    Field::new("output_format", Json::NULL.or(Json::OBJECT)),
    Field::new("service_tier", Json::STRING),
    Field::new("speed", Json::NULL.or(Json::STRING)),
    Field::new("stop_sequences", Json::ARRAY),
    Field::new("stream", Json::BOOL),
    Field::new("system", Json::ARRAY.or(Json::STRING)),
    Field::new("thinking", Json::OBJECT),
    Field::new("thread", Json::NULL.or(Json::OBJECT)),
    Field::new("tool_choice", Json::OBJECT),
    Field::new("tools", Json::ARRAY),
];

/// openai chat: 37 fields.
#[rustfmt::skip]
pub(crate) const OPENAI_CHAT: &[Field] = &[
    Field::new("audio", Json::NULL.or(Json::OBJECT)),
    Field::new("frequency_penalty", Json::NULL.or(Json::NUMBER)),
    Field::new("function_call", Json::OBJECT.or(Json::STRING)),
    Field::new("functions", Json::ARRAY),
    Field::new("logit_bias", Json::NULL.or(Json::OBJECT)),
    Field::new("logprobs", Json::BOOL.or(Json::NULL)),
    Field::new("max_completion_tokens", Json::NULL.or(Json::NUMBER)),
    Field::new("max_tokens", Json::NULL.or(Json::NUMBER)),
    Field::new("messages", Json::ARRAY),
    Field::new("metadata", Json::NULL.or(Json::OBJECT)),
    Field::new("modalities", Json::ARRAY.or(Json::NULL)),
    Field::new("model", Json::STRING),
    Field::new("moderation", Json::NULL.or(Json::OBJECT)),
    Field::new("n", Json::NULL.or(Json::NUMBER)),
    Field::new("parallel_tool_calls", Json::BOOL),
    Field::new("prediction", Json::NULL.or(Json::OBJECT)),
    Field::new("presence_penalty", Json::NULL.or(Json::NUMBER)),
    Field::new("prompt_cache_key", Json::NULL.or(Json::STRING)),
    Field::new("prompt_cache_options", Json::OBJECT),
    Field::new("prompt_cache_retention", Json::NULL.or(Json::STRING)),
    Field::new("reasoning_effort", Json::NULL.or(Json::STRING)),
    Field::new("response_format", Json::OBJECT),
    Field::new("safety_identifier", Json::NULL.or(Json::STRING)),
    Field::new("seed", Json::NULL.or(Json::NUMBER)),
    Field::new("service_tier", Json::NULL.or(Json::STRING)),
    Field::new("stop", Json::ARRAY.or(Json::NULL).or(Json::STRING)),
    Field::new("store", Json::BOOL.or(Json::NULL)),
    Field::new("stream", Json::BOOL.or(Json::NULL)),
    Field::new("stream_options", Json::NULL.or(Json::OBJECT)),
    Field::new("temperature", Json::NULL.or(Json::NUMBER)),
    Field::new("tool_choice", Json::OBJECT.or(Json::STRING)),
    Field::new("tools", Json::ARRAY),
    Field::new("top_logprobs", Json::NULL.or(Json::NUMBER)),
    Field::new("top_p", Json::NULL.or(Json::NUMBER)),
    Field::new("user", Json::STRING),
    Field::new("verbosity", Json::NULL.or(Json::STRING)),
    Field::new("web_search_options", Json::OBJECT),
];

/// openai responses: 30 fields.
#[rustfmt::skip]
pub(crate) const OPENAI_RESPONSES: &[Field] = &[
    Field::new("background", Json::BOOL.or(Json::NULL)),
    Field::new("context_management", Json::ARRAY.or(Json::NULL)),
    Field::new("conversation", Json::NULL.or(Json::OBJECT).or(Json::STRING)),
    Field::new("include", Json::ARRAY.or(Json::NULL)),
    Field::new("input", Json::ARRAY.or(Json::STRING)),
    Field::new("instructions", Json::NULL.or(Json::STRING)),
    Field::new("max_output_tokens", Json::NULL.or(Json::NUMBER)),
    Field::new("metadata", Json::NULL.or(Json::OBJECT)),
    Field::new("model", Json::STRING),
    Field::new("moderation", Json::NULL.or(Json::OBJECT)),
    Field::new("parallel_tool_calls", Json::BOOL.or(Json::NULL)),
    Field::new("previous_response_id", Json::NULL.or(Json::STRING)),
    Field::new("prompt", Json::NULL.or(Json::OBJECT)),
    Field::new("prompt_cache_key", Json::NULL.or(Json::STRING)),
    Field::new("prompt_cache_options", Json::OBJECT),
    Field::new("prompt_cache_retention", Json::NULL.or(Json::STRING)),
    Field::new("reasoning", Json::NULL.or(Json::OBJECT)),
    Field::new("safety_identifier", Json::NULL.or(Json::STRING)),
    Field::new("service_tier", Json::NULL.or(Json::STRING)),
    Field::new("store", Json::BOOL.or(Json::NULL)),
    Field::new("stream", Json::BOOL.or(Json::NULL)),
    Field::new("stream_options", Json::NULL.or(Json::OBJECT)),
    Field::new("temperature", Json::NULL.or(Json::NUMBER)),
    Field::new("text", Json::OBJECT),
    Field::new("tool_choice", Json::OBJECT.or(Json::STRING)),
    Field::new("tools", Json::ARRAY),
    Field::new("top_logprobs", Json::NULL.or(Json::NUMBER)),
    Field::new("top_p", Json::NULL.or(Json::NUMBER)),
    Field::new("truncation", Json::NULL.or(Json::STRING)),
    Field::new("user", Json::STRING),
];

/// gemini: 9 fields.
#[rustfmt::skip]
pub(crate) const GEMINI: &[Field] = &[
    Field::new("cachedContent", Json::STRING),
    Field::new("contents", Json::ARRAY),
    Field::new("generationConfig", Json::OBJECT),
    Field::new("labels", Json::OBJECT),
    Field::new("model", Json::STRING),
    Field::new("safetySettings", Json::ARRAY),
    Field::new("systemInstruction", Json::ARRAY.or(Json::OBJECT).or(Json::STRING)),
    Field::new("toolConfig", Json::OBJECT),
    Field::new("tools", Json::ARRAY),
];

/// gemini generation: 26 fields.
#[rustfmt::skip]
pub(crate) const GEMINI_GENERATION: &[Field] = &[
    Field::new("audioTimestamp", Json::BOOL),
    Field::new("audioTranscriptionConfig", Json::OBJECT),
    Field::new("candidateCount", Json::NUMBER),
    Field::new("enableAffectiveDialog", Json::BOOL),
    Field::new("enableEnhancedCivicAnswers", Json::BOOL),
    Field::new("frequencyPenalty", Json::NUMBER),
    Field::new("logprobs", Json::NUMBER),
    Field::new("maxOutputTokens", Json::NUMBER),
    Field::new("mediaResolution", Json::STRING),
    Field::new("modelSelectionConfig", Json::OBJECT),
    Field::new("presencePenalty", Json::NUMBER),
    Field::new("responseFormat", Json::ARRAY),
    Field::new("responseJsonSchema", Json::ANY),
    Field::new("responseLogprobs", Json::BOOL),
    Field::new("responseMimeType", Json::STRING),
    Field::new("responseModalities", Json::ARRAY),
    Field::new("responseSchema", Json::OBJECT),
    Field::new("routingConfig", Json::OBJECT),
    Field::new("seed", Json::NUMBER),
    Field::new("speechConfig", Json::OBJECT),
    Field::new("stopSequences", Json::ARRAY),
    Field::new("temperature", Json::NUMBER),
    Field::new("thinkingConfig", Json::OBJECT),
    Field::new("topK", Json::NUMBER),
    Field::new("topP", Json::NUMBER),
    Field::new("translationConfig", Json::OBJECT),
];

/// mistral: 23 fields.
#[rustfmt::skip]
pub(crate) const MISTRAL: &[Field] = &[
    Field::new("frequency_penalty", Json::NULL.or(Json::NUMBER)),
    Field::new("guardrails", Json::ARRAY.or(Json::NULL)),
    Field::new("max_tokens", Json::NULL.or(Json::NUMBER)),
    Field::new("messages", Json::ARRAY),
    Field::new("metadata", Json::NULL.or(Json::OBJECT)),
    Field::new("model", Json::STRING),
    Field::new("n", Json::NULL.or(Json::NUMBER)),
    Field::new("parallel_tool_calls", Json::BOOL),
    Field::new("prediction", Json::OBJECT),
    Field::new("presence_penalty", Json::NULL.or(Json::NUMBER)),
    Field::new("prompt_cache_key", Json::NULL.or(Json::STRING)),
    Field::new("prompt_mode", Json::NULL.or(Json::STRING)),
    Field::new("random_seed", Json::NULL.or(Json::NUMBER)),
    Field::new("reasoning_effort", Json::NULL.or(Json::STRING)),
    Field::new("response_format", Json::OBJECT),
    Field::new("safe_prompt", Json::BOOL),
    Field::new("service_tier", Json::NULL.or(Json::STRING)),
    Field::new("stop", Json::ARRAY.or(Json::NULL).or(Json::STRING)),
    Field::new("stream", Json::BOOL),
    Field::new("temperature", Json::NULL.or(Json::NUMBER)),
    Field::new("tool_choice", Json::OBJECT.or(Json::STRING)),
    Field::new("tools", Json::ARRAY.or(Json::NULL)),
    Field::new("top_p", Json::NULL.or(Json::NUMBER)),
];
