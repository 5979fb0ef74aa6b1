//! Ollama's native `/api/chat` (issue 32 S6): the render (OLL-01..05), the NDJSON stream
//! decoder, the relay's lines and whole answers, and the importer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod stream_support;

use serde_json::{json, Value};
use turnwire::import::{from_request_body, ImportSource};
use turnwire::relay::{relay_whole, RelayOptions, StreamRelay};
use turnwire::stream::{StreamDecoder, StreamOptions, StreamOutcome};
use turnwire::{render, validate_request, DiagnosticCode, Provider, RenderOptions, Transcript};

const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

fn transcript(v: Value) -> Transcript {
    Transcript::from_json(&v.to_string()).unwrap()
}

fn options(model: &str, extra: Value) -> RenderOptions {
    let mut o = json!({"provider": "ollama", "model": model});
    for (k, v) in extra.as_object().unwrap() {
        o[k] = v.clone();
    }
    RenderOptions::from_value(o).unwrap()
}

/// Two parallel calls of one tool, answered in order.
fn parallel() -> Transcript {
    transcript(json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "Weather in Oslo and Bergen?"}]},
        {"speaker": "ai", "blocks": [
            {"type": "tool_call", "id": "toolu_1", "name": "get_weather", "parameters": {"city": "Oslo"}},
            {"type": "tool_call", "id": "toolu_2", "name": "get_weather", "parameters": {"city": "Bergen"}}]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "toolu_1", "toolName": "get_weather", "result": "4°C"},
            {"type": "tool_response", "callId": "toolu_2", "toolName": "get_weather", "result": "9°C"}]}
    ]))
}

#[test]
fn oll_01_results_name_their_tool_and_call_and_keep_the_calls_order() {
    let r = render(&parallel(), &options("qwen3:8b", json!({}))).unwrap();
    let m = &r.body["messages"];
    let calls = m[1]["tool_calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0]["function"]["arguments"], json!({"city": "Oslo"}));
    for (k, result) in [&m[2], &m[3]].into_iter().enumerate() {
        assert_eq!(result["role"], "tool");
        assert_eq!(result["tool_name"], "get_weather");
        assert_eq!(result["tool_call_id"], calls[k]["id"]);
    }
    assert_eq!(m[2]["content"], "4°C");
    assert!(validate_request(Provider::Ollama, &r.body).is_empty());
}

#[test]
fn oll_01_parallel_calls_of_one_tool_are_told_apart_by_their_ids_and_their_order() {
    let r = render(&parallel(), &options("qwen3:8b", json!({}))).unwrap();
    let m = &r.body["messages"];
    let ids: Vec<&Value> = [&m[1]["tool_calls"][0]["id"], &m[1]["tool_calls"][1]["id"]].into();
    assert_ne!(ids[0], ids[1]);
    assert_eq!(
        [&m[2]["tool_call_id"], &m[3]["tool_call_id"]],
        [ids[0], ids[1]]
    );
    assert_eq!(
        [&m[2]["content"], &m[3]["content"]],
        [&json!("4°C"), &json!("9°C")]
    );
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
}

#[test]
fn oll_01_validator_refuses_results_out_of_call_order() {
    let body = json!({"model": "qwen3:8b", "messages": [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"function": {"name": "ls", "arguments": {}}},
            {"function": {"name": "cat", "arguments": {"path": "a"}}}]},
        {"role": "tool", "tool_name": "cat", "content": "x"},
        {"role": "tool", "tool_name": "ls", "content": "a"}]});
    let v = validate_request(Provider::Ollama, &body);
    assert!(
        v.iter()
            .any(|v| v.rule == "OLL-01" && v.path == "$.messages[2].tool_name"),
        "{v:?}"
    );
}

#[test]
fn oll_02_arguments_are_an_object_and_a_string_is_refused_with_ollamas_words() {
    let body = json!({"model": "qwen3:8b", "messages": [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"function": {"name": "ls", "arguments": "{}"}}]}]});
    let v = validate_request(Provider::Ollama, &body);
    assert_eq!(v[0].rule, "OLL-02");
    assert!(v[0].message.starts_with("json: cannot unmarshal string into Go struct field ChatRequest.messages.tool_calls.function.arguments"));
}

#[test]
fn oll_03_images_go_as_bare_base64() {
    let t = transcript(json!([{"speaker": "human", "blocks": [
        {"type": "text", "text": "What is this?"},
        {"type": "media", "mimeType": "image/png", "data": format!("data:image/png;base64,{PNG}")}]}]));
    let r = render(&t, &options("qwen2.5vl:7b", json!({}))).unwrap();
    assert_eq!(
        r.body["messages"][0],
        json!({"role": "user", "content": "What is this?", "images": [PNG]})
    );
    let bad = json!({"model": "m", "messages": [{"role": "user", "content": "x",
        "images": [format!("data:image/png;base64,{PNG}")]}]});
    let v = validate_request(Provider::Ollama, &bad);
    assert_eq!(v[0].rule, "OLL-03");
    assert_eq!(v[0].message, "illegal base64 data at input byte 4");
}

