//! Found by the property tests after KIM-12's piece merge: an assistant aside written before
//! an earlier call's result, then the next calls. Placing the result brought the aside next to
//! the calls after the pieces were merged, so the body had them apart, and the body read back
//! (where they stand together) rendered them merged. Pieces that results placement brings
//! together merge too, so a body reads back to the same bytes.

use serde_json::json;
use turnwire::import::{from_request_body, ImportSource};
use turnwire::{render, Provider, RenderOptions, Transcript};

#[test]
fn pieces_brought_together_by_results_placement_merge() {
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
        {"speaker": "ai", "blocks": [{"type": "tool_call", "id": "c1", "name": "read_file", "parameters": {}}]},
        {"speaker": "ai", "blocks": [{"type": "text", "text": "assistant aside"}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c1", "result": "one"}]},
        {"speaker": "ai", "blocks": [{"type": "tool_call", "id": "c2", "name": "read_file", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c2", "result": "two"}]}
    ]))
    .unwrap();
    let o = RenderOptions::new(Provider::Kimi, "kimi-k2-thinking");
    let out = render(&t, &o).unwrap();
    let source = ImportSource {
        model: Some(o.model.clone()),
        endpoint: None,
        host: None,
        account: None,
    };
    let imported = from_request_body(Provider::Kimi, &out.body, &source).unwrap();
    let again = render(&imported.transcript, &imported.options.unwrap()).unwrap();
    assert_eq!(again.body, out.body);
    let with_calls: Vec<&serde_json::Value> = out.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m.get("tool_calls").is_some())
        .collect();
    assert_eq!(with_calls[1]["content"], "assistant aside");
}
