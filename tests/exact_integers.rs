//! Issue 10, point 3: integers in tool arguments given as JSON text survive byte for byte, also
//! beyond 2^53 and beyond 2^64, whether the arguments are a JSON object or a string holding one,
//! for every provider (as an object for Anthropic and Gemini, inside the `arguments` string for
//! the chat dialects). Decimals keep their digits (`1.0`, `-0`); an exponent is written in lower
//! case with its sign (`1E400` becomes `1e+400`), the same number.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnwire::{render_body, validate_request_text, Provider, RenderOptions, Transcript};

/// Integers no IEEE double holds exactly, in an object and in a string of JSON.
const NUMBERS: [&str; 6] = [
    "9007199254740993",                        // 2^53 + 1
    "-9223372036854775809",                    // i64::MIN - 1
    "18446744073709551617",                    // 2^64 + 1
    "123456789012345678901234567890",          // 30 digits
    "-98765432109876543210987654321098765432", // 38 digits, negative
    "340282366920938463463374607431768211457", // 2^128 + 1
];

/// A history with one call whose `parameters` JSON is `params` and a JSON tool result.
fn history(params: &str) -> String {
    format!(
        r#"[
  {{"speaker": "human", "blocks": [{{"type": "text", "text": "count"}}]}},
  {{"speaker": "ai", "metadata": {{"provider": "openai-chat", "model": "gpt-5.2"}}, "blocks": [
    {{"type": "tool_call", "id": "call_1", "name": "count", "parameters": {params}}}
  ]}},
  {{"speaker": "tool", "blocks": [
    {{"type": "tool_response", "callId": "call_1", "toolName": "count", "result": {{"big": {big}}}}}
  ]}}
]"#,
        big = NUMBERS[3]
    )
}

/// `{"n0": …, "n1": …}` over [`NUMBERS`] plus the given members.
fn arguments(more: &str) -> String {
    let members: Vec<String> = NUMBERS
        .iter()
        .enumerate()
        .map(|(i, n)| format!(r#""n{i}": {n}"#))
        .collect();
    format!("{{{}{more}}}", members.join(", "))
}

/// The body with whitespace and backslashes removed, so `"n0":9007…` reads the same whether the
/// arguments are an object (Anthropic, Gemini) or a string of JSON (the chat dialects).
fn flat_body_for(p: Provider, params: &str) -> String {
    let transcript = Transcript::from_json(&history(params)).unwrap();
    let options = RenderOptions::new(p, p.reference_model());
    let body = render_body(&transcript, &options).unwrap();
    let violations = validate_request_text(p, Some(p.reference_model()), &body).unwrap();
    assert!(violations.is_empty(), "{p:?}: {violations:?}");
    String::from_utf8(body)
        .unwrap()
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '\\')
        .collect()
}

/// Where the call's arguments start in a flattened body: an object for Anthropic, Converse and Gemini, a
/// string of JSON for the others (never a string wrapped in `{"input": …}`).
fn arguments_start(p: Provider) -> &'static str {
    match p {
        Provider::Anthropic | Provider::BedrockConverse => r#""input":{"n0":"#,
        Provider::Gemini => r#""args":{"n0":"#,
        // Ollama's `ToolCallFunctionArguments` is an object (OLL-02)
        Provider::Ollama => r#""arguments":{"n0":"#,
        _ => r#""arguments":"{"n0":"#,
    }
}

fn assert_numbers_kept(p: Provider, flat: &str) {
    assert!(flat.contains(arguments_start(p)), "{p:?}: {flat}");
    for (i, n) in NUMBERS.iter().enumerate() {
        assert!(
            flat.contains(&format!(r#""n{i}":{n}"#)),
            "{p:?} lost {n}: {flat}"
        );
    }
}

#[test]
fn issue_10_point_3_integers_beyond_2_pow_64_survive_in_object_arguments_for_every_provider() {
    for p in Provider::ALL {
        assert_numbers_kept(p, &flat_body_for(p, &arguments("")));
    }
}

#[test]
fn issue_10_point_3_integers_beyond_2_pow_64_survive_in_string_arguments_for_every_provider() {
    let text = serde_json::to_string(&arguments("")).unwrap();
    for p in Provider::ALL {
        assert_numbers_kept(p, &flat_body_for(p, &text));
    }
}

#[test]
fn issue_10_point_3_decimals_keep_their_digits_and_exponents_their_value() {
    let args = arguments(r#", "float": 1.0, "exp": 1e400, "small": 2.5E-3, "zero": -0"#);
    let text = serde_json::to_string(&args).unwrap();
    for p in Provider::ALL {
        for params in [&args, &text] {
            let flat = flat_body_for(p, params);
            for member in [
                r#""float":1.0"#,
                r#""exp":1e+400"#,
                r#""small":2.5e-3"#,
                r#""zero":-0"#,
            ] {
                assert!(flat.contains(member), "{p:?} changed {member}: {flat}");
            }
        }
    }
}

#[test]
fn issue_10_point_3_big_integer_in_a_json_tool_result_survives() {
    for p in Provider::ALL {
        let flat = flat_body_for(p, &arguments(""));
        assert!(
            flat.contains(&format!(r#""big":{}"#, NUMBERS[3])),
            "{p:?}: {flat}"
        );
    }
}
