//! Rendering for Gemini generateContent: every golden body and the demo sessions pass the strict
//! validator WITH the model (so GEM-05, Gemini 3 thought signatures, is enforced), plus focused
//! checks of the projection.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

mod fixture_support;

use serde_json::{json, Value};
use turnwire::providers::gemini::validate::{validate_for_endpoint, validate_with_model};
use turnwire::{render, Provider, RenderOptions, Rendered, Transcript};

const MODEL: &str = "gemini-3-pro-preview";
const PLACEHOLDER: &str = "skip_thought_signature_validator";

fn render_with(history: Value, options: Value) -> Rendered {
    let t = Transcript::from_json(&history.to_string()).unwrap();
    let mut o = json!({"provider": "gemini", "model": MODEL});
    for (k, v) in options.as_object().unwrap() {
        o[k] = v.clone();
    }
    let endpoint = o["endpoint"].as_str().map(str::to_string);
    let model = o["model"].as_str().unwrap_or(MODEL).to_string();
    let out = render(&t, &RenderOptions::from_value(o).unwrap()).unwrap();
    let v = validate_for_endpoint(&out.body, Some(&model), endpoint.as_deref());
    assert!(v.is_empty(), "render: {v:#?}");
    out
}

fn gemini(history: Value) -> Rendered {
    render_with(history, json!({}))
}

fn assert_valid(body: &Value, what: &str) {
    let v = validate_with_model(body, Some(MODEL));
    assert!(
        v.is_empty(),
        "{what}: {v:#?}\n{}",
        serde_json::to_string_pretty(body).unwrap()
    );
}

fn contents(out: &Rendered) -> &Vec<Value> {
    out.body["contents"].as_array().unwrap()
}

fn roles(out: &Rendered) -> Vec<&str> {
    contents(out)
        .iter()
        .map(|c| c["role"].as_str().unwrap())
        .collect()
}

fn human(text: &str) -> Value {
    json!({"speaker": "human", "blocks": [{"type": "text", "text": text}]})
}

fn result(call: &str, name: &str, value: Value) -> Value {
    json!({"type": "tool_response", "callId": call, "toolName": name, "result": value})
}

#[test]
fn every_gemini_golden_passes_the_validator_with_the_model() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut checked = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        let path = dir.join("gemini.json");
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let golden: Value = serde_json::from_str(&text).unwrap();
        if golden.get("error").is_some() {
            continue;
        }
        let body = &golden["body"];
        assert!(body.get("model").is_none(), "{}", path.display());
        // the case's own model (a case may render for Gemini 2.x)
        let options = fixture_support::options_for(&dir, Provider::Gemini);
        let model = options["model"].as_str().unwrap_or(MODEL);
        let v = validate_for_endpoint(body, Some(model), options["endpoint"].as_str());
        assert!(v.is_empty(), "{} ({model}): {v:#?}", path.display());
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} Gemini goldens checked");
}

#[test]
fn demo_sessions_pass_the_validator_with_the_model() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sessions");
    let mut checked = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        let Ok(t) = Transcript::from_json(&std::fs::read_to_string(&path).unwrap()) else {
            continue;
        };
        let out = render(&t, &RenderOptions::new(Provider::Gemini, MODEL)).unwrap();
        assert_valid(&out.body, &path.display().to_string());
        checked += 1;
    }
    assert!(checked >= 2);
}

