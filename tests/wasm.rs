//! The binding layer (`src/wasm/`) tested inside WebAssembly with `wasm-bindgen-test`, in Node
//! and in headless Chromium (`scripts/test-wasm.sh`, part of `make test`):
//!
//! ```sh
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!   cargo test --target wasm32-unknown-unknown --features wasm --test wasm
//! WASM_BINDGEN_USE_BROWSER=1 …same command…   # headless Chromium through chromedriver
//! ```
//!
//! These check what only the boundary does: JS values in (objects and JSON text), plain JS
//! objects out (no `Map`s, `null` kept), bytes identical to the core render and to the golden
//! files, `TurnwireError`s with code and path, and a module that keeps working after errors.
//! Natively this file compiles to nothing.
#![cfg(all(target_arch = "wasm32", feature = "wasm"))]
// `#[wasm_bindgen_test]` functions are not `#[test]`s, so clippy.toml's test allowances miss them.
#![allow(clippy::unwrap_used, clippy::panic)]

use js_sys::{Array, Reflect, JSON};
use serde_json::{json, Value};
use tsify::Ts;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

use turnwire::wasm::{
    is_turnwire_error, is_valid_tool_id, normalize_js, project_tool_id, project_tool_ids,
    render_body, render_for_provider, validate_request_js, Conversation, MessageInput,
    StreamDecoder, TranscriptInput,
};
use turnwire::{Provider, RenderOptions, Transcript};

/// One golden case: the transcript, the options shared by all providers, and the Anthropic and
/// OpenAI golden bodies (the Rust golden test owns the files; here they pin the boundary).
const TRANSCRIPT: &str = include_str!("fixtures/02-915-five-calls-one-result/transcript.json");
const OPTIONS: &str = include_str!("fixtures/02-915-five-calls-one-result/options.json");
const GOLDEN_ANTHROPIC: &str = include_str!("fixtures/02-915-five-calls-one-result/anthropic.json");
const GOLDEN_OPENAI: &str = include_str!("fixtures/02-915-five-calls-one-result/openai-chat.json");

fn options_value(provider: Provider) -> Value {
    let mut o: Value = serde_json::from_str(OPTIONS).unwrap();
    o["provider"] = json!(provider.as_str());
    o["model"] = json!(provider.reference_model());
    o
}

fn js(value: &Value) -> JsValue {
    JSON::parse(&value.to_string()).unwrap()
}

fn options(provider: Provider) -> Ts<RenderOptions> {
    Ts::new_unchecked(js(&options_value(provider)))
}

fn transcript_text() -> TranscriptInput {
    JsValue::from_str(TRANSCRIPT).unchecked_into()
}

fn transcript_object() -> TranscriptInput {
    JSON::parse(TRANSCRIPT).unwrap().unchecked_into()
}

fn core_body(provider: Provider) -> Vec<u8> {
    let t = Transcript::from_json(TRANSCRIPT).unwrap();
    let o = RenderOptions::from_value(options_value(provider)).unwrap();
    turnwire::render_body(&t, &o).unwrap()
}

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &key.into()).unwrap()
}

fn to_value(value: &JsValue) -> Value {
    serde_json::from_str(&JSON::stringify(value).unwrap().as_string().unwrap()).unwrap()
}

#[wasm_bindgen_test]
fn render_body_from_text_and_object_equals_the_core_render_for_every_provider() {
    for provider in Provider::ALL {
        let expected = core_body(provider);
        let from_text = render_body(&transcript_text(), options(provider)).unwrap();
        let from_object = render_body(&transcript_object(), options(provider)).unwrap();
        assert_eq!(from_text, expected, "{provider:?} from JSON text");
        assert_eq!(from_object, expected, "{provider:?} from a JS object");
    }
}

#[wasm_bindgen_test]
fn render_body_equals_the_golden_files() {
    for (provider, golden) in [
        (Provider::Anthropic, GOLDEN_ANTHROPIC),
        (Provider::OpenAiChat, GOLDEN_OPENAI),
    ] {
        let golden: Value = serde_json::from_str(golden).unwrap();
        let bytes = render_body(&transcript_text(), options(provider)).unwrap();
        let body: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(body, golden["body"], "{provider:?}");
    }
}

