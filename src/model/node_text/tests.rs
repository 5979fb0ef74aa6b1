//! Tests of the JSON text reader: fixed cases and a property test against serde_json's path.

use serde::Deserialize;

use super::*;

/// What the reader builds, if it reads the text.
fn fast(text: &str) -> Option<Node<'_>> {
    match read_transcript(text) {
        OwnRead::Read(node) => Some(node),
        _ => None,
    }
}

/// What serde_json parses from `text`, written out (so member order counts: `Map`'s `==`
/// ignores it).
fn by_serde(text: &str) -> Option<String> {
    serde_json::from_str::<Value>(text)
        .ok()
        .map(|v| v.to_string())
}

/// What the reader reads, written out.
fn by_reader(text: &str) -> Option<String> {
    fast(text).map(|n| n.into_value().to_string())
}

fn same(text: &str) {
    assert!(fast(text).is_some(), "gave up on {text}");
    assert_eq!(by_reader(text), by_serde(text), "{text}");
}

#[test]
fn reads_the_history_shape_as_serde_json_does() {
    same(
        r#"{"messages":[{"speaker":"ai","blocks":[{"type":"tool_call","id":"c","parameters":{"a":[1,2.5,-0,1e400,1E-5,123456789012345678901234567890],"b":{"c":null,"d":true,"e":false}},"provenance":{"p":[1,{"x":"y"}]}}],"metadata":{"k":"v"}}],"x":1}"#,
    );
    same(" [ ] ");
    same(r#"[{"speaker":"human","n":1,"blocks":[],"n":2,"speaker":"ai"}]"#);
    same(r#"[{"blocks":[{"parameters":{"a":1,"b":2,"a":3}}]}]"#);
    same(r#"[{"sp\u0065aker":"h\"u\\m\/a\b\f\n\r\tn \u00e9 \ud83d\ude00 \u2028"}]"#);
    same(r#"["a", 1, null, [[{}]], {"messages": 1}]"#);
    same(r#""just a string""#);
    same("12.5e+3");
    same("{}");
}

#[test]
fn the_history_shape_keeps_member_names_borrowed_and_the_rest_as_values() {
    let text = r#"{"messages":[{"speaker":"ai","blocks":[{"type":"tool_call","id":"c","parameters":{"a":[1,2.5]}}]}],"x":1}"#;
    let Some(Node::Object(top)) = fast(text) else {
        panic!("an object")
    };
    assert!(matches!(top[0].0, Cow::Borrowed("messages")));
    let Node::Array(messages) = &top[0].1 else {
        panic!("an array")
    };
    let Node::Object(message) = &messages[0] else {
        panic!("a message")
    };
    let Some(Node::Array(blocks)) = super::super::node::get(message, "blocks") else {
        panic!("blocks")
    };
    let Node::Object(block) = &blocks[0] else {
        panic!("a block")
    };
    assert_eq!(
        super::super::node::get(block, "parameters"),
        Some(&Node::Value(serde_json::json!({"a": [1, 2.5]})))
    );
    assert_eq!(top[1].1, Node::Value(serde_json::json!(1)));
}

#[test]
fn escaped_names_are_owned_and_plain_ones_borrowed() {
    let Some(Node::Array(messages)) = fast(r#"[{"sp\u0065aker":"human","blocks":[]}]"#) else {
        panic!("an array")
    };
    let Node::Object(m) = &messages[0] else {
        panic!("an object")
    };
    assert!(matches!(&m[0].0, Cow::Owned(k) if k == "speaker"));
    assert!(matches!(&m[1].0, Cow::Borrowed("blocks")));
}

#[test]
fn gives_up_on_what_serde_jsons_path_must_read() {
    for text in [
        "",
        "[",
        "[1,]",
        "{\"a\" 1}",
        "[1] x",
        "[01]",
        "[1.]",
        "[-]",
        "[1e]",
        "[tru]",
        "[\"a\u{1}\"]",
        r#"["\ud800"]"#,
        r#"["\ud800\u0041"]"#,
        r#"["\udc00"]"#,
        r#"["\x"]"#,
        r#"["\u12g4"]"#,
        r#"[{"$serde_json::private::Number":"1"}]"#,
        "[\"unterminated",
    ] {
        assert!(fast(text).is_none(), "{text:?}");
    }
    let deep = format!("{}{}", "[".repeat(129), "]".repeat(129));
    assert!(fast(&deep).is_none());
    let fine = format!("{}{}", "[".repeat(100), "]".repeat(100));
    same(&fine);
}

/// JSON text of any shape: the history's member names among others, every escape form,
/// numbers as written, whitespace anywhere; with `broken`, also lone surrogates and raw
/// control characters, which only serde_json's path may read.
fn text(broken: bool) -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let mut pieces = vec![
        "[a-z é😀漢]{0,6}",
        r#"\\""#,
        r"\\\\",
        r"\\/",
        r"\\b",
        r"\\f",
        r"\\n",
        r"\\t",
        r"\\u00e9",
        r"\\u0041",
        r"\\ud83d\\ude00",
        r"\\u2028",
        r"\\u0000",
        r"\\uD83D\\uDE00",
    ];
    if broken {
        pieces.extend([r"\\ud800", r"\\udc00x", "\u{1}"]);
    }
    let piece = proptest::sample::select(pieces).prop_flat_map(|p| p);
    let string = proptest::collection::vec(piece, 0..5).prop_map(|p| format!("\"{}\"", p.concat()));
    let space = proptest::sample::select(vec!["", " ", "\n", "\t ", "\r\n"]);
    let number = "-?(0|[1-9][0-9]{0,24})(\\.[0-9]{1,4})?([eE][+-]?[0-9]{1,3})?";
    let leaf = prop_oneof![
        string.clone(),
        number.prop_map(String::from),
        proptest::sample::select(vec!["true", "false", "null"]).prop_map(String::from),
    ];
    let name = prop_oneof![
        proptest::sample::select(vec![
            "messages",
            "blocks",
            "metadata",
            "provenance",
            "speaker",
            "a",
            "b"
        ])
        .prop_map(|k| format!("\"{k}\"")),
        string,
    ];
    leaf.prop_recursive(5, 64, 6, move |inner| {
        let item = (space.clone(), inner, space.clone()).prop_map(|(a, v, b)| format!("{a}{v}{b}"));
        prop_oneof![
            proptest::collection::vec(item.clone(), 0..5)
                .prop_map(|items| format!("[{}]", items.join(","))),
            proptest::collection::vec((name.clone(), item), 0..5).prop_map(|members| {
                let members: Vec<String> = members
                    .into_iter()
                    .map(|(k, v)| format!("{k}:{v}"))
                    .collect();
                format!("{{{}}}", members.join(","))
            }),
        ]
    })
}

proptest::proptest! {
    #[test]
    fn reads_any_well_formed_text_as_serde_jsons_path_does(t in text(false)) {
        proptest::prop_assert!(fast(&t).is_some(), "gave up on {}", t);
        proptest::prop_assert_eq!(by_reader(&t), by_serde(&t));
    }

    #[test]
    fn never_reads_text_differently_from_serde_jsons_path(t in text(true)) {
        if fast(&t).is_some() {
            proptest::prop_assert_eq!(by_reader(&t), by_serde(&t));
        }
        proptest::prop_assert_eq!(with_own(&t), by_serde_only(&t));
    }
}

/// A document read as `Transcript::from_json` reads it, with the reader tried first: the
/// value, the paths of the repaired strings, or the error.
fn with_own(text: &str) -> Result<(String, Vec<String>), String> {
    let read = crate::json::parse_with_own(
        text,
        "$",
        "the text",
        |t| read_transcript(t).map(Node::into_value),
        |de| Value::deserialize(de),
    );
    outcome(read)
}

/// The same through serde_json's path alone.
fn by_serde_only(text: &str) -> Result<(String, Vec<String>), String> {
    let read = crate::json::parse_with(text, "$", "the text", |de| Value::deserialize(de));
    outcome(read)
}

fn outcome(
    read: Result<(Value, Vec<crate::json::SurrogateRepair>), crate::Error>,
) -> Result<(String, Vec<String>), String> {
    read.map(|(v, repairs)| {
        let paths = repairs
            .iter()
            .map(|r| format!("{:?} {:?} {}", r.path, r.units, r.identifier));
        (v.to_string(), paths.collect())
    })
    .map_err(|e| format!("{e:?}"))
}

#[test]
fn stops_at_a_lone_surrogate_and_reads_the_repaired_text_as_serde_jsons_path_does() {
    for text in [
        r#"["cut \ud83d"]"#,
        r#"["\udc00"]"#,
        r#"["\ud800\u0041"]"#,
        r#"[{"speaker":"tool","blocks":[{"type":"tool_response","callId":"a\ud800","result":"x\ude00y"}]}]"#,
        r#"["\ud800", 1,]"#,
    ] {
        assert!(
            matches!(read_transcript(text), OwnRead::LoneSurrogate),
            "{text}"
        );
        assert_eq!(with_own(text), by_serde_only(text), "{text}");
    }
    assert!(matches!(read_transcript("[1,]"), OwnRead::GaveUp));
    assert_eq!(with_own("[1,]"), by_serde_only("[1,]"));
}