#[test]
fn parallel_calls_get_one_user_content_with_every_response_in_order() {
    let out = gemini(json!([
        human("weather in Paris and Tokyo?"),
        {"speaker": "ai", "blocks": [
            {"type": "tool_call", "id": "p", "name": "get_weather", "parameters": {"city": "Paris"}},
            {"type": "tool_call", "id": "t", "name": "get_weather", "parameters": {"city": "Tokyo"}},
            {"type": "tool_call", "id": "x", "name": "get_time", "parameters": {}}
        ]},
        {"speaker": "tool", "blocks": [
            result("p", "get_weather", json!({"tempC": 14})),
            result("t", "get_weather", json!("21 and clear")),
            {"type": "tool_response", "callId": "x", "toolName": "get_time", "error": "timeout"}
        ]}
    ]));
    assert_eq!(roles(&out), ["user", "model", "user"]);
    let c = contents(&out);
    let calls: Vec<&Value> = c[1]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["functionCall"])
        .collect();
    let parts = c[2]["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 3);
    for (call, part) in calls.iter().zip(parts) {
        let r = &part["functionResponse"];
        assert_eq!(r["id"], call["id"]);
        assert_eq!(r["name"], call["name"]);
        assert!(part.get("thoughtSignature").is_none());
    }
    assert_eq!(
        parts[0]["functionResponse"]["response"],
        json!({"tempC": 14})
    );
    assert_eq!(
        parts[1]["functionResponse"]["response"],
        json!({"output": "21 and clear"})
    );
    assert_eq!(
        parts[2]["functionResponse"]["response"],
        json!({"error": "timeout"})
    );
    // The current loop's step opens with a foreign call: only the first call is signed.
    assert_eq!(c[1]["parts"][0]["thoughtSignature"], PLACEHOLDER);
    assert!(c[1]["parts"][1].get("thoughtSignature").is_none());
    assert!(c[1]["parts"][2].get("thoughtSignature").is_none());
}

#[test]
fn placeholder_on_the_first_call_of_each_step_in_every_turn() {
    let claude = json!({"provider": "anthropic", "model": "claude-sonnet-4-5"});
    let out = gemini(json!([
        human("list files"),
        {"speaker": "ai", "metadata": claude, "blocks": [
            {"type": "tool_call", "id": "toolu_1", "name": "ls", "parameters": {}}
        ]},
        {"speaker": "tool", "blocks": [result("toolu_1", "ls", json!("a.rs"))]},
        {"speaker": "ai", "metadata": claude, "blocks": [{"type": "text", "text": "One file."}]},
        human("read it"),
        {"speaker": "ai", "metadata": claude, "blocks": [
            {"type": "text", "text": "Reading."},
            {"type": "tool_call", "id": "toolu_2", "name": "read", "parameters": {"p": "a.rs"}}
        ]},
        {"speaker": "tool", "blocks": [result("toolu_2", "read", json!("fn main() {}"))]},
        {"speaker": "ai", "metadata": claude, "blocks": [
            {"type": "tool_call", "id": "toolu_3", "name": "wc", "parameters": {}},
            {"type": "tool_call", "id": "toolu_4", "name": "stat", "parameters": {}}
        ]},
        {"speaker": "tool", "blocks": [
            result("toolu_3", "wc", json!("1")),
            result("toolu_4", "stat", json!("12 B"))
        ]}
    ]));
    let c = contents(&out);
    // earlier turn: kept as it was sent while that turn was current, so the next request
    // repeats the previous one's bytes (prompt caching)
    assert_eq!(c[1]["parts"][0]["functionCall"]["name"], "ls");
    assert_eq!(c[1]["parts"][0]["thoughtSignature"], PLACEHOLDER);
    // current loop: the first call of each step, not the text before it, not the second call
    assert!(c[5]["parts"][0].get("thoughtSignature").is_none());
    assert_eq!(c[5]["parts"][1]["thoughtSignature"], PLACEHOLDER);
    assert_eq!(c[7]["parts"][0]["thoughtSignature"], PLACEHOLDER);
    assert!(c[7]["parts"][1].get("thoughtSignature").is_none());
    let signed = out.body.to_string().matches("thoughtSignature").count();
    assert_eq!(signed, 3);
}

