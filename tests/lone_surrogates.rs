//! Issue 10, point 1: a history holding unpaired UTF-16 surrogates (half an emoji cut by a
//! JavaScript `slice`) is never refused. Every string position is repaired to U+FFFD with a
//! `lone_surrogate_replaced` diagnostic naming its JSON path, every provider gets a body its
//! strict validator accepts (including the new "no unpaired surrogate" rule), valid pairs stay
//! byte for byte, and repaired ids stay injective and stable.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnwire::{
    render, render_body, validate_request_text, Conversation, DiagnosticCode, Provider,
    RenderOptions, Transcript,
};

/// One history with a lone surrogate (as `JSON.stringify` writes it) in every string position,
/// one message per entry.
const MESSAGES: [&str; 5] = [
    r#"{"speaker": "human", "blocks": [{"type": "text", "text": "look at this \ud83d"}],
   "metadata": {"note": "tag \udc00"}, "client": "x\ud800"}"#,
    r#"{"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"}, "blocks": [
    {"type": "thinking", "thought": "hmm \ud83e", "signature": "sig"},
    {"type": "tool_call", "id": "call\ud800", "name": "read\ud83d", "parameters": {"path": "a", "deep": {"list": [{"q": "x\udfff"}]}}},
    {"type": "tool_call", "id": "call\ud801", "name": "read\ud83d", "parameters": "{\"path\": \"b\\ud83d\"}"}
  ]}"#,
    r#"{"speaker": "tool", "blocks": [
    {"type": "tool_response", "callId": "call\ud800", "toolName": "read\ud83d", "result": "file cut \ud83d"},
    {"type": "tool_response", "callId": "call\ud801", "toolName": "read\ud83d", "result": {"nested": ["ok", "bad \udbff"]}}
  ]}"#,
    r#"{"speaker": "ai", "blocks": [{"type": "text", "text": "done \ude00 "}]}"#,
    r#"{"speaker": "human", "blocks": [{"type": "text", "text": "👨‍👩‍👧 😀 \ud83d\ude00 \udbff\udfff thanks"}]}"#,
];

fn history() -> String {
    format!(
        r#"{{"messages": [{}], "sessionId": "s\ud800"}}"#,
        MESSAGES.join(",")
    )
}

const OPTIONS: &str = r#"{"provider": "anthropic", "model": "m", "system": "be brief \ud83d",
  "tools": [{"name": "read\ud83d", "description": "reads \udc00", "parameters": {"type": "object", "description": "x\ud800"}}],
  "extra": {"metadata": {"user_id": "u\ud800"}}}"#;

fn options_for(p: Provider) -> RenderOptions {
    let mut o = RenderOptions::from_json(OPTIONS).unwrap();
    o.provider = p;
    o.model = p.reference_model().to_string();
    if p != Provider::Anthropic {
        o.extra.clear();
    }
    o
}

fn surrogate_paths(diags: &[turnwire::Diagnostic]) -> Vec<String> {
    diags
        .iter()
        .filter(|d| d.code == DiagnosticCode::LoneSurrogateReplaced)
        .filter_map(|d| d.path.clone())
        .collect()
}

#[test]
fn lone_surrogates_in_every_string_position_are_repaired_for_every_provider() {
    let t = Transcript::from_json(&history()).unwrap();
    for p in Provider::ALL {
        let o = options_for(p);
        let out = render(&t, &o).unwrap();
        let bytes = out.body_bytes();
        let v = validate_request_text(p, Some(&o.model), &bytes).unwrap();
        assert!(v.is_empty(), "{p}: {v:#?}\n{}", out.body);
        let text = String::from_utf8(bytes).unwrap();
        assert!(
            !text.contains("\\ud8") && !text.contains("\\udc"),
            "{p}: {text}"
        );
        assert!(text.contains("file cut \u{FFFD}"), "{p}");
        let paths = surrogate_paths(&out.diagnostics);
        for expected in [
            "$.messages[0].blocks[0].text",
            "$.messages[0].metadata.note",
            "$.messages[0].client",
            "$.messages[1].blocks[0].thought",
            "$.messages[1].blocks[1].id",
            "$.messages[1].blocks[1].name",
            "$.messages[1].blocks[1].parameters.deep.list[0].q",
            "$.messages[1].blocks[2].id",
            "$[1].blocks[2].parameters.path",
            "$.messages[2].blocks[0].callId",
            "$.messages[2].blocks[0].toolName",
            "$.messages[2].blocks[0].result",
            "$.messages[2].blocks[1].result.nested[1]",
            "$.messages[3].blocks[0].text",
            "$.sessionId",
            "$.system",
            "$.tools[0].name",
            "$.tools[0].description",
            "$.tools[0].parameters.description",
        ] {
            assert!(
                paths.iter().any(|x| x == expected),
                "{p}: {expected} missing from {paths:#?}"
            );
        }
        for d in &out.diagnostics {
            if d.code == DiagnosticCode::LoneSurrogateReplaced {
                assert_eq!(d.provider, Some(p));
            }
        }
    }
}

