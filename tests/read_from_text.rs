//! Issue 12, point 4: `Transcript::from_json` reads the history straight from the text (no
//! `Value` tree for messages and blocks, member names borrowed). It must read exactly what
//! the same text parsed into a `Value` reads: the same transcript, or the same typed error
//! with the same code, JSON path and message — for every fixture and for generated texts
//! with repeated member names, escaped names, large numbers, nulls and wrong types anywhere.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod fixture_support;

use proptest::prelude::*;
use serde_json::Value;
use turnwire::{Error, Transcript};

/// What each reader made of `text` (only texts serde_json parses on its own).
fn both(text: &str) -> Option<(Result<Transcript, Error>, Result<Transcript, Error>)> {
    let value: Value = serde_json::from_str(text).ok()?;
    Some((
        Transcript::from_json(text),
        Transcript::from_value_owned(value),
    ))
}

fn same(text: &str) -> Result<(), TestCaseError> {
    if let Some((from_text, from_value)) = both(text) {
        match (&from_text, &from_value) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b, "{}", text),
            (Err(a), Err(b)) => {
                prop_assert_eq!(a.code(), b.code(), "{}", text);
                prop_assert_eq!(a.path(), b.path(), "{}", text);
                prop_assert_eq!(a.message(), b.message(), "{}", text);
            }
            _ => prop_assert!(
                false,
                "{text}\nfrom text: {from_text:?}\nfrom a value: {from_value:?}"
            ),
        }
    }
    Ok(())
}

#[test]
fn every_fixture_reads_the_same_from_text_and_from_a_value() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut read = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path().join("transcript.json");
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        same(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        read += 1;
    }
    assert!(read >= 50, "{read} fixtures");
}

#[test]
fn repeated_escaped_and_numeric_members_read_the_same() {
    for text in [
        // a repeated name keeps its first place and its last value
        r#"[{"speaker":"human","x":1,"blocks":[{"type":"text","text":"a","text":"b","y":2,"y":3}],"x":4}]"#,
        r#"[{"speaker":"ai","speaker":"human","blocks":[]}]"#,
        r#"[{"speaker":"human","blocks":[{"type":"mystery","n":1},{"type":"text","type":"text","text":"t"}]}]"#,
        // escaped names are the names they spell
        r#"[{"sp\u0065aker":"human","blocks":[{"typ\u0065":"text","t\u0065xt":"hi"}]}]"#,
        // numbers keep their digits wherever they are
        r#"[{"speaker":"ai","blocks":[{"type":"tool_call","id":"c","name":"f","parameters":{"n":123456789012345678901234567890,"f":1.50}}],"z":-0.0}]"#,
        r#"{"messages":[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}],"messages2":7,"v":1e400}"#,
        // wrong types at the places the shape gives meaning
        r#"[1]"#,
        r#"[{"speaker":"human","blocks":7}]"#,
        r#"[{"speaker":"human","blocks":[7]}]"#,
        r#"[{"speaker":"human","blocks":[],"metadata":[1]}]"#,
        r#"[{"speaker":"human","blocks":[{"type":"text","text":"a","provenance":"x"}]}]"#,
        r#"{"messages":{"a":1}}"#,
        r#"{"messages":12345678901234567890123}"#,
        r#"12345678901234567890123"#,
        r#"{"nothing":1}"#,
        // the ordered-transcripts agent shape
        r#"[{"User":{"content":"hi"}},{"Assistant":{"blocks":[{"Text":{"text":"yo"}}]}}]"#,
        r#"[{"role":"user","content":"hi"}]"#,
    ] {
        same(text).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// A JSON text built from names and values the history shape gives meaning, with repeated and
/// escaped names allowed.
fn arb_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_string()),
        Just("true".to_string()),
        Just("-2.50".to_string()),
        Just("123456789012345678901234567890".to_string()),
        Just("1e3".to_string()),
        prop::sample::select(
            [
                fixture_support::SHAPE_STRINGS,
                &[
                    "code",
                    "https://x.test/a.png",
                    "missing_result",
                    "a\\u0062\\n\\\""
                ],
            ]
            .concat()
        )
        .prop_map(|s| format!("\"{s}\"")),
    ];
    let key = prop::sample::select(
        [
            fixture_support::SHAPE_KEYS,
            &[
                "redactedData",
                "reasoningId",
                "encryptedContent",
                "thoughtSignature",
                "provider",
                "model",
                "sp\\u0065aker",
                "other",
            ],
        ]
        .concat(),
    );
    leaf.prop_recursive(5, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6)
                .prop_map(|items| format!("[{}]", items.join(","))),
            prop::collection::vec((key.clone(), inner), 0..7).prop_map(|members| {
                let members: Vec<String> = members
                    .into_iter()
                    .map(|(k, v)| format!("\"{k}\":{v}"))
                    .collect();
                format!("{{{}}}", members.join(","))
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Whatever the text, reading it straight and reading it as a `Value` agree.
    #[test]
    fn reading_from_text_equals_reading_from_a_value(text in arb_text()) {
        same(&text)?;
        same(&format!("[{text}]"))?;
        same(&format!("[{{\"speaker\":\"ai\",\"blocks\":[{text}]}}]"))?;
        same(&format!("[{{\"speaker\":\"ai\",\"blocks\":{text}}}]"))?;
    }
}