#[test]
fn same_model_signatures_replayed_exactly_where_they_were_with_gemini_call_ids() {
    let gem = json!({"provider": "gemini", "model": MODEL});
    let out = gemini(json!([
        human("weather?"),
        {"speaker": "ai", "metadata": gem, "blocks": [
            {"type": "thinking", "thought": "two lookups", "thoughtSignature": "VEhPVUdIVA=="},
            {"type": "tool_call", "id": "a", "name": "get_weather", "parameters": {"city": "Oslo"}, "thoughtSignature": "Q0FMTF9B"},
            {"type": "tool_call", "id": "b", "name": "get_weather", "parameters": {"city": "Bergen"}}
        ]},
        {"speaker": "tool", "blocks": [
            result("a", "get_weather", json!({"tempC": 3})),
            result("b", "get_weather", json!({"tempC": 7}))
        ]},
        {"speaker": "ai", "metadata": gem, "blocks": [
            {"type": "text", "text": "Bergen is warmer.", "thoughtSignature": "VEVYVA=="}
        ]},
        human("and tomorrow?"),
        {"speaker": "ai", "metadata": gem, "blocks": [
            {"type": "tool_call", "id": "c", "name": "forecast", "parameters": {}, "thoughtSignature": "Q0FMTF9D"}
        ]},
        {"speaker": "tool", "blocks": [result("c", "forecast", json!("snow"))]}
    ]));
    let c = contents(&out);
    assert_eq!(
        c[1]["parts"],
        json!([
            {"functionCall": {"name": "get_weather", "id": "a", "args": {"city": "Oslo"}}, "thoughtSignature": "Q0FMTF9B"},
            {"functionCall": {"name": "get_weather", "id": "b", "args": {"city": "Bergen"}}}
        ])
    );
    // GEM-22: the ids Gemini 3 minted go back with the calls and their responses
    assert_eq!(c[2]["parts"][0]["functionResponse"]["id"], "a");
    assert_eq!(c[2]["parts"][1]["functionResponse"]["id"], "b");
    assert_eq!(
        c[3]["parts"],
        json!([{"text": "Bergen is warmer.", "thoughtSignature": "VEVYVA=="}])
    );
    assert_eq!(c[5]["parts"][0]["thoughtSignature"], "Q0FMTF9D");
    for i in [2, 6] {
        for part in c[i]["parts"].as_array().unwrap() {
            assert!(part.get("functionResponse").is_some());
            assert!(part.get("thoughtSignature").is_none());
            assert!(part["functionResponse"].get("thoughtSignature").is_none());
        }
    }
    // the thought itself never goes back, and no placeholder was needed
    assert!(!out.body.to_string().contains("VEhPVUdIVA=="));
    assert!(!out.body.to_string().contains(PLACEHOLDER));
}

#[test]
fn results_attached_text_and_next_user_message_share_one_user_content() {
    let out = gemini(json!([
        human("install"),
        {"speaker": "ai", "blocks": [{"type": "tool_call", "id": "i", "name": "sh", "parameters": {"cmd": "npm ci"}}]},
        {"speaker": "tool", "blocks": [
            result("i", "sh", json!("added 412 packages")),
            {"type": "text", "text": "(approved once)"}
        ]},
        {"speaker": "human", "blocks": [
            {"type": "text", "text": "Now run the tests."},
            {"type": "media", "mimeType": "image/png", "data": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "encoding": "url"}
        ]}
    ]));
    assert_eq!(roles(&out), ["user", "model", "user"]);
    let parts = contents(&out)[2]["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 4, "{parts:#?}");
    assert_eq!(parts[0]["functionResponse"]["name"], "sh");
    assert_eq!(parts[1], json!({"text": "(approved once)"}));
    assert_eq!(parts[2], json!({"text": "Now run the tests."}));
    assert_eq!(parts[3]["inlineData"]["mimeType"], "image/png");
    assert!(parts[3]["inlineData"]["data"]
        .as_str()
        .unwrap()
        .starts_with("iVBORw0KGgo"));
}

#[test]
fn system_instruction_tools_and_generation_config_in_order() {
    let out = render_with(
        json!([
            {"speaker": "system", "blocks": [{"type": "text", "text": "From the history."}]},
            human("hi")
        ]),
        json!({
            "system": "Be brief.",
            "maxTokens": 512,
            "temperature": 0.3,
            "topP": 0.9,
            "thinking": {"enabled": true, "budgetTokens": 2048},
            "tools": [{"name": "fs.read", "description": "Read", "parameters": {"type": "object"}}, {"name": "ls"}],
            "extra": {"safetySettings": []}
        }),
    );
    let keys: Vec<&str> = out
        .body
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "contents",
            "systemInstruction",
            "tools",
            "generationConfig",
            "safetySettings"
        ]
    );
    assert_eq!(
        out.body["systemInstruction"],
        json!({"parts": [{"text": "Be brief.\n\nFrom the history."}]})
    );
    assert_eq!(
        out.body["tools"],
        json!([{"functionDeclarations": [
            {"name": "fs_read", "description": "Read", "parametersJsonSchema": {"type": "object"}},
            {"name": "ls"}
        ]}])
    );
    assert_eq!(
        out.body["generationConfig"],
        json!({
            "maxOutputTokens": 512,
            "temperature": 0.3,
            "topP": 0.9,
            "thinkingConfig": {"includeThoughts": true, "thinkingBudget": 2048}
        })
    );
    // nothing optional when nothing is set
    let bare = gemini(json!([human("hi")]));
    assert_eq!(
        bare.body,
        json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]})
    );
}

