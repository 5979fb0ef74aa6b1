//! Found by the model property test: a tool message holding an unknown block and then media,
//! with no tool response at all, rendered an Anthropic user message with empty content (the
//! media was taken as an attachment of a response that did not exist), breaking ANT-09 and
//! ANT-02. Media only rides with a response that precedes it; otherwise it is the user's.

use serde_json::json;
use turnwire::{render, validate_request, Provider, RenderOptions, Transcript};

#[test]
fn media_without_a_preceding_result_is_user_content() {
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "look"}]},
        {"speaker": "tool", "blocks": [
            {"type": "mystery"},
            {"type": "media", "mimeType": "image/png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "encoding": "base64"}
        ]}
    ]))
    .unwrap();
    for p in Provider::ALL {
        let o = RenderOptions::new(p, "m");
        let out = render(&t, &o).unwrap();
        assert_eq!(
            validate_request(p, &out.body),
            vec![],
            "{p}: {:#}",
            out.body
        );
        // DeepSeek takes no images: there the image becomes a text note instead
        if p != Provider::DeepSeek {
            assert!(
                out.body.to_string().contains("iVBORw0KGgo"),
                "{p}: the image is kept"
            );
        }
    }
}
