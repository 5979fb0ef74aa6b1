#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Tool-call id and tool-name projection (spec 915 §7, REQ-915-014..022 and 049;
//! provider-rules.md ANT-07/08, OAC-03/04/05, MIS-01, KIM-01, ORS-08, X4).

use std::collections::{HashMap, HashSet};

use proptest::prelude::*;
use turnwire::ids::{IdFormat, IdProjector, ToolNameProjector};

const ALL_FORMATS: [IdFormat; 5] = [
    IdFormat::OpenAi,
    IdFormat::Anthropic,
    IdFormat::Kimi,
    IdFormat::Mistral,
    IdFormat::Responses,
];

/// Projects `ids` (all calls to tool `tool`) in order with a fresh projector.
fn project_all(format: IdFormat, ids: &[&str]) -> Vec<String> {
    let mut p = IdProjector::new(format);
    ids.iter().map(|id| p.project(id, "tool")).collect()
}

fn one(format: IdFormat, id: &str) -> String {
    project_all(format, &[id]).remove(0)
}

fn assert_valid_and_distinct(format: IdFormat, projected: &[String]) {
    for id in projected {
        assert!(format.is_valid(id), "{format:?}: invalid id {id:?}");
    }
    let unique: HashSet<&String> = projected.iter().collect();
    assert_eq!(
        unique.len(),
        projected.len(),
        "{format:?}: duplicate in {projected:?}"
    );
}

/// Degenerate and foreign ids from the provider-rules issue reports.
const NASTY_IDS: [&str; 16] = [
    "call_PTLP8xhu3uwZk4l3nlnrrJha",
    "call_0fypS1hVX",
    "2968-LWy3uasib",
    "turn1_0",
    "abc123",
    "call_search",
    "toolu_01A09q90qw90lq917835lq9",
    "toolu_vrtx_01XyZ",
    "hist_tool_01HZX3",
    "functions.read_file:0",
    "mcp.server:tool/call.1",
    "fc_68a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3|call_AbCdEfGhIjKlMnOpQrStUvWx",
    "ws_6899e0c3f9f08190a9e0b3d5e0d7d2fa06c4a2d7b3e0f1a2",
    "portkey-8a1c5e8e-0c5f-4d7b-9b55-3f2d6a1e9c44",
    "",
    "  ",
];

#[test]
fn req_915_014_one_canonical_transcript_projects_to_every_format() {
    // Canonical ids stay provider-neutral: projecting never consumes or changes them, and the
    // same canonical list renders to every format independently.
    let canonical: Vec<String> = NASTY_IDS.iter().map(|s| s.to_string()).collect();
    for format in ALL_FORMATS {
        let refs: Vec<&str> = canonical.iter().map(String::as_str).collect();
        let projected = project_all(format, &refs);
        assert_valid_and_distinct(format, &projected);
    }
    assert_eq!(canonical, NASTY_IDS.map(str::to_string).to_vec());
}

#[test]
fn req_915_015_projection_keeps_call_result_pairing() {
    // Calls are projected once, in order; results (in any order) look their call's id up.
    let calls = ["toolu_A", "call_B", "x.y", "", "abc123"];
    let results = [4usize, 2, 0, 3, 1];
    for format in ALL_FORMATS {
        let mut p = IdProjector::new(format);
        let call_ids: Vec<String> = calls.iter().map(|c| p.project(c, "read")).collect();
        let by_index: HashMap<usize, &String> = call_ids.iter().enumerate().collect();
        for r in results {
            assert_eq!(by_index[&r], &call_ids[r]);
        }
        assert_valid_and_distinct(format, &call_ids);
    }
}

#[test]
fn req_915_017_call_and_result_share_projected_id_across_renders() {
    // The id a call gets is a pure function of the transcript prefix, so re-rendering for the
    // result reference (or the next turn) yields exactly the same id.
    for format in ALL_FORMATS {
        let first = project_all(format, &NASTY_IDS);
        let second = project_all(format, &NASTY_IDS);
        assert_eq!(first, second, "{format:?}");
    }
}