#[test]
fn arguments_given_as_json_text_are_repaired_inside_the_text() {
    let t = Transcript::from_json(&history()).unwrap();
    let out = render(&t, &options_for(Provider::OpenAiChat)).unwrap();
    // the call's string arguments were JSON text holding `\ud83d`: parsed, repaired, sent as an object
    let calling = out.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m.get("tool_calls").is_some())
        .unwrap();
    let args = calling["tool_calls"][1]["function"]["arguments"]
        .as_str()
        .unwrap();
    assert_eq!(args, "{\"path\":\"b\u{FFFD}\"}");
    let d = out
        .diagnostics
        .iter()
        .find(|d| d.path.as_deref() == Some("$[1].blocks[2].parameters.path"))
        .unwrap_or_else(|| panic!("{:#?}", out.diagnostics));
    assert_eq!((d.message_index, d.block_index), (Some(1), Some(2)));
}

#[test]
fn valid_pairs_zwj_sequences_and_the_last_scalar_stay_byte_for_byte() {
    let t = Transcript::from_json(&history()).unwrap();
    for p in Provider::ALL {
        let text = String::from_utf8(render_body(&t, &options_for(p)).unwrap()).unwrap();
        assert!(text.contains("👨‍👩‍👧 😀 😀 \u{10FFFF} thanks"), "{p}: {text}");
    }
    let clean = Transcript::from_json(
        r#"[{"speaker":"human","blocks":[{"type":"text","text":"👨‍👩‍👧 \ud83d\ude00 \udbff\udfff"}]}]"#,
    )
    .unwrap();
    assert!(clean.read_repairs.is_empty());
}

#[test]
fn repaired_ids_stay_injective_and_stable() {
    let t = Transcript::from_json(&history()).unwrap();
    for p in Provider::ALL {
        let o = options_for(p);
        let first = render(&t, &o).unwrap();
        // two calls whose ids differed only in the lone surrogate stay two calls, each answered
        let ids: Vec<&String> = first.id_map.0.iter().map(|(c, _)| c).collect();
        if !first.id_map.0.is_empty() {
            assert!(
                ids.contains(&&"call\u{FFFD}d800".to_string()),
                "{p}: {ids:?}"
            );
            assert!(
                ids.contains(&&"call\u{FFFD}d801".to_string()),
                "{p}: {ids:?}"
            );
            let wire: std::collections::HashSet<&String> =
                first.id_map.0.iter().map(|(_, w)| w).collect();
            assert_eq!(
                wire.len(),
                first.id_map.0.len(),
                "{p}: wire ids not distinct"
            );
        }
        assert!(!first
            .diagnostics
            .iter()
            .any(|d| d.code == DiagnosticCode::DuplicateCallIdRenamed
                || d.code == DiagnosticCode::SyntheticResultAdded));
        // stable: the same input renders the same bytes, and appending message by message gives
        // the same ids as the whole history
        assert_eq!(render(&t, &o).unwrap(), first);
        let mut c = Conversation::new();
        for m in MESSAGES {
            c.append_json(m).unwrap();
            let _ = c.render(&o);
        }
        assert_eq!(c.render(&o).unwrap().id_map, first.id_map, "{p}");
    }
}

#[test]
fn conversation_reports_each_repair_at_its_message_and_renders_like_the_whole_transcript() {
    let o = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
    let mut c = Conversation::new();
    c.append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}"#)
        .unwrap();
    c.append_json(r#"{"speaker":"ai","blocks":[{"type":"text","text":"cut \ud83d"}]}"#)
        .unwrap();
    c.append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"again"}]}"#)
        .unwrap();
    let out = c.render(&o).unwrap();
    assert_eq!(surrogate_paths(&out.diagnostics), ["$[1].blocks[0].text"]);
    assert_eq!(out.diagnostics[0].message_index, Some(1));
    assert_eq!(out, render(c.transcript(), &o).unwrap());
    // and again once the cached prefix is in use
    c.append_json(r#"{"speaker":"ai","blocks":[{"type":"text","text":"ok"}]}"#)
        .unwrap();
    c.append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"more"}]}"#)
        .unwrap();
    let again = c.render(&o).unwrap();
    assert_eq!(again, render(c.transcript(), &o).unwrap());
    assert_eq!(surrogate_paths(&again.diagnostics), ["$[1].blocks[0].text"]);
}

