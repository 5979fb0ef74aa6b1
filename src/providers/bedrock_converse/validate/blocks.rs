//! The block rules of a Converse body: ids, tool inputs and results, reasoning, media and
//! `status` (BDR-02, 05, 06, 10, 11, 13, 14, 15, 19, 20), some by the model's family.

use serde_json::Value;

use super::Family;
use crate::providers::validate_support::{is_id_char, Findings, Path};

/// Image formats Converse takes (`ImageFormat`).
const IMAGE_FORMATS: [&str; 4] = ["png", "jpeg", "gif", "webp"];
/// Document formats Converse takes (`DocumentFormat`).
const DOCUMENT_FORMATS: [&str; 9] = [
    "pdf", "csv", "doc", "docx", "xls", "xlsx", "html", "txt", "md",
];

/// BDR-14's text (earendil-works/pi `bedrock-converse-stream.ts`).
const BDR_14: &str = "This model doesn't support the reasoningContent.reasoningText.signature field. Remove reasoningContent.reasoningText.signature and try again.";
/// BDR-15's text for reasoning in a user turn (langchain-ai/langchain-aws#401).
const BDR_15_USER: &str =
    "User messages cannot contain reasoning content. Please remove the reasoning content and try again.";

/// Every block rule, message by message.
pub(super) fn check(body: &Value, family: Family, out: &mut Findings) {
    let Some(messages) = body.get("messages").and_then(Value::as_array) else {
        return;
    };
    let mut seen: Vec<&str> = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        let role = m.get("role").and_then(Value::as_str);
        let Some(blocks) = m.get("content").and_then(Value::as_array) else {
            continue;
        };
        turn_forms(i, role, blocks, family, out);
        for (b, block) in blocks.iter().enumerate() {
            let at = Path::block(i, b);
            if let Some(u) = block.get("toolUse") {
                tool_use(i, b, u, &mut seen, out);
            }
            if let Some(r) = block.get("toolResult") {
                tool_result(i, b, r, family, out);
            }
            if let Some(r) = block.get("reasoningContent") {
                reasoning(i, b, role, r, family, out);
            }
            media(block, &at, out);
        }
    }
}

/// BDR-10: results alone in their turn (cache points aside); for Mistral and Meta no text
/// beside a `toolUse`.
fn turn_forms(i: usize, role: Option<&str>, blocks: &[Value], family: Family, out: &mut Findings) {
    let conversation = |b: &&Value| {
        b.get("toolResult").is_none() && b.get("toolUse").is_none() && b.get("cachePoint").is_none()
    };
    let has = |key: &str| blocks.iter().any(|b| b.get(key).is_some());
    let other = blocks.iter().any(|b| conversation(&b));
    if role == Some("user") && has("toolResult") && other {
        out.push(
            "BDR-10",
            Path::msg(i).k("content"),
            format!("messages.{i}.content: Conversation blocks and tool result blocks cannot be provided in the same turn."),
        );
    }
    let strict = matches!(family, Family::Known(f) if f.no_text_beside_tool_use());
    let text = blocks.iter().any(|b| b.get("text").is_some());
    if role == Some("assistant") && strict && has("toolUse") && text {
        out.push(
            "BDR-10",
            Path::msg(i).k("content"),
            format!("messages.{i}.content: Conversation blocks and tool use blocks cannot be provided in the same turn."),
        );
    }
}

/// Whether `id` is 1..64 of `[a-zA-Z0-9_-]` (BDR-02).
fn valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.chars().all(is_id_char)
}

/// BDR-02: the `toolUseId` of the `toolUse` / `toolResult` member at `at`; whether it is valid.
fn check_id<'v>(member: &'v Value, at: &Path, out: &mut Findings) -> Option<&'v str> {
    let id = member
        .get("toolUseId")
        .and_then(Value::as_str)
        .unwrap_or("");
    if valid_id(id) {
        return Some(id);
    }
    let p = at.k("toolUseId");
    let dotted = p.dotted();
    out.push(
        "BDR-02",
        p,
        format!("1 validation error detected: Value at '{dotted}' failed to satisfy constraint: Member must have length between 1 and 64 and satisfy regular expression pattern: [a-zA-Z0-9_-]+ [inferred]"),
    );
    None
}

/// BDR-02 ids, BDR-11 unique ids, BDR-13 an object input.
fn tool_use<'v>(i: usize, b: usize, u: &'v Value, seen: &mut Vec<&'v str>, out: &mut Findings) {
    let at = Path::block(i, b).k("toolUse");
    match check_id(u, &at, out) {
        Some(id) if seen.contains(&id) => out.push(
            "BDR-11",
            at.k("toolUseId"),
            format!("The toolUseId `{id}` at messages.{i}.content.{b}.toolUse is used by an earlier toolUse block of this request; toolUse ids must be unique. [inferred]"),
        ),
        Some(id) => seen.push(id),
        None => {}
    }
    if !u.get("input").is_some_and(Value::is_object) {
        out.push(
            "BDR-13",
            at.k("input"),
            format!("The value at messages.{i}.content.{b}.toolUse.input is invalid. Provide a json object for the field and try again. [inferred]"),
        );
    }
}