#[test]
fn req_915_018_openai_ids_start_with_call() {
    for format in [IdFormat::OpenAi, IdFormat::Responses] {
        for id in project_all(format, &NASTY_IDS) {
            assert!(id.starts_with("call_"), "{id}");
            assert!(format.is_valid(&id), "{id}");
        }
    }
}

#[test]
fn req_915_018_oac_03_openai_ids_fit_40_chars() {
    let long = "ws_6899e0c3f9f08190a9e0b3d5e0d7d2fa06c4a2d7b3e0f1a2";
    assert_eq!(long.len(), 51);
    let id = one(IdFormat::OpenAi, long);
    assert!(id.len() <= 40 && IdFormat::OpenAi.is_valid(&id), "{id}");
    // A 40-char own id is kept; 41 is not.
    let forty = format!("call_{}", "a".repeat(35));
    assert_eq!(one(IdFormat::OpenAi, &forty), forty);
    let forty_one = format!("call_{}", "a".repeat(36));
    let id = one(IdFormat::OpenAi, &forty_one);
    assert!(id.len() <= 40 && IdFormat::OpenAi.is_valid(&id), "{id}");
}

#[test]
fn ors_08_responses_call_ids_fit_64_chars() {
    let own = format!("call_{}", "b".repeat(59));
    assert_eq!(one(IdFormat::Responses, &own), own);
    let id = one(IdFormat::Responses, &"c".repeat(116));
    assert!(id.len() <= 64 && IdFormat::Responses.is_valid(&id), "{id}");
    assert!(!one(IdFormat::Responses, "").is_empty());
}

#[test]
fn req_915_019_anthropic_ids_match_pattern() {
    for id in project_all(IdFormat::Anthropic, &NASTY_IDS) {
        assert!(id.starts_with("toolu_"), "{id}");
        assert!(!id.is_empty() && id.len() <= 64, "{id}");
        assert!(
            id.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
            "{id}"
        );
    }
}

#[test]
fn ant_08_ids_with_dots_colons_slashes_become_legal() {
    let ids = [
        "mcp.server:tool",
        "a/b/c",
        "srv.tool:1",
        "a.b",
        "a:b",
        "a/b",
    ];
    let projected = project_all(IdFormat::Anthropic, &ids);
    assert_valid_and_distinct(IdFormat::Anthropic, &projected);
}

#[test]
fn ant_08_responses_pair_ids_over_64_become_legal() {
    let id = "fc_68a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3|call_AbCdEfGhIjKlMnOpQrStUvWx";
    assert!(id.len() > 64);
    let projected = one(IdFormat::Anthropic, id);
    assert!(IdFormat::Anthropic.is_valid(&projected), "{projected}");
    assert!(projected.len() <= 64);
}

#[test]
fn req_915_020_kimi_ids_are_functions_name_index() {
    let mut p = IdProjector::new(IdFormat::Kimi);
    assert_eq!(p.project("call_1", "Read"), "functions.Read:0");
    assert_eq!(p.project("toolu_2", "Bash"), "functions.Bash:1");
    assert_eq!(p.project("call_1", "Read"), "functions.Read:2");
    assert_eq!(p.project("", ""), "functions.tool:3");
    // The index is global across the conversation, not per tool or per turn.
    let ids = project_all(IdFormat::Kimi, &NASTY_IDS);
    for (i, id) in ids.iter().enumerate() {
        assert_eq!(id, &format!("functions.tool:{i}"));
        assert!(IdFormat::Kimi.is_valid(id));
    }
}

#[test]
fn req_915_021_mistral_ids_are_nine_alphanumerics() {
    for id in project_all(IdFormat::Mistral, &NASTY_IDS) {
        assert_eq!(id.len(), 9, "{id}");
        assert!(id.chars().all(|c| c.is_ascii_alphanumeric()), "{id}");
    }
}