#[test]
fn history_opening_with_a_model_turn_gets_a_leading_user_content() {
    let out = gemini(json!([
        {"speaker": "ai", "blocks": [{"type": "text", "text": "Hi, what shall we do?"}]},
        human("Show the open PRs.")
    ]));
    assert_eq!(roles(&out), ["user", "model", "user"]);
    assert_eq!(
        contents(&out)[0]["parts"],
        json!([{"text": "(continuing an earlier conversation)"}])
    );
}

/// A turn of `n` parallel calls whose first result returned a PNG, then the user's question.
fn parallel_with_image(n: usize) -> Value {
    let calls: Vec<Value> = (0..n)
        .map(|i| json!({"type": "tool_call", "id": format!("c{i}"), "name": format!("tool{i}"), "parameters": {}}))
        .collect();
    let mut results = Vec::new();
    for i in 0..n {
        results.push(json!({"type": "tool_response", "callId": format!("c{i}"), "toolName": format!("tool{i}"), "result": "ok"}));
        if i == 0 {
            results.push(json!({"type": "media", "mimeType": "image/png", "data": "iVBORw0KGgo=", "encoding": "base64"}));
        }
    }
    json!([
        human("go"),
        {"speaker": "ai", "metadata": {"provider": "openai-chat", "model": "gpt-5.2"}, "blocks": calls},
        {"speaker": "tool", "blocks": results},
        human("and?")
    ])
}

