//! Found by tests/js/pi-ai.test.mjs: a pi-ai Responses history read with `from_pi_ai` and written
//! back with `to_pi_ai` gave the tool call its `call|item` id but the result only the canonical
//! `call` part. pi-ai pairs results with calls by the whole id, so it answered the call with a
//! synthetic "No result provided" and sent the real result too: two `function_call_output`s
//! for one `call_id`, which OpenAI refuses.

use serde_json::json;
use turnwire::export::to_pi_ai;
use turnwire::import::{from_pi_ai, ImportSource};

#[test]
fn a_result_names_its_call_by_the_same_id_pi_ai_gave_the_call() {
    let full = "call_1|fc_2";
    let context = json!({"messages": [
        {"role": "user", "content": "q", "timestamp": 1},
        {"role": "assistant", "api": "openai-responses", "provider": "openai", "model": "gpt-5",
         "content": [{"type": "toolCall", "id": full, "name": "read_file", "arguments": {}}],
         "stopReason": "toolUse", "timestamp": 2},
        {"role": "toolResult", "toolCallId": full, "toolName": "read_file",
         "content": [{"type": "text", "text": "R"}], "isError": false, "timestamp": 3}
    ]});
    let imported = from_pi_ai(&context, &ImportSource::default()).unwrap();
    let back = to_pi_ai(&imported.transcript).context;
    let messages = back["messages"].as_array().unwrap();
    assert_eq!(messages[1]["content"][0]["id"], full);
    assert_eq!(messages[2]["toolCallId"], full);
}