#[test]
fn mis_01_foreign_ids_to_mistral() {
    for foreign in [
        "abc123",
        "call_PTLP8xhu3uwZk4l3nlnrrJha",
        "call_0fypS1hVX",
        "turn1_0",
    ] {
        let id = one(IdFormat::Mistral, foreign);
        assert!(IdFormat::Mistral.is_valid(&id), "{foreign} → {id}");
    }
    assert_eq!(one(IdFormat::Mistral, "D681PevKs"), "D681PevKs");
}

#[test]
fn req_915_022_empty_ids_are_distinct_and_deterministic() {
    let ids = ["", "", "call_x", "", ""];
    for format in ALL_FORMATS {
        let first = project_all(format, &ids);
        assert_valid_and_distinct(format, &first);
        assert!(first.iter().all(|id| !id.is_empty()));
        assert_eq!(first, project_all(format, &ids), "{format:?}");
    }
}

#[test]
fn req_915_016_injective_on_colliding_sanitisation() {
    // All of these want `call_abc` / `toolu_abc`; ids with illegal characters all want the
    // same sanitised spelling; and one id is repeated.
    let ids = [
        "call_abc",
        "toolu_abc",
        "hist_tool_abc",
        "fc_abc",
        "abc",
        "functions.abc",
        "toolu_vrtx_abc",
        "a.b",
        "a:b",
        "a/b",
        "a|b",
        "call_abc",
        "call_abc",
    ];
    for format in ALL_FORMATS {
        assert_valid_and_distinct(format, &project_all(format, &ids));
    }
    // Mistral: 9-alphanumeric ids are kept, so a hashed id can never shadow one silently.
    let ids = ["abcdefghi", "abcdefghi", "abcdefgh_", "abcdefgh."];
    assert_valid_and_distinct(IdFormat::Mistral, &project_all(IdFormat::Mistral, &ids));
}

#[test]
fn req_915_049_distinct_canonical_ids_map_to_distinct_ids() {
    let ids: Vec<String> = (0..5_000)
        .flat_map(|i| {
            [
                format!("call_{i}"),
                format!("toolu_{i}"),
                format!("tool.{i}:x"),
                format!("{i:09}"),
            ]
        })
        .collect();
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    for format in ALL_FORMATS {
        assert_valid_and_distinct(format, &project_all(format, &refs));
    }
}

#[test]
fn ant_07_same_canonical_id_fed_twice_gets_two_ids() {
    for format in ALL_FORMATS {
        let ids = project_all(format, &["toolu_dup", "toolu_dup"]);
        assert_ne!(ids[0], ids[1], "{format:?}");
    }
}

#[test]
fn prefix_stability_ids_do_not_depend_on_later_calls() {
    for format in ALL_FORMATS {
        let full = project_all(format, &NASTY_IDS);
        for n in 0..NASTY_IDS.len() {
            assert_eq!(
                project_all(format, &NASTY_IDS[..n]),
                full[..n],
                "{format:?}"
            );
        }
    }
}

#[test]
fn same_provider_ids_are_kept_verbatim() {
    assert_eq!(one(IdFormat::OpenAi, "call_abc123"), "call_abc123");
    assert_eq!(
        one(IdFormat::OpenAi, "call_PTLP8xhu3uwZk4l3nlnrrJha"),
        "call_PTLP8xhu3uwZk4l3nlnrrJha"
    );
    assert_eq!(one(IdFormat::Responses, "call_abc123"), "call_abc123");
    assert_eq!(one(IdFormat::Anthropic, "toolu_01ABC"), "toolu_01ABC");
    assert_eq!(
        one(IdFormat::Anthropic, "toolu_vrtx_01XyZ"),
        "toolu_vrtx_01XyZ"
    );
    assert_eq!(one(IdFormat::Mistral, "a1B2c3D4e"), "a1B2c3D4e");
}