/// Every Gemini family: the media of a parallel turn lands where the model takes it, and the
/// content answering the calls holds exactly one response per call and no media beside them.
#[test]
fn gem_17_gem_18_tool_media_from_parallel_calls_for_every_gemini_family() {
    let families = [
        ("gemini-3-pro-preview", true),
        ("gemini-3-flash-preview", true),
        ("gemini-3.1-pro", true),
        ("gemini-2.5-pro", false),
        ("gemini-2.5-flash", false),
        ("gemini-2.5-flash-lite", false),
        ("gemini-2.0-flash", false),
        ("gemini-1.5-pro", false),
        ("gemini-experimental-next", false),
    ];
    for (model, nested) in families {
        for n in [1, 2, 3] {
            let t = Transcript::from_json(&parallel_with_image(n).to_string()).unwrap();
            let out = render(&t, &RenderOptions::new(Provider::Gemini, model)).unwrap();
            let v = validate_with_model(&out.body, Some(model));
            assert!(v.is_empty(), "{model} n={n}: {v:#?}");
            let c = contents(&out);
            let answer = &c[2]["parts"];
            let responses = answer
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p.get("functionResponse").is_some())
                .count();
            assert_eq!(responses, n, "{model} n={n}");
            let nested_parts = &answer[0]["functionResponse"]["parts"];
            let image = json!({"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}});
            if nested {
                assert_eq!(nested_parts, &json!([image]), "{model} n={n}");
                assert_eq!(roles(&out), ["user", "model", "user"], "{model} n={n}");
            } else if n == 1 {
                // One call: the image follows its response in the same content (2.x accepts it).
                assert!(nested_parts.is_null(), "{model}");
                assert_eq!(answer[2], image, "{model}: {answer}");
                assert_eq!(roles(&out), ["user", "model", "user"], "{model} n={n}");
            } else {
                // Parallel calls: the image goes after a bridging model turn.
                assert!(nested_parts.is_null(), "{model}");
                assert_eq!(
                    roles(&out),
                    ["user", "model", "user", "model", "user"],
                    "{model} n={n}"
                );
                assert_eq!(c[4]["parts"][1], image, "{model} n={n}");
                assert_eq!(c[4]["parts"][2]["text"], "and?", "{model} n={n}");
            }
        }
    }
}

/// A Gemini 3 assistant message (its provenance names the model, and the endpoint when given).
fn gemini_ai(blocks: Value, endpoint: Option<&str>) -> Value {
    let mut metadata = json!({"provider": "gemini", "model": MODEL});
    if let Some(e) = endpoint {
        metadata["providerBaseURL"] = json!(e);
    }
    json!({"speaker": "ai", "metadata": metadata, "blocks": blocks})
}

fn call(id: &str, name: &str, signature: Option<&str>) -> Value {
    let mut c = json!({"type": "tool_call", "id": id, "name": name, "parameters": {}});
    if let Some(s) = signature {
        c["thoughtSignature"] = json!(s);
    }
    c
}

/// Two parallel Gemini 3 calls of one tool, answered in the other order.
fn parallel_history(endpoint: Option<&str>) -> Value {
    json!([
        human("two reads"),
        gemini_ai(json!([call("k3v9", "read", Some("U0lHMQ==")), call("p0x7", "read", None)]), endpoint),
        {"speaker": "tool", "blocks": [result("p0x7", "read", json!("b")), result("k3v9", "read", json!("a"))]}
    ])
}

fn ids_of(out: &Rendered, key: &str) -> Vec<Value> {
    contents(out)
        .iter()
        .flat_map(|c| c["parts"].as_array().unwrap())
        .filter_map(|p| p.get(key))
        .map(|x| x.get("id").cloned().unwrap_or(Value::Null))
        .collect()
}

#[test]
fn gem_22_function_response_echoes_call_id() {
    let out = gemini(parallel_history(None));
    assert_eq!(ids_of(&out, "functionCall"), [json!("k3v9"), json!("p0x7")]);
    // responses follow the calls' order and carry their call's id
    assert_eq!(
        ids_of(&out, "functionResponse"),
        [json!("k3v9"), json!("p0x7")]
    );
    let c = contents(&out);
    assert_eq!(
        c[2]["parts"][0]["functionResponse"]["response"]["output"],
        "a"
    );
    assert_eq!(out.id_map.get("p0x7"), Some("p0x7"));
}

#[test]
fn gem_22_no_call_ids_to_an_explicit_v1_endpoint() {
    let v1 =
        "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/l/publishers/google";
    let out = render_with(parallel_history(Some(v1)), json!({"endpoint": v1}));
    assert_eq!(ids_of(&out, "functionCall"), [Value::Null, Value::Null]);
    assert_eq!(ids_of(&out, "functionResponse"), [Value::Null, Value::Null]);
    assert!(out.id_map.0.is_empty());
    let d: Vec<&str> = out
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "request_field_dropped")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].contains("stable `v1` API") && d[0].contains("GEM-22"),
        "{}",
        d[0]
    );
    // the same history to v1beta keeps them
    let beta = "https://us-central1-aiplatform.googleapis.com/v1beta1/projects/p/locations/l/publishers/google";
    let out = render_with(parallel_history(Some(beta)), json!({"endpoint": beta}));
    assert_eq!(ids_of(&out, "functionCall"), [json!("k3v9"), json!("p0x7")]);
}