#[wasm_bindgen_test]
fn render_for_provider_returns_plain_objects_with_nulls_kept() {
    let out = render_for_provider(&transcript_object(), options(Provider::OpenAiChat)).unwrap();
    let out: JsValue = out.into();
    for key in ["body", "idMap", "diagnostics"] {
        let member = get(&out, key);
        assert!(!member.is_instance_of::<js_sys::Map>(), "{key} is a Map");
        assert!(member.is_object(), "{key} is not an object");
    }
    assert!(Array::is_array(&get(&out, "diagnostics")));
    let messages = get(&get(&out, "body"), "messages");
    assert!(Array::is_array(&messages));
    // The synthetic results make diagnostics; the body equals the core render's.
    assert!(Array::from(&get(&out, "diagnostics")).length() > 0);
    let body = to_value(&get(&out, "body"));
    let core: Value = serde_json::from_slice(&core_body(Provider::OpenAiChat)).unwrap();
    assert_eq!(body, core);

    // A JSON null inside a tool result's value stays null (not undefined, not dropped).
    let t = json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
        {"speaker": "ai", "blocks": [{"type": "tool_call", "id": "c1", "name": "f", "parameters": {"x": null}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c1", "result": {"ok": null}}]}
    ]);
    let out: JsValue = render_for_provider(&js(&t).unchecked_into(), options(Provider::Anthropic))
        .unwrap()
        .into();
    let body = get(&out, "body");
    let messages = Array::from(&get(&body, "messages"));
    let call = Array::from(&get(&messages.get(1), "content")).get(0);
    let input = get(&call, "input");
    assert!(
        get(&input, "x").is_null(),
        "null became {:?}",
        get(&input, "x")
    );
}

#[wasm_bindgen_test]
fn errors_are_turnwire_errors_with_code_and_path() {
    let bad = json!([{"speaker": "robot", "blocks": []}]);
    let err = render_body(&js(&bad).unchecked_into(), options(Provider::Anthropic)).unwrap_err();
    assert!(err.is_instance_of::<js_sys::Error>());
    assert!(is_turnwire_error(&err));
    assert_eq!(
        get(&err, "name").as_string().as_deref(),
        Some("TurnwireError")
    );
    assert_eq!(
        get(&err, "code").as_string().as_deref(),
        Some("invalid_value")
    );
    assert_eq!(
        get(&err, "path").as_string().as_deref(),
        Some("$[0].speaker")
    );

    let err = render_body(
        &JsValue::from_str("{not json").unchecked_into(),
        options(Provider::Gemini),
    )
    .unwrap_err();
    assert_eq!(
        get(&err, "code").as_string().as_deref(),
        Some("invalid_json")
    );

    let no_provider = Ts::new_unchecked(js(&json!({"model": "m"})));
    let err = render_body(&transcript_text(), no_provider).unwrap_err();
    assert!(is_turnwire_error(&err));

    // A plain Error is not one of ours.
    assert!(!is_turnwire_error(&js_sys::Error::new("x").into()));
    assert!(!is_turnwire_error(&JsValue::from_str("TurnwireError")));
}

#[wasm_bindgen_test]
fn the_module_keeps_working_after_a_thousand_bad_inputs() {
    let before = core_body(Provider::Mistral);
    for i in 0..1000 {
        let bad = match i % 4 {
            0 => JsValue::from_str("["),
            1 => JsValue::from(42),
            2 => js(&json!([{"speaker": "ai", "blocks": [{"type": "tool_call"}]}])),
            _ => JsValue::NULL,
        };
        assert!(render_body(&bad.unchecked_into(), options(Provider::Mistral)).is_err());
    }
    let after = render_body(&transcript_text(), options(Provider::Mistral)).unwrap();
    assert_eq!(after, before);
}

#[wasm_bindgen_test]
fn conversation_renders_what_render_body_renders_and_round_trips() {
    let messages: Vec<Value> = serde_json::from_str(TRANSCRIPT).unwrap();
    let mut convo = Conversation::new(None).unwrap();
    for (i, m) in messages.iter().enumerate() {
        if i % 2 == 0 {
            convo
                .append(&js(m).unchecked_into::<MessageInput>())
                .unwrap();
        } else {
            convo
                .append_json(&js_sys::JsString::from(m.to_string()).into())
                .unwrap();
        }
    }
    assert_eq!(convo.length() as usize, messages.len());
    for provider in Provider::ALL {
        let bytes = convo.render(options(provider)).unwrap().to_vec();
        assert_eq!(bytes, core_body(provider), "{provider:?}");
    }
    let saved = convo.to_json().unwrap();
    let restored = Conversation::from_json(&saved.unchecked_into()).unwrap();
    assert_eq!(restored.length(), convo.length());

    // A bad append is an error and leaves the conversation as it was.
    let err = convo
        .append(&js(&json!({"speaker": "ai", "blocks": 3})).unchecked_into())
        .unwrap_err();
    assert!(is_turnwire_error(&err));
    assert_eq!(convo.length() as usize, messages.len());
}

#[wasm_bindgen_test]
fn normalize_and_validate_request_cross_the_boundary() {
    let out: JsValue = normalize_js(&transcript_object(), options(Provider::Anthropic))
        .unwrap()
        .into();
    assert!(Array::is_array(&get(&out, "transcript")));
    assert_eq!(get(&out, "thinkingEnabled").as_bool(), Some(true));

    let ok = validate_request_js(
        Ts::new_unchecked(JsValue::from_str("anthropic")),
        &js(&serde_json::from_slice::<Value>(&core_body(Provider::Anthropic)).unwrap()),
        None,
        None,
    )
    .unwrap();
    assert_eq!(Array::from(&ok).length(), 0);
    // the same first-party body for Claude on Bedrock InvokeModel: the host's envelope (HST-01)
    let hosted = validate_request_js(
        Ts::new_unchecked(JsValue::from_str("anthropic")),
        &js(&serde_json::from_slice::<Value>(&core_body(Provider::Anthropic)).unwrap()),
        None,
        Some(JsValue::from_str("bedrock")),
    )
    .unwrap();
    assert!(Array::from(&hosted).length() > 0);

    // A tool call without its result: ANT rule violated, reported with a JSON path.
    let broken = json!({
        "model": "claude-sonnet-4-5", "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
            {"role": "user", "content": "next"}
        ]
    });
    let bytes = js_sys::Uint8Array::from(broken.to_string().as_bytes());
    let violations = validate_request_js(
        Ts::new_unchecked("anthropic".into()),
        &bytes.into(),
        None,
        None,
    )
    .unwrap();
    let violations = Array::from(&violations);
    assert!(violations.length() > 0);
    assert!(get(&violations.get(0), "path")
        .as_string()
        .unwrap()
        .starts_with("$.messages"));

    let err = validate_request_js(
        Ts::new_unchecked("bedrock".into()),
        &"{}".into(),
        None,
        None,
    )
    .unwrap_err();
    assert!(is_turnwire_error(&err));
}