#[test]
fn foreign_prefixes_are_swapped_when_legal() {
    assert_eq!(one(IdFormat::OpenAi, "hist_tool_abc"), "call_abc");
    assert_eq!(one(IdFormat::Anthropic, "hist_tool_abc"), "toolu_abc");
    assert_eq!(one(IdFormat::OpenAi, "toolu_01ABC"), "call_01ABC");
    assert_eq!(one(IdFormat::Anthropic, "call_abc123"), "toolu_abc123");
    assert_eq!(one(IdFormat::OpenAi, "abc123"), "call_abc123");
    assert_eq!(one(IdFormat::Anthropic, "abc123"), "toolu_abc123");
}

#[test]
fn oac_05_ant_20_tool_names_are_legal_and_injective() {
    let names = [
        "read_file",
        "fs.read",
        "fs/read",
        "fs:read",
        "fs_read",
        "",
        "tool",
        "mcp__server__tool",
        "größe",
        &"n".repeat(64),
        &"n".repeat(65),
        &"n".repeat(200),
    ];
    let mut p = ToolNameProjector::new();
    let projected: Vec<String> = names.iter().map(|n| p.project(n)).collect();
    for name in &projected {
        assert!(is_tool_name(name), "{name}");
    }
    let unique: HashSet<&String> = projected.iter().collect();
    assert_eq!(unique.len(), names.len());
    assert_eq!(projected[0], "read_file");
    assert_eq!(projected[1], "fs_read");
    assert_eq!(projected[9], "n".repeat(64));
    // Stable within the projector, and `renamed` lists exactly the changed names in order.
    for (n, expected) in names.iter().zip(&projected) {
        assert_eq!(&p.project(n), expected);
    }
    let renamed: Vec<(String, String)> = names
        .iter()
        .zip(&projected)
        .filter(|(n, p)| **n != p.as_str())
        .map(|(n, p)| (n.to_string(), p.clone()))
        .collect();
    assert_eq!(p.renamed(), renamed);
}

fn is_tool_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Canonical ids: foreign prefixes, legal and illegal characters, short pools (to force
/// duplicates and sanitisation collisions), empty and over-long strings.
fn canonical_id() -> impl Strategy<Value = String> {
    prop_oneof![
        "(call_|toolu_|toolu_vrtx_|hist_tool_|fc_|functions\\.)?[a-c_.:|-]{0,3}",
        "(call_|toolu_)?[A-Za-z0-9_-]{0,70}",
        "[A-Za-z0-9]{9}",
        any::<String>(),
        Just(String::new()),
    ]
}

fn tool_name() -> impl Strategy<Value = String> {
    prop_oneof!["[a-c._ -]{0,3}", "[A-Za-z0-9_.:/-]{0,80}", any::<String>()]
}

proptest! {
    #[test]
    fn proptest_projection_is_valid_injective_and_deterministic(
        calls in prop::collection::vec((canonical_id(), tool_name()), 0..40)
    ) {
        for format in ALL_FORMATS {
            let render = || {
                let mut names = ToolNameProjector::new();
                let mut ids = IdProjector::new(format);
                calls
                    .iter()
                    .map(|(id, name)| {
                        let name = names.project(name);
                        prop_assert!(is_tool_name(&name), "bad tool name {:?}", name);
                        Ok(ids.project(id, &name))
                    })
                    .collect::<Result<Vec<String>, TestCaseError>>()
            };
            let first = render()?;
            for id in &first {
                prop_assert!(format.is_valid(id), "{:?}: invalid {:?}", format, id);
            }
            let unique: HashSet<&String> = first.iter().collect();
            prop_assert_eq!(unique.len(), first.len());
            prop_assert_eq!(&first, &render()?);
            // Prefix stability: the ids of the first half do not depend on the second half.
            let half = calls.len() / 2;
            let mut ids = IdProjector::new(format);
            let mut names = ToolNameProjector::new();
            let prefix: Vec<String> = calls[..half]
                .iter()
                .map(|(id, name)| ids.project(id, &names.project(name)))
                .collect();
            prop_assert_eq!(&prefix[..], &first[..half]);
        }
    }
}
