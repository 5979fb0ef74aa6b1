//! Found by the release fuzz (properties.rs, bedrock-converse, a Llama model) after BDR-10 moved
//! into the normaliser: the call-turn step ran in the calls-last pass, before role order and
//! the placement of results, which can bring other text (here an Anthropic compaction summary,
//! projected as text) into a turn with calls, so Llama got text beside its `toolUse`
//! (`Conversation blocks and tool use blocks cannot be provided in the same turn.`). The step
//! now runs at the end of the role-order pass, after the merges.

use turnwire::{
    render, validate_request_for_model, OrphanPolicy, Provider, RenderOptions, Transcript,
};

/// The fuzzer's history, as it printed it.
const HISTORY: &str = r#"[{"speaker":"ai","blocks":[{"type":"text","text":""}]},{"speaker":"ai","metadata":{},"blocks":[{"type":"tool_call","id":"hist_tool_tok2_","name":"read_file","parameters":{"arg":"tok3_"}},{"type":"tool_call","id":"hist_tool_tok4_","name":"fs.grep","parameters":{"arg":"tok5_"}}]},{"speaker":"tool","blocks":[{"type":"tool_response","callId":"hist_tool_tok4_","toolName":"fs.grep","result":"result tok7_"},{"type":"media","mimeType":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==","encoding":"base64"}]},{"speaker":"ai","metadata":{"provider":"anthropic","model":"claude-sonnet-4-5"},"blocks":[{"type":"server_tool","provider":"anthropic","phase":"call","wire":{"type":"compaction","content":"summary tok10_","encrypted_content":null}},{"type":"server_tool","provider":"anthropic","phase":"call","wire":{"type":"fallback","from":{"model":"claude-fable-5-1"},"to":{"model":"claude-opus-5"},"trigger":null}},{"type":"thinking","thought":"think tok8_","signature":"sig8"}]},{"speaker":"tool","blocks":[{"type":"tool_response","callId":"hist_tool_tok2_","toolName":"read_file","result":"result tok6_"}]},{"speaker":"tool","blocks":[{"type":"tool_response","callId":"gone_tok9_","toolName":"read_file","result":"orphan tok9_"}]},{"speaker":"ai","metadata":{},"blocks":[{"type":"tool_call","id":"hist_tool_tok12_","name":"read_file","parameters":{"arg":"tok13_"}},{"type":"tool_call","id":"hist_tool_tok14_","name":"fs.grep","parameters":{"arg":"tok15_"}}]},{"speaker":"tool","blocks":[{"type":"tool_response","callId":"hist_tool_tok12_","toolName":"read_file","result":"result tok16_"},{"type":"tool_response","callId":"hist_tool_tok14_","toolName":"fs.grep","result":"result tok17_"},{"type":"media","mimeType":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==","encoding":"base64"}]},{"speaker":"human","blocks":[{"type":"text","text":"user says tok18_"}]},{"speaker":"human","blocks":[{"type":"text","text":"user says tok19_"}]}]"#;

#[test]
fn text_brought_next_to_calls_is_left_out_for_llama() {
    let t = Transcript::from_json(HISTORY).unwrap();
    let model = "us.meta.llama4-maverick-17b-instruct-v1:0";
    let mut o = RenderOptions::new(Provider::BedrockConverse, model);
    o.orphan_results = OrphanPolicy::Drop;
    let out = render(&t, &o).unwrap();
    let v = validate_request_for_model(Provider::BedrockConverse, model, &out.body);
    assert!(v.is_empty(), "{v:?}\n{}", out.body);
    assert!(
        out.diagnostics
            .iter()
            .any(|d| d.code.as_str() == "block_omitted" && d.message.contains("BDR-10")),
        "{:?}",
        out.diagnostics
    );
}
