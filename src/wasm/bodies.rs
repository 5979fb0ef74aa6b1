//! `Rendered<Body>` and the functions that return typed bodies (`renderForProvider`,
//! `renderCountTokens`), for the modules that render; the body types themselves are in
//! `body_types.rs`.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `Rendered` in JavaScript (declared below, generic over the body).
    #[wasm_bindgen(typescript_type = "Rendered")]
    pub type RenderedJs;
}

/// `Ts<Rendered>` is typed `Rendered` (its declaration is the hand-written one below).
impl tsify::Tsify for crate::Rendered {
    type JsType = RenderedJs;
    const DECL: &'static str = "";
}

#[wasm_bindgen(typescript_custom_section)]
const TS_RENDERED: &'static str = r#"
/** The result of a render: the body (typed per provider when the provider is known), the id
 * map, the tool names that changed and every diagnostic. */
export interface Rendered<Body extends object = JsonObject> {
    /** The whole request body, sendable as is. */
    body: Body;
    /** Canonical ↔ provider call ids. */
    idMap: Record<string, string>;
    /** Tool names that had to change to fit the provider's rules: original → sent. Use it to
     * map the model's calls back to your tools. */
    toolNames: Record<string, string>;
    /** Every repair and lossy projection. */
    diagnostics: Diagnostic[];
    /** HTTP headers the body needs, header → value (absent when none): send them with it
     * (Anthropic `anthropic-beta`, `anthropic-user-profile-id`). */
    headers?: Record<string, string>;
}

/**
 * Renders a transcript into the request body for `options.provider`, with the id map, the
 * tool names that changed and every repair as a diagnostic. Plain objects out; the body is
 * typed per provider (`Rendered<AnthropicBody>` for `provider: "anthropic"`, …).
 *
 * @example
 * ```ts
 * const { body, idMap, diagnostics } = renderForProvider(history, { provider: "openai-chat", model: "gpt-5.2" });
 * body.messages; // ChatMessage[]
 * ```
 */
export function renderForProvider<P extends Provider>(transcript: Transcript | string, options: RenderOptions & { provider: P }): Rendered<ProviderBodies[P]>;

/**
 * Renders the token-counting request for what `renderForProvider` would send: Anthropic
 * `count_tokens`, OpenAI Responses `input_tokens`, Gemini `countTokens` (`countTokensRequest`
 * gives the URL and headers). Another provider is an `unsupported_option` error.
 *
 * @example
 * ```ts
 * const { body } = renderCountTokens(history, { provider: "anthropic", model: "claude-sonnet-4-5", tools });
 * const { input_tokens } = await (await fetch(countTokensRequest({ provider: "anthropic", model, apiKey }).url, { method: "POST", headers, body: JSON.stringify(body) })).json();
 * ```
 */
export function renderCountTokens<P extends keyof CountTokensBodies>(transcript: Transcript | string, options: RenderOptions & { provider: P }): Rendered<CountTokensBodies[P]>;
"#;