#[test]
fn gem_22_no_call_ids_for_gemini_2_or_ids_gemini_did_not_mint() {
    // a Gemini 2.5 target pairs by order and name, as before
    let out = render_with(parallel_history(None), json!({"model": "gemini-2.5-pro"}));
    assert_eq!(ids_of(&out, "functionCall"), [Value::Null, Value::Null]);
    // calls another provider made, or Gemini 2.5 made, or turnwire minted ids for
    let claude = json!({"provider": "anthropic", "model": "claude-sonnet-4-5"});
    let g25 = json!({"provider": "gemini", "model": "gemini-2.5-pro"});
    let out = gemini(json!([
        human("go"),
        {"speaker": "ai", "metadata": claude, "blocks": [call("toolu_01", "ls", None)]},
        {"speaker": "tool", "blocks": [result("toolu_01", "ls", json!("a"))]},
        {"speaker": "ai", "metadata": g25, "blocks": [call("x1", "ls", None)]},
        {"speaker": "tool", "blocks": [result("x1", "ls", json!("a"))]},
        gemini_ai(json!([call("gemini_call_r1_0", "ls", None)]), None),
        {"speaker": "tool", "blocks": [result("gemini_call_r1_0", "ls", json!("a"))]}
    ]));
    assert!(out.id_map.0.is_empty());
    assert!(ids_of(&out, "functionCall").iter().all(Value::is_null));
    assert!(ids_of(&out, "functionResponse").iter().all(Value::is_null));
}

#[test]
fn gem_22_a_turn_mixing_gemini_ids_and_others_pairs_by_order() {
    let claude = json!({"provider": "anthropic", "model": "claude-sonnet-4-5"});
    let mut foreign = call("toolu_02", "read", None);
    foreign["provenance"] = claude;
    let out = gemini(json!([
        human("two reads"),
        gemini_ai(json!([call("k3v9", "read", Some("U0lHMQ==")), foreign]), None),
        {"speaker": "tool", "blocks": [result("k3v9", "read", json!("a")), result("toolu_02", "read", json!("b"))]}
    ]));
    assert_eq!(ids_of(&out, "functionCall"), [Value::Null, Value::Null]);
    assert!(out
        .diagnostics
        .iter()
        .any(|d| d.code.as_str() == "request_field_dropped"
            && d.message.contains("1 of the 2 calls")));
}

const VERTEX: &str = "https://us-central1-aiplatform.googleapis.com/v1beta1/projects/p/locations/l/publishers/google";
const AI_STUDIO: &str = "https://generativelanguage.googleapis.com";

/// The signature replayed on the call of `history` rendered with `endpoint`, and the reasons
/// given for dropping signatures.
fn replayed(history: Value, endpoint: Option<&str>) -> (Value, Vec<String>) {
    let options = endpoint.map_or(json!({}), |e| json!({"endpoint": e}));
    let out = render_with(history, options);
    let sig = contents(&out)[1]["parts"][0]["thoughtSignature"].clone();
    let why = out
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "continuity_dropped")
        .map(|d| d.message.clone())
        .collect();
    (sig, why)
}

#[test]
fn gem_23_signature_not_replayed_across_vertex_and_ai_studio() {
    let history = |endpoint: Option<&str>, provider: &str| {
        let mut h = parallel_history(endpoint);
        h[1]["metadata"]["provider"] = json!(provider);
        h
    };
    // minted on Vertex (endpoint, or a Vertex provider name), sent to AI Studio: placeholder
    for h in [
        history(Some(VERTEX), "gemini"),
        history(None, "google-vertex"),
    ] {
        let (sig, why) = replayed(h, Some(AI_STUDIO));
        assert_eq!(sig, PLACEHOLDER);
        assert_eq!(why.len(), 1, "{why:?}");
        assert!(
            why[0].contains("Vertex AI") && why[0].contains("GEM-23"),
            "{}",
            why[0]
        );
    }
    // and back
    let (sig, why) = replayed(history(Some(AI_STUDIO), "gemini"), Some(VERTEX));
    assert_eq!(sig, PLACEHOLDER);
    assert!(
        why[0].contains("Corrupted thought signature."),
        "{}",
        why[0]
    );
    // the same family: replayed
    let (sig, _) = replayed(history(None, "google-vertex"), Some(VERTEX));
    assert_eq!(sig, "U0lHMQ==");
    // issue 32: a render that names no endpoint and no host goes to its provider's own host
    // (AI Studio for `gemini`), so a Vertex signature is not replayed there
    let (sig, why) = replayed(history(None, "google-vertex"), None);
    assert_eq!(sig, PLACEHOLDER);
    assert!(why[0].contains("GEM-23"), "{}", why[0]);
    // unknown on either side: today's key (same model) decides
    let (sig, _) = replayed(history(None, "gemini"), Some(AI_STUDIO));
    assert_eq!(sig, "U0lHMQ==");
    let (sig, _) = replayed(
        history(None, "google-vertex"),
        Some("https://gateway.example.com"),
    );
    assert_eq!(sig, "U0lHMQ==");
}