#[wasm_bindgen_test]
fn id_helpers_project_like_a_render() {
    let anthropic = || Ts::new_unchecked(JsValue::from_str("anthropic"));
    assert_eq!(
        project_tool_id(anthropic(), &"call_abc123".into(), Some("read_file".into())).unwrap(),
        "toolu_abc123"
    );
    let mistral = || Ts::new_unchecked(JsValue::from_str("mistral"));
    let ids = project_tool_ids(
        mistral(),
        &js(&json!([{"id": "hist_tool_1", "name": "grep"}, {"id": "hist_tool_2"}])),
    )
    .unwrap();
    assert_eq!(ids.len(), 2);
    for id in &ids {
        assert!(is_valid_tool_id(mistral(), &id.into()).unwrap(), "{id}");
    }
    let compat = Ts::new_unchecked(js(&json!({"compat": {"maxLen": 12, "alphanumeric": true}})));
    assert!(!is_valid_tool_id(compat, &"call_1234567890".into()).unwrap());
    let err = project_tool_id(Ts::new_unchecked("nope".into()), &"x".into(), None).unwrap_err();
    assert!(is_turnwire_error(&err));
}

const ANTHROPIC_TEXT_STREAM: &str = include_str!("fixtures/streams/anthropic/text.events");
const ANTHROPIC_TEXT_EXPECTED: &str = include_str!("fixtures/streams/anthropic/text.expected.json");

