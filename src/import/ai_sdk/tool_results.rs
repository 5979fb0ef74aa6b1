//! AI SDK tool results: every `output` kind (`text`, `json`, `error-text`, `error-json`,
//! `execution-denied`, `content` with every version's media items) and v4's `result`.

use serde_json::Value;

use crate::error::Error;
use crate::model::{Block, MediaBlock, MediaEncoding, TextBlock, ToolResponseBlock};
use crate::providers::read::context::{part_type, parts, string_at, wrong_type, Reader};
use crate::providers::read::values::{media_type_of_url, url_media};

/// A `tool` message's parts: each `tool-result` as a canonical result, its `content` output's
/// later items as the attachments that follow it.
pub(super) fn tool(r: &mut Reader, content: &Value, path: &str) -> Result<Vec<Block>, Error> {
    let mut out = Vec::new();
    for (j, part) in parts(content, path)?.into_iter().enumerate() {
        let at = format!("{path}[{j}]");
        if part_type(&part) != "tool-result" {
            out.push(r.opaque(part, &at, "this tool part"));
            continue;
        }
        let call_id = string_at(&part, "toolCallId", &at)?.to_string();
        let mut response = ToolResponseBlock {
            tool_name: part
                .get("toolName")
                .and_then(Value::as_str)
                .map(str::to_string)
                .or_else(|| r.names.get(&call_id).cloned()),
            call_id,
            ..ToolResponseBlock::default()
        };
        let mut attachments = Vec::new();
        match part.get("output") {
            Some(output) => read_output(
                r,
                output,
                &format!("{at}.output"),
                &mut response,
                &mut attachments,
            )?,
            // v4 and older: `result` (any JSON) and `isError`
            None => {
                let result = part.get("result").cloned().unwrap_or(Value::Null);
                if part.get("isError") == Some(&Value::Bool(true)) {
                    response.error = Some(text_of(&result));
                } else {
                    response.result = Some(result);
                }
            }
        }
        // An error result with media: the AI SDK's `content` output has no error form, so
        // `toAiSdk` keeps the flag under `providerOptions.turnwire`.
        if response.error.is_none()
            && part.pointer("/providerOptions/turnwire/isError") == Some(&Value::Bool(true))
        {
            response.error = Some(
                response
                    .result
                    .take()
                    .as_ref()
                    .map_or_else(String::new, text_of),
            );
        }
        response.meta = super::responses_label(&part);
        out.push(Block::ToolResponse(response));
        out.extend(attachments);
        // the tools it loads (`toAiSdk` keeps them under `providerOptions.turnwire`)
        out.extend(crate::model::kept_changes(&part));
    }
    Ok(out)
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn read_output(
    r: &mut Reader,
    output: &Value,
    at: &str,
    response: &mut ToolResponseBlock,
    attachments: &mut Vec<Block>,
) -> Result<(), Error> {
    let value = output.get("value").unwrap_or(&Value::Null);
    match part_type(output) {
        "text" => response.result = Some(Value::String(text_of(value))),
        "json" => response.result = Some(value.clone()),
        "error-text" | "error-json" => response.error = Some(text_of(value)),
        "execution-denied" => {
            let reason = output.get("reason").and_then(Value::as_str);
            response.error = Some(match reason {
                Some(why) => format!("The tool was not run: {why}"),
                None => "The tool was not run (the user denied it).".to_string(),
            });
            r.note(at, "an execution-denied output was read as an error result");
        }
        "content" => {
            let Value::Array(items) = value else {
                return Err(wrong_type(&format!("{at}.value"), "an array", value));
            };
            // a first text item is the result; every later item follows it as an attachment
            let mut result = None;
            for (k, item) in items.iter().enumerate() {
                let item_at = format!("{at}.value[{k}]");
                let text = || text_of(item.get("text").unwrap_or(&Value::Null));
                match part_type(item) {
                    "text" if k == 0 => result = Some(text()),
                    "text" => attachments.push(Block::Text(TextBlock::new(text()))),
                    kind => attachments.push(match output_media(r, item, kind, &item_at) {
                        Some(m) => Block::Media(m),
                        None => r.opaque(item.clone(), &item_at, "this tool output item"),
                    }),
                }
            }
            response.result = Some(Value::String(result.unwrap_or_default()));
        }
        _ => {
            response.result = Some(output.clone());
            r.note(at, "an output of an unknown type was kept as a JSON result");
        }
    }
    Ok(())
}

/// Media items of a `content` output, every version's spelling.
fn output_media(r: &mut Reader, item: &Value, kind: &str, at: &str) -> Option<MediaBlock> {
    let mime = item.get("mediaType").and_then(Value::as_str);
    let data = |key: &str| item.get(key).and_then(Value::as_str);
    let mut m = match kind {
        "media" | "file-data" | "image-data" => MediaBlock::new(
            mime.unwrap_or(if kind == "image-data" {
                "image/png"
            } else {
                "application/octet-stream"
            }),
            data("data")?,
            MediaEncoding::Base64,
        ),
        "file-url" | "image-url" => {
            let url = data("url")?;
            let mime = mime.map_or_else(
                || media_type_of_url(url, kind == "image-url").to_string(),
                str::to_string,
            );
            MediaBlock::new(mime, url, MediaEncoding::Url)
        }
        "file" => {
            let tagged = item.get("data")?;
            match tagged.get("type").and_then(Value::as_str) {
                Some("data") => MediaBlock::new(
                    mime.unwrap_or("application/octet-stream"),
                    tagged.get("data")?.as_str()?,
                    MediaEncoding::Base64,
                ),
                Some("url") => {
                    let url = tagged.get("url")?.as_str()?;
                    url_media(r, url, mime.is_some_and(|m| m.starts_with("image/")), at)
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    m.filename = data("filename").map(str::to_string);
    Some(m)
}