#[test]
fn a_200_message_session_with_one_cut_emoji_renders_for_every_provider() {
    let mut msgs = Vec::new();
    for i in 0..100 {
        msgs.push(format!(
            r#"{{"speaker":"human","blocks":[{{"type":"text","text":"step {i}"}}]}}"#
        ));
        let text = if i == 57 {
            "output cut \\ud83d"
        } else {
            "output 🙂"
        };
        msgs.push(format!(
            r#"{{"speaker":"ai","blocks":[{{"type":"text","text":"{text}"}}]}}"#
        ));
    }
    let t = Transcript::from_json(&format!("[{}]", msgs.join(","))).unwrap();
    assert_eq!(t.messages.len(), 200);
    for p in Provider::ALL {
        let o = RenderOptions::new(p, p.reference_model());
        let out = render(&t, &o).unwrap();
        let v = validate_request_text(p, Some(&o.model), &out.body_bytes()).unwrap();
        assert!(v.is_empty(), "{p}: {v:#?}");
        assert_eq!(surrogate_paths(&out.diagnostics), ["$[115].blocks[0].text"]);
    }
}

#[test]
fn very_many_repairs_are_summarised() {
    let blocks: Vec<String> = (0..200)
        .map(|i| format!(r#"{{"type":"text","text":"{i} \ud83d"}}"#))
        .collect();
    let t = Transcript::from_json(&format!(
        r#"[{{"speaker":"human","blocks":[{}]}}]"#,
        blocks.join(",")
    ))
    .unwrap();
    let listed = t.read_repairs.iter().filter(|d| d.path.is_some()).count();
    let summary: Vec<_> = t.read_repairs.iter().filter(|d| d.path.is_none()).collect();
    assert_eq!(listed, turnwire::MAX_LISTED_REPAIRS);
    assert_eq!(summary.len(), 1);
    assert_eq!(summary[0].count, Some(200 - turnwire::MAX_LISTED_REPAIRS));
}

#[test]
fn every_validator_flags_an_unpaired_surrogate_escaped_or_raw() {
    let rules = [
        (Provider::Anthropic, "ANT-22"),
        (Provider::OpenAiChat, "OAC-10"),
        (Provider::OpenAiResponses, "ORS-11"),
        (Provider::Gemini, "GEM-12"),
        (Provider::Mistral, "MIS-07"),
        (Provider::Kimi, "KIM-05"),
        (Provider::DeepSeek, "DSK-05"),
        (Provider::OpenAiCompatible, "OAC-10"),
    ];
    for (p, rule) in rules {
        let clean = render(
            &Transcript::from_json(
                r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}]"#,
            )
            .unwrap(),
            &RenderOptions::new(p, p.reference_model()),
        )
        .unwrap()
        .body_bytes();
        let text = String::from_utf8(clean.clone()).unwrap();
        assert!(
            validate_request_text(p, None, &clean).unwrap().is_empty(),
            "{p}"
        );
        // the same body with the text cut mid-emoji, escaped and raw
        let escaped = text.replace("\"hi\"", "\"hi \\ud83d\"");
        let v = validate_request_text(p, None, escaped.as_bytes()).unwrap();
        assert_eq!(v.len(), 1, "{p}: {v:#?}");
        assert_eq!(v[0].rule, rule);
        assert!(
            v[0].path.ends_with("content") || v[0].path.ends_with("text"),
            "{p}: {}",
            v[0].path
        );
        let mut raw = text.replace("\"hi\"", "\"hi \u{1}\"").into_bytes();
        let at = raw.iter().position(|&b| b == 1).unwrap();
        raw.splice(at..at + 1, [0xED, 0xA0, 0xBD]);
        let v = validate_request_text(p, None, &raw).unwrap();
        assert_eq!(v.len(), 1, "{p}: {v:#?}");
        assert!(v[0].message.contains("raw bytes"), "{p}");
    }
    let anthropic = validate_request_text(
        Provider::Anthropic,
        None,
        br#"{"model":"m","max_tokens":9,"messages":[{"role":"user","content":"\ude00"}]}"#,
    )
    .unwrap();
    assert!(anthropic[0]
        .message
        .contains("invalid high surrogate in string"));
}

#[test]
fn errors_that_remain_name_the_json_path() {
    let e = Transcript::from_json(r#"[{"speaker":"human","blocks":[{"type":"text","text":tru}]}]"#)
        .unwrap_err();
    assert_eq!(e.path(), "$[0].blocks[0].text");
    let deep = format!(
        r#"[{{"speaker":"ai","blocks":[{{"type":"tool_call","id":"c","name":"n","parameters":{{"a":{}{}}}}}]}}]"#,
        "[".repeat(turnwire::MAX_DEPTH + 10),
        "]".repeat(turnwire::MAX_DEPTH + 10)
    );
    let e = Transcript::from_json(&deep).unwrap_err();
    assert!(
        e.path().starts_with("$[0].blocks[0].parameters.a[0][0]"),
        "{}",
        e.path()
    );
    assert!(e
        .message()
        .contains(&format!("deeper than {}", turnwire::MAX_DEPTH)));
    let mut c = Conversation::new();
    let e = c
        .append_json(r#"{"speaker":"human","blocks":[{"type":"text" "text":"x"}]}"#)
        .unwrap_err();
    // the text broke right after the `type` member
    assert_eq!(e.path(), "$[0].blocks[0].type");
}
