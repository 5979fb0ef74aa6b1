//! Found by the exporters' property test (tests/properties.rs): a failed tool result that also
//! returned an image was written by `to_ai_sdk` as a `content` output, which has no error form,
//! so read back it was a success: Anthropic lost `is_error`, Gemini sent `output` for `error`.

use serde_json::json;
use turnwire::export::to_ai_sdk;
use turnwire::import::{from_ai_sdk, ImportSource};
use turnwire::{render_body, Provider, RenderOptions, Transcript};

const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

#[test]
fn a_failed_result_with_an_image_stays_failed_through_the_ai_sdk_shape() {
    let t = Transcript::from_value_owned(json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "look"}]},
        {"speaker": "ai", "blocks": [{"type": "tool_call", "id": "c1", "name": "shot", "parameters": {}}]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "c1", "toolName": "shot", "error": "failed"},
            {"type": "media", "mimeType": "image/png", "data": PNG, "encoding": "base64"}
        ]}
    ]))
    .unwrap();
    let exported = to_ai_sdk(&t);
    let part = &exported.messages[2]["content"][0];
    assert_eq!(part["output"]["type"], "content");
    assert_eq!(part["providerOptions"]["turnwire"]["isError"], true);
    let back = from_ai_sdk(&json!(exported.messages), None, &ImportSource::default()).unwrap();
    for (p, model) in [
        (Provider::Anthropic, "claude-sonnet-4-5"),
        (Provider::Gemini, "gemini-2.5-pro"),
        (Provider::OpenAiChat, "gpt-5.2"),
    ] {
        let o = RenderOptions::new(p, model);
        assert_eq!(
            String::from_utf8(render_body(&back.transcript, &o).unwrap()).unwrap(),
            String::from_utf8(render_body(&t, &o).unwrap()).unwrap(),
            "{p}"
        );
    }
}