#[wasm_bindgen_test]
fn stream_decoder_gives_the_golden_outcome_and_reports_problems_as_deltas() {
    let provider = || Ts::new_unchecked(JsValue::from_str("anthropic"));
    let options = js(&json!({"model": "claude-sonnet-4-5"}));
    let mut decoder = StreamDecoder::new(provider(), Some(options)).unwrap();
    assert_eq!(decoder.provider().unwrap(), "anthropic");
    let mut texts = String::new();
    for line in ANTHROPIC_TEXT_STREAM
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let deltas = Array::from(&decoder.push(&line.into()).unwrap());
        for d in deltas.iter() {
            assert!(!d.is_instance_of::<js_sys::Map>());
            if get(&d, "type").as_string().as_deref() == Some("text") {
                texts.push_str(&get(&d, "text").as_string().unwrap());
            }
        }
    }
    let outcome = to_value(&decoder.finish().unwrap());
    let expected: Value = serde_json::from_str(ANTHROPIC_TEXT_EXPECTED).unwrap();
    assert_eq!(outcome, expected["outcome"]);
    assert_eq!(texts, "Hello! How can I help you today?");

    // A finished decoder is a TurnwireError, not a panic.
    assert!(is_turnwire_error(&decoder.finish().unwrap_err()));
    assert!(is_turnwire_error(&decoder.push(&"{}".into()).unwrap_err()));

    // A bad event is an `error` delta; the decoder goes on. A bad provider is a TurnwireError.
    let mut d = StreamDecoder::new(provider(), None).unwrap();
    let deltas = Array::from(&d.push(&"{not json".into()).unwrap());
    assert_eq!(
        get(&deltas.get(0), "type").as_string().as_deref(),
        Some("error")
    );
    assert_eq!(
        get(&deltas.get(0), "code").as_string().as_deref(),
        Some("invalid_json")
    );
    let snapshot = d.snapshot().unwrap();
    assert_eq!(get(&snapshot, "incomplete").as_bool(), Some(true));
    let err = StreamDecoder::new(Ts::new_unchecked("bedrock".into()), None)
        .err()
        .unwrap();
    assert!(is_turnwire_error(&err));
    let err = StreamDecoder::new(provider(), Some(js(&json!({"model": 3}))))
        .err()
        .unwrap();
    assert!(is_turnwire_error(&err));
}

/// After an allocation grows the WebAssembly memory, the allocator reserves the next growth step
/// at once: the allocations that fit in it do not grow the memory again (issue 29: the first
/// render of a big history paid for thousands of 64 KiB grows, the second for none). The budget
/// still counts only the bytes in use.
#[wasm_bindgen_test]
fn the_memory_grows_in_large_steps_and_the_budget_counts_bytes_in_use() {
    const BLOCK: usize = 256 << 10;
    let size = || core::arch::wasm32::memory_size::<0>() * 65_536;
    let live_before = turnwire::memory::live_bytes();
    // blocks until one makes the memory grow: every free chunk that could serve one is used
    let before = size();
    let mut blocks: Vec<Vec<u8>> = Vec::new();
    while size() == before {
        blocks.push(vec![1u8; BLOCK]);
    }
    let grown = size();
    assert!(
        grown >= before + turnwire::memory::MIN_GROWTH_BYTES,
        "grew from {before} to {grown}"
    );
    // 4 MiB more: served from the reserved step
    for _ in 0..16 {
        blocks.push(vec![2u8; BLOCK]);
    }
    assert_eq!(
        size(),
        grown,
        "the memory grew again within the reserved step"
    );
    let counted = turnwire::memory::live_bytes() - live_before;
    let held = blocks.len() * BLOCK + blocks.capacity() * std::mem::size_of::<Vec<u8>>();
    assert!(
        counted >= blocks.len() * BLOCK && counted <= held + (64 << 10),
        "counted {counted} bytes in use for {held}"
    );
}
