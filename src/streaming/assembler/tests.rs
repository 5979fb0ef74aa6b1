//! Unit tests of the block assembler.

use super::*;
use serde_json::json;

fn codes(r: &[StreamError]) -> Vec<&'static str> {
    r.iter().map(StreamError::code).collect()
}

#[test]
fn blocks_are_ordered_by_start_not_by_completion() {
    let mut a = Assembler::default();
    a.start_tool("0", "call_a", "first", None, None).unwrap();
    a.start_thinking("1", None, None).unwrap();
    a.start_tool("2", "call_b", "second", None, None).unwrap();
    a.tool_args("2", "{\"x\":1}").unwrap();
    a.complete_tool("2", None).unwrap();
    a.thinking_delta("1", "hmm").unwrap();
    a.close("1").unwrap();
    a.tool_args("0", "{}").unwrap();
    a.close("0").unwrap();
    let (blocks, errors) = a.blocks();
    assert!(errors.is_empty());
    let kinds: Vec<&str> = blocks.iter().map(Block::type_name).collect();
    assert_eq!(kinds, ["tool_call", "thinking", "tool_call"]);
    let Block::ToolCall(c) = &blocks[2] else {
        panic!()
    };
    assert_eq!(c.parameters, Some(json!({"x": 1})));
}

#[test]
fn an_orphan_text_delta_is_an_error_but_its_text_is_kept() {
    let mut a = Assembler::default();
    let e = a.text_delta("3", "lost?").unwrap_err();
    assert_eq!(e.code(), "orphan_delta");
    a.text_delta("3", " no").unwrap();
    let (blocks, _) = a.blocks();
    assert_eq!(blocks, vec![Block::Text(TextBlock::new("lost? no"))]);
}

#[test]
fn an_orphan_reasoning_delta_is_an_error_but_its_text_is_kept() {
    let mut a = Assembler::default();
    assert_eq!(
        a.thinking_delta("r", "why").unwrap_err().code(),
        "orphan_reasoning_delta"
    );
    let (blocks, _) = a.blocks();
    assert_eq!(blocks, vec![Block::Thinking(ThinkingBlock::new("why"))]);
}

#[test]
fn orphan_tool_arguments_are_an_error_and_dropped() {
    let mut a = Assembler::default();
    assert_eq!(
        a.tool_args("9", "{}").unwrap_err().code(),
        "orphan_tool_delta"
    );
    assert!(a.blocks().0.is_empty());
}

#[test]
fn a_duplicate_start_keeps_both_blocks() {
    let mut a = Assembler::default();
    a.start_text("0").unwrap();
    a.text_delta("0", "one").unwrap();
    assert_eq!(a.start_text("0").unwrap_err().code(), "duplicate_start");
    a.text_delta("0", "two").unwrap();
    let (blocks, _) = a.blocks();
    assert_eq!(
        blocks,
        vec![
            Block::Text(TextBlock::new("one")),
            Block::Text(TextBlock::new("two"))
        ]
    );
}

#[test]
fn a_reused_tool_call_id_is_reported_and_both_calls_are_kept() {
    let mut a = Assembler::default();
    assert!(a.add_tool("a", "call_1", "ls", json!({}), None).is_empty());
    let errors = a.add_tool("b", "call_1", "ls", json!({"x": 1}), None);
    assert_eq!(codes(&errors), ["duplicate_tool_call"]);
    assert_eq!(a.blocks().0.len(), 2);
}

#[test]
fn completing_an_unknown_tool_is_an_error() {
    let mut a = Assembler::default();
    assert_eq!(
        a.complete_tool("7", None).unwrap_err().code(),
        "unknown_tool_complete"
    );
    a.start_text("7").unwrap();
    assert_eq!(
        a.complete_tool("7", None).unwrap_err().code(),
        "unknown_tool_complete"
    );
    assert_eq!(a.close("8").unwrap_err().code(), "unknown_block_stop");
}

#[test]
fn invalid_argument_json_keeps_the_call_with_empty_arguments_and_the_raw_text() {
    let mut a = Assembler::default();
    a.start_tool("0", "call_1", "ls", None, None).unwrap();
    a.tool_args("0", "{\"dir\": ").unwrap();
    let e = a.complete_tool("0", None).unwrap_err();
    assert_eq!(e.code(), "invalid_arguments");
    let (blocks, errors) = a.blocks();
    assert!(errors.is_empty(), "completed, so not unfinished");
    let Block::ToolCall(c) = &blocks[0] else {
        panic!()
    };
    assert_eq!(c.parameters, Some(json!({})));
    assert_eq!(c.extra[RAW_ARGUMENTS], json!("{\"dir\": "));
}

#[test]
fn arguments_are_parsed_only_when_the_call_completes() {
    let mut a = Assembler::default();
    a.start_tool("0", "call_1", "ls", None, None).unwrap();
    a.tool_args("0", "{\"a\"").unwrap();
    a.tool_args("0", ":[1,").unwrap();
    a.tool_args("0", "2]}").unwrap();
    a.complete_tool("0", None).unwrap();
    let deltas = a.take_deltas();
    assert_eq!(deltas.len(), 5, "start, three pieces, complete: {deltas:?}");
    assert_eq!(
        deltas[4],
        Delta::ToolCallComplete {
            id: "call_1".into(),
            name: "ls".into(),
            arguments: json!({"a": [1, 2]})
        }
    );
}

#[test]
fn an_unfinished_call_keeps_arguments_that_parse_and_is_reported() {
    let mut a = Assembler::default();
    a.start_tool("0", "call_1", "ls", None, None).unwrap();
    a.tool_args("0", "{\"a\": 1}").unwrap();
    a.start_tool("1", "call_2", "ls", None, None).unwrap();
    let (blocks, errors) = a.blocks();
    assert_eq!(
        codes(&errors),
        ["unfinished_tool_call", "unfinished_tool_call"]
    );
    let Block::ToolCall(c) = &blocks[0] else {
        panic!()
    };
    assert_eq!(c.parameters, Some(json!({"a": 1})));
    assert!(c.extra.is_empty());
    let Block::ToolCall(c) = &blocks[1] else {
        panic!()
    };
    assert_eq!(c.parameters, Some(json!({})), "no text at all is {{}}");
}

#[test]
fn lenient_lanes_start_on_the_first_non_empty_piece_and_extend_after_other_blocks() {
    let mut a = Assembler::default();
    a.stream_text("content", "");
    a.stream_thinking("reasoning", "think", Some("reasoning_content"));
    a.stream_text("content", "Hello");
    a.start_tool("tool:0", "call_1", "ls", None, None).unwrap();
    a.stream_text("content", " there");
    let (blocks, _) = a.blocks();
    let kinds: Vec<&str> = blocks.iter().map(Block::type_name).collect();
    assert_eq!(kinds, ["thinking", "text", "tool_call"]);
    assert_eq!(blocks[1], Block::Text(TextBlock::new("Hello there")));
    let Block::Thinking(t) = &blocks[0] else {
        panic!()
    };
    assert_eq!(t.source_field.as_deref(), Some("reasoning_content"));
}

#[test]
fn empty_blocks_without_artifacts_are_left_out() {
    let mut a = Assembler::default();
    a.start_text("0").unwrap();
    a.start_thinking("1", None, None).unwrap();
    a.start_thinking(
        "2",
        None,
        Some(ProviderMeta::AnthropicRedacted { data: "x".into() }),
    )
    .unwrap();
    let (blocks, _) = a.blocks();
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].type_name(), "thinking");
}