#[test]
fn gem_24_signed_empty_text_part_kept_unsigned_ones_dropped() {
    let out = gemini(json!([
        human("hi"),
        gemini_ai(
            json!([
                {"type": "text", "text": "Hello."},
                {"type": "text", "text": "", "thoughtSignature": "U0lHVA=="},
                {"type": "text", "text": ""},
                {"type": "text", "text": "More.", "thoughtSignature": "U0lHMg=="}
            ]),
            None
        ),
        human("bye")
    ]));
    assert_eq!(
        contents(&out)[1]["parts"],
        json!([
            {"text": "Hello."},
            {"text": "", "thoughtSignature": "U0lHVA=="},
            {"text": "More.", "thoughtSignature": "U0lHMg=="}
        ])
    );
    // for another model the signature goes, and with it the empty part
    let out = render_with(
        json!([
            human("hi"),
            {"speaker": "ai", "metadata": {"provider": "gemini", "model": "gemini-3-flash"}, "blocks": [
                {"type": "text", "text": "Hello."},
                {"type": "text", "text": "", "thoughtSignature": "U0lHVA=="}
            ]},
            human("bye")
        ]),
        json!({}),
    );
    assert_eq!(contents(&out)[1]["parts"], json!([{"text": "Hello."}]));
}

#[test]
fn gem_22_importer_pairs_responses_by_id_never_by_name_when_ids_exist() {
    use turnwire::import::{from_gemini, ImportSource};
    use turnwire::model::Block;
    let contents = json!([
        {"role": "user", "parts": [{"text": "two reads"}]},
        {"role": "model", "parts": [
            {"functionCall": {"name": "read", "id": "k3v9", "args": {"p": "a"}}, "thoughtSignature": "U0lHMQ=="},
            {"functionCall": {"name": "read", "id": "p0x7", "args": {"p": "b"}}}
        ]},
        {"role": "user", "parts": [
            {"functionResponse": {"name": "read", "id": "k3v9", "response": {"output": "A"}}},
            {"functionResponse": {"name": "read", "response": {"output": "B"}}}
        ]}
    ]);
    let source = ImportSource {
        model: Some(MODEL.into()),
        ..Default::default()
    };
    let t = from_gemini(&contents, None, &source).unwrap().transcript;
    let answered: Vec<&str> = t.messages[2]
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::ToolResponse(r) => Some(r.call_id.as_str()),
            _ => None,
        })
        .collect();
    // the response without an id answers the call still open, not the one answered by id
    assert_eq!(answered, ["k3v9", "p0x7"]);
    // rendered back for Gemini 3, both ids go out again
    let out = render(&t, &RenderOptions::new(Provider::Gemini, MODEL)).unwrap();
    assert_eq!(
        ids_of(&out, "functionResponse"),
        [json!("k3v9"), json!("p0x7")]
    );
}

#[test]
fn gem_22_a_call_merged_into_a_gemini_turn_keeps_its_own_origin() {
    // found by tests/switch_chains.rs: a Mistral call stored right after a Gemini 3 message
    // merges into that model turn, and was echoed as if Gemini had minted its id
    let out = gemini(json!([
        human("go"),
        gemini_ai(json!([{"type": "text", "text": "Let me look."}]), None),
        {"speaker": "ai", "metadata": {"provider": "mistral", "model": "mistral-large-latest"},
         "blocks": [call("0000M72K0", "ls", None)]},
        {"speaker": "tool", "blocks": [result("0000M72K0", "ls", json!("a"))]}
    ]));
    assert_eq!(contents(&out).len(), 3, "merged into one model turn");
    assert_eq!(ids_of(&out, "functionCall"), [Value::Null]);
    assert!(out.id_map.0.is_empty());
    // and it opens a step without Gemini's signature: the placeholder, as for any foreign call
    assert_eq!(
        contents(&out)[1]["parts"][1]["thoughtSignature"],
        PLACEHOLDER
    );
}