/// BDR-02 ids, BDR-05 content of an error, BDR-06 objects in `json`, BDR-19 images in a result
/// (Claude and Nova only), BDR-20 `status`.
fn tool_result(i: usize, b: usize, r: &Value, family: Family, out: &mut Findings) {
    let at = Path::block(i, b).k("toolResult");
    check_id(r, &at, out);
    let status = r.get("status");
    let content = r.get("content").and_then(Value::as_array);
    if status.and_then(Value::as_str) == Some("error") && content.is_none_or(|c| c.is_empty()) {
        out.push(
            "BDR-05",
            at.k("content"),
            format!("The content field at messages.{i}.content.{b}.toolResult cannot be empty when status value is error."),
        );
    }
    if let Some(s) = status {
        let known = matches!(s.as_str(), Some("success" | "error"));
        if !known {
            out.push(
                "BDR-20",
                at.k("status"),
                format!("1 validation error detected: Value at 'messages.{i}.content.{b}.toolResult.status' failed to satisfy constraint: Member must satisfy enum value set: [success, error] [inferred]"),
            );
        } else if matches!(family, Family::Known(f) if !f.takes_result_extras()) {
            out.push(
                "BDR-20",
                at.k("status"),
                "This model doesn't support the toolResult.status field. Remove toolResult.status and try again. [inferred]",
            );
        }
    }
    for (k, c) in content.into_iter().flatten().enumerate() {
        let cat = at.k("content").i(k);
        if let Some(j) = c.get("json") {
            if !j.is_object() {
                out.push(
                    "BDR-06",
                    cat.k("json"),
                    format!("The format of the value at messages.{i}.content.{b}.toolResult.content.{k}.json is invalid. Provide a json object for the field and try again."),
                );
            }
        }
        let image = c.get("image").is_some();
        if image && matches!(family, Family::Known(f) if !f.takes_result_extras()) {
            out.push(
                "BDR-19",
                cat.clone(),
                "This model doesn't support images in toolResult content (only Amazon Nova and Anthropic Claude models do). [inferred]",
            );
        }
        media(c, &cat, out);
    }
}

/// BDR-14 signatures only for Claude; BDR-15 reasoning only in assistant turns, Claude's with
/// its signature, none replayed to DeepSeek.
fn reasoning(
    i: usize,
    b: usize,
    role: Option<&str>,
    r: &Value,
    family: Family,
    out: &mut Findings,
) {
    let at = Path::block(i, b);
    if role == Some("user") {
        out.push("BDR-15", at, BDR_15_USER);
        return;
    }
    let Some(text) = r.get("reasoningText") else {
        return;
    };
    let signature = text.get("signature").and_then(Value::as_str);
    let sig_at = at.k("reasoningContent").k("reasoningText").k("signature");
    match family {
        Family::Known(crate::models::BedrockFamily::Claude) => {
            if signature.is_none_or(str::is_empty) {
                out.push(
                    "BDR-15",
                    sig_at,
                    format!("The model returned the following errors: messages.{i}.content.{b}.thinking.signature: Field required"),
                );
            }
        }
        Family::Known(f) => {
            if text.get("signature").is_some() {
                out.push("BDR-14", sig_at, BDR_14);
            } else if f == crate::models::BedrockFamily::DeepSeek {
                out.push(
                    "BDR-15",
                    at,
                    "DeepSeek-R1 on Bedrock takes no reasoning content in the conversation history: remove the reasoning content and try again. [inferred]",
                );
            }
        }
        Family::Unknown => {}
    }
}

/// BDR-19: an image or document's format, a document's name, one source member with bytes.
fn media(block: &Value, at: &Path, out: &mut Findings) {
    for (key, formats) in [
        ("image", &IMAGE_FORMATS[..]),
        ("document", &DOCUMENT_FORMATS[..]),
    ] {
        let Some(m) = block.get(key) else { continue };
        let mat = at.k(key);
        let format = m.get("format").and_then(Value::as_str).unwrap_or("");
        if !formats.contains(&format) {
            out.push(
                "BDR-19",
                mat.k("format"),
                format!("1 validation error detected: Value '{format}' at '{}.format' failed to satisfy constraint: Member must satisfy enum value set: [{}] [inferred]", mat.dotted(), formats.join(", ")),
            );
        }
        if key == "document" {
            let name = m.get("name").and_then(Value::as_str).unwrap_or("");
            if !valid_document_name(name) {
                out.push(
                    "BDR-19",
                    mat.k("name"),
                    format!("The document name `{name}` is invalid: it may hold only alphanumeric characters, single whitespace characters, hyphens, parentheses and square brackets, 1 to 200 characters. [inferred]"),
                );
            }
        }
        let source = m.get("source").and_then(Value::as_object);
        let one = source.is_some_and(|s| s.len() == 1);
        let bytes_ok = source
            .and_then(|s| s.get("bytes"))
            .is_none_or(|b| b.as_str().is_some_and(|s| !s.is_empty()));
        if !one || !bytes_ok {
            out.push(
                "BDR-19",
                mat.k("source"),
                format!("The source at {}.source must hold exactly one of bytes (base64), s3Location. [inferred]", mat.dotted()),
            );
        }
    }
}

/// A document name: alphanumerics, single spaces, `-`, `(`, `)`, `[`, `]`, 1..200.
fn valid_document_name(name: &str) -> bool {
    let allowed =
        |c: char| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '(' | ')' | '[' | ']');
    (1..=200).contains(&name.chars().count()) && name.chars().all(allowed) && !name.contains("  ")
}