#[test]
fn oll_04_think_follows_the_options_a_boolean_or_gpt_oss_levels() {
    let t = transcript(json!([{"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]}]));
    let none = render(&t, &options("qwen3:8b", json!({}))).unwrap();
    assert!(none.body.get("think").is_none(), "the server's default");
    let on = render(
        &t,
        &options("qwen3:8b", json!({"thinking": {"enabled": true}})),
    )
    .unwrap();
    assert_eq!(on.body["think"], true);
    let off = render(
        &t,
        &options("qwen3:8b", json!({"thinking": {"enabled": false}})),
    )
    .unwrap();
    assert_eq!(off.body["think"], false);
    let level = render(
        &t,
        &options(
            "gpt-oss:20b",
            json!({"thinking": {"enabled": true, "effort": "xhigh"}}),
        ),
    )
    .unwrap();
    assert_eq!(level.body["think"], "high");
    assert!(level
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::ThinkingBudgetAdjusted));
    let gpt_off = render(
        &t,
        &options("gpt-oss:20b", json!({"thinking": {"enabled": false}})),
    )
    .unwrap();
    assert!(
        gpt_off.body.get("think").is_none(),
        "gpt-oss always reasons"
    );
    let v = validate_request(
        Provider::Ollama,
        &json!({"model": "m", "think": "minimal", "messages": []}),
    );
    assert_eq!(v[0].rule, "OLL-04");
    assert_eq!(v[0].message, "invalid think value: \"minimal\" (must be \"high\", \"medium\", \"low\", \"max\", true, or false)");
}

#[test]
fn oll_05_no_tool_choice_none_leaves_the_tools_out_and_forced_goes_as_auto() {
    let tools = json!([{"name": "ls", "description": "list", "parameters": {"type": "object"}}]);
    let t = transcript(json!([{"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]}]));
    let none = render(
        &t,
        &options("qwen3:8b", json!({"tools": tools, "toolChoice": "none"})),
    )
    .unwrap();
    assert!(none.body.get("tools").is_none());
    assert!(none.body.get("tool_choice").is_none());
    let forced = render(
        &t,
        &options(
            "qwen3:8b",
            json!({"tools": tools, "toolChoice": "required"}),
        ),
    )
    .unwrap();
    assert_eq!(forced.body["tools"][0]["function"]["name"], "ls");
    assert_eq!(forced.body["tools"][0]["type"], "function");
    assert!(forced.body.get("tool_choice").is_none());
    assert!(forced
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::ToolChoiceLowered && d.message.contains("OLL-05")));
}

#[test]
fn num_ctx_comes_from_provider_options_merged_into_the_renders_options() {
    let t = transcript(json!([{"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]}]));
    let plain = render(
        &t,
        &options("qwen3:8b", json!({"maxTokens": 512, "temperature": 0.2})),
    )
    .unwrap();
    assert_eq!(
        plain.body["options"],
        json!({"num_predict": 512, "temperature": 0.2})
    );
    let o = options(
        "qwen3:8b",
        json!({"maxTokens": 512, "temperature": 0.2, "stopSequences": ["END"],
            "providerOptions": {"ollama": {"options": {"num_ctx": 32768}, "keep_alive": "10m"}}}),
    );
    let r = render(&t, &o).unwrap();
    assert_eq!(
        r.body["options"],
        json!({"num_predict": 512, "temperature": 0.2, "stop": ["END"], "num_ctx": 32768})
    );
    assert_eq!(r.body["keep_alive"], "10m");
    assert!(r.body.get("stream").is_none());
    let bad = options(
        "qwen3:8b",
        json!({"providerOptions": {"ollama": {"options": {"num_ctx": "big"}}}}),
    );
    let e = render(&t, &bad).unwrap_err();
    assert!(
        e.to_string()
            .contains("option \"num_ctx\" must be of type integer"),
        "{e}"
    );
}

#[test]
fn a_response_format_is_the_json_schema_in_format() {
    let t = transcript(json!([{"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]}]));
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let r = render(
        &t,
        &options(
            "qwen3:8b",
            json!({"responseFormat": {"type": "json_schema", "name": "x", "schema": schema}}),
        ),
    )
    .unwrap();
    assert_eq!(r.body["format"], schema);
}

#[test]
fn oll_schema_content_is_a_string() {
    let body = json!({"model": "qwen3:8b", "messages": [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]}]});
    let v = validate_request(Provider::Ollama, &body);
    assert_eq!(v[0].rule, "OLL-SCHEMA");
    assert_eq!(v[0].message, "json: cannot unmarshal array into Go struct field ChatRequest.messages.content of type string");
}

/// The decoded message as JSON.
fn message(o: &StreamOutcome) -> Value {
    Transcript::new(vec![o.message.clone()]).to_value()[0].clone()
}

fn decode(name: &str) -> StreamOutcome {
    let mut d = StreamDecoder::new(Provider::Ollama, StreamOptions::for_model("qwen3:8b"));
    for e in events(name) {
        let _ = d.push(&e);
    }
    d.finish()
}

/// The lines of `tests/fixtures/streams/ollama/<name>.events`.
fn events(name: &str) -> Vec<String> {
    let path = stream_support::root().join(format!("ollama/{name}.events"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn ndjson_lines_decode_text_thinking_and_usage() {
    let o = decode("thinking_text");
    assert!(o.errors.is_empty() && !o.incomplete, "{:?}", o.errors);
    assert_eq!(o.stop_reason.as_str(), "end_turn");
    assert_eq!(o.usage.input_tokens, Some(14));
    assert_eq!(o.usage.output_tokens, Some(19));
    let v = message(&o);
    assert_eq!(v["blocks"][0]["thought"], "The user asks for a greeting.");
    assert_eq!(v["blocks"][0]["sourceField"], "thinking");
    assert_eq!(v["blocks"][1]["text"], "Hello there!");
}

#[test]
fn ndjson_calls_keep_ollamas_ids_and_stop_as_tool_use() {
    let o = decode("parallel_calls");
    assert_eq!(o.stop_reason.as_str(), "tool_use");
    let v = message(&o);
    assert_eq!(v["blocks"][1]["id"], "call_k3j9x2ab");
    assert_eq!(v["blocks"][2]["id"], "call_p0q7w1zt");
    assert_eq!(
        v["blocks"][2]["parameters"],
        json!({"city": "Bergen", "unit": "celsius"})
    );
}

#[test]
fn ndjson_calls_without_ids_get_minted_ids_from_the_seed() {
    let mut opts = StreamOptions::for_model("llama3.1:8b");
    opts.id_seed = Some("turn7".into());
    let mut d = StreamDecoder::new(Provider::Ollama, opts);
    for e in events("calls_without_ids") {
        d.push(&e).unwrap();
    }
    let o = d.finish();
    let v = message(&o);
    assert_eq!(v["blocks"][0]["id"], "call_turn7_0");
    assert_eq!(o.stop_reason.as_str(), "tool_use");
}

#[test]
fn ndjson_done_reason_length_is_max_tokens_and_an_error_line_is_a_provider_error() {
    assert_eq!(decode("length").stop_reason.as_str(), "max_tokens");
    let e = decode("error");
    assert!(e.incomplete || e.stop_reason.as_str() == "error");
    assert!(
        format!("{:?}", e.errors).contains("unexpected EOF"),
        "{:?}",
        e.errors
    );
    let t = decode("truncated");
    assert!(t.incomplete);
}

#[test]
fn every_golden_stream_relayed_into_ollama_lines_decodes_to_the_same_answer() {
    let mut checked = 0;
    for g in stream_support::goldens() {
        let mut d = StreamDecoder::new(g.provider, StreamOptions::for_model("m"));
        for e in &g.events {
            let _ = d.push(e);
        }
        let original = d.finish();
        if original.incomplete {
            continue;
        }
        let mut relay = StreamRelay::new(g.provider, Provider::Ollama, RelayOptions::new("m", "r"));
        let mut frames = Vec::new();
        for e in &g.events {
            frames.extend(relay.push(e));
        }
        frames.extend(relay.finish());
        assert!(frames.iter().all(|f| f.event.is_none()));
        let mut again = StreamDecoder::new(Provider::Ollama, StreamOptions::for_model("m"));
        for f in &frames {
            assert!(!f.data.contains('\n'), "one NDJSON line per frame");
            again.push(&f.data).unwrap();
        }
        let again = again.finish();
        assert!(again.errors.is_empty() && !again.incomplete, "{}", g.name());
        assert_eq!(texts(&original, true), texts(&again, false), "{}", g.name());
        assert_eq!(
            original.usage.output_tokens.unwrap_or(0),
            again.usage.output_tokens.unwrap_or(0),
            "{}",
            g.name()
        );
        checked += 1;
    }
    assert!(checked >= 20, "{checked}");
}

#[test]
fn a_whole_answer_reads_back_and_relays_into_chat() {
    // `"stream": false`: one object with the whole message (Ollama 0.12.10+ call ids).
    let answer = json!({"model": "qwen3:8b", "created_at": "2026-11-28T10:00:00Z",
        "message": {"role": "assistant", "content": "", "thinking": "Need the tool.",
            "tool_calls": [{"id": "call_ab12cd34", "function": {"index": 0, "name": "ls", "arguments": {"dir": "."}}}]},
        "done": true, "done_reason": "stop", "prompt_eval_count": 30, "eval_count": 12});
    let o = RelayOptions::new("qwen3:8b", "r1");
    let (same, outcome) = relay_whole(Provider::Ollama, Provider::Ollama, &answer, &o);
    assert_eq!(outcome.stop_reason.as_str(), "tool_use");
    assert_eq!(
        same["message"]["tool_calls"],
        answer["message"]["tool_calls"]
            .as_array()
            .map(|c| {
                json!([{"id": c[0]["id"], "function": {"name": "ls", "arguments": {"dir": "."}}}])
            })
            .unwrap()
    );
    assert_eq!(same["message"]["thinking"], "Need the tool.");
    assert_eq!(
        (
            same["prompt_eval_count"].clone(),
            same["eval_count"].clone()
        ),
        (json!(30), json!(12))
    );
    assert_eq!(same["done_reason"], "stop");
    assert_eq!(same["created_at"], "1970-01-01T00:00:00Z");
    let (chat, _) = relay_whole(Provider::Ollama, Provider::OpenAiChat, &answer, &o);
    assert_eq!(chat["choices"][0]["finish_reason"], "tool_calls");
    assert_eq!(
        chat["choices"][0]["message"]["tool_calls"][0]["id"],
        "call_ab12cd34"
    );
    let (err, _) = relay_whole(
        Provider::Ollama,
        Provider::Ollama,
        &json!({"error": "\"qwen2.5:7b\" does not support thinking"}),
        &o,
    );
    assert_eq!(
        err,
        json!({"error": "\"qwen2.5:7b\" does not support thinking"})
    );
}

/// Text, thinking and calls, each kind joined (Ollama lines carry no block boundaries).
/// `ollama_stop`: the stop reason as Ollama's `done_reason` can say it (`length`, else the turn
/// ended, with calls or not).
fn texts(o: &StreamOutcome, ollama_stop: bool) -> Value {
    let (mut text, mut thinking, mut calls) = (String::new(), String::new(), Vec::new());
    for b in &o.message.blocks {
        match b {
            turnwire::model::Block::Text(t) => text.push_str(&t.text),
            turnwire::model::Block::Thinking(t) => thinking.push_str(&t.thought),
            turnwire::model::Block::ToolCall(c) => calls.push(json!([
                c.id,
                c.name,
                c.parameters.clone().unwrap_or(json!({}))
            ])),
            _ => {}
        }
    }
    let stop = match o.stop_reason.as_str() {
        s @ ("tool_use" | "max_tokens") => s,
        _ if ollama_stop && calls.is_empty() => "end_turn",
        _ if ollama_stop => "tool_use",
        s => s,
    };
    json!([text, thinking, calls, stop])
}

#[test]
fn the_importer_pairs_results_without_ids_by_name_and_order() {
    let body = json!({"model": "llama3.1:8b", "stream": false, "think": false,
        "options": {"num_ctx": 8192, "temperature": 0.1, "num_predict": 300},
        "messages": [
        {"role": "user", "content": "go", "images": [PNG]},
        {"role": "assistant", "content": "", "tool_calls": [
            {"function": {"name": "ls", "arguments": {}}},
            {"function": {"name": "ls", "arguments": {"dir": "b"}}},
            {"function": {"name": "cat", "arguments": {"path": "a"}}}]},
        {"role": "tool", "tool_name": "ls", "content": "a"},
        {"role": "tool", "tool_name": "cat", "content": "x"},
        {"role": "tool", "tool_name": "ls", "content": "c"}]});
    let i = from_request_body(Provider::Ollama, &body, &ImportSource::default()).unwrap();
    let v = i.transcript.to_value();
    let results = &v[2]["blocks"];
    assert_eq!(results[0]["callId"], "call_1_0");
    assert_eq!(results[1]["callId"], "call_1_2");
    assert_eq!(results[2]["callId"], "call_1_1");
    assert_eq!(v[0]["blocks"][1]["mimeType"], "image/png");
    let o = i.options.unwrap();
    assert_eq!(o.max_tokens, Some(300));
    assert_eq!(o.temperature, Some(0.1));
    assert_eq!(
        o.provider_options["ollama"],
        json!({"options": {"num_ctx": 8192}})
    );
    assert_eq!(o.thinking.map(|t| t.enabled), Some(false));
    assert_eq!(o.extra["stream"], false);
}
