//! `Conversation`: a transcript owned by the wasm module, grown message by message, backed by
//! the core [`crate::Conversation`] (renders after an append do work proportional to what
//! changed; every result is the full render's, byte for byte).

use js_sys::{Array, Function, Map, Reflect, Uint8Array};
use tsify::Ts;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::types::{MessageInput, TranscriptInput};
use super::{args, read_options, read_transcript, text, to_js};
use crate::conversation::BodyPart;
use crate::error::{Error, ErrorCode};
use crate::model::Transcript;
use crate::render::Rendered;
use crate::request::RenderOptions;

#[wasm_bindgen(typescript_custom_section)]
const TS_BLOB_LIKE: &'static str = r#"
/** The host's `Blob` (every runtime turnwire supports has one); a minimal shape where the
 * TypeScript `lib` has none. */
export type BlobLike = typeof globalThis extends { Blob: { prototype: infer T } } ? T : { readonly size: number; arrayBuffer(): Promise<ArrayBuffer>; text(): Promise<string> };"#;

/// A conversation kept in wasm memory: append messages as they happen, render for any
/// provider on every turn. Call `free()` (or `using`) when done: the memory is not
/// JavaScript's, and a `FinalizationRegistry` only frees it eventually.
///
/// @example
/// ```ts
/// using convo = new Conversation();
/// convo.append({ speaker: "human", blocks: [{ type: "text", text: "hi" }] });
/// const body = convo.render({ provider: "anthropic", model: "claude-sonnet-4-5" });
/// ```
#[wasm_bindgen]
pub struct Conversation {
    pub(super) inner: crate::Conversation,
    /// `renderBlob`'s `Blob` of each cached body piece, by its id.
    pieces: Map,
    /// How many `Blob`s `pieces` may hold before the ones no cache holds are dropped.
    prune_at: u32,
}

#[wasm_bindgen]
impl Conversation {
    /// A conversation, empty or starting from a transcript (a value or its JSON text).
    #[wasm_bindgen(constructor)]
    pub fn new(transcript: Option<TranscriptInput>) -> Result<Conversation, JsValue> {
        let transcript = match transcript {
            Some(t) => read_transcript(&t)?,
            None => Transcript::default(),
        };
        Ok(Conversation {
            inner: crate::Conversation::from_transcript(transcript),
            pieces: Map::new(),
            prune_at: 64,
        })
    }

    /// A conversation from a transcript's JSON text (what `JSON.stringify(conversation)`
    /// wrote) or from a transcript value.
    #[wasm_bindgen(js_name = fromJSON)]
    pub fn from_json(transcript: &TranscriptInput) -> Result<Conversation, JsValue> {
        Ok(Conversation {
            inner: crate::Conversation::from_transcript(read_transcript(transcript)?),
            pieces: Map::new(),
            prune_at: 64,
        })
    }

    /// How many render targets (distinct options) keep a cache, least recently rendered dropped
    /// first (default 4: each cache holds about the history's size again). Raise it for a round robin
    /// over more providers; a target whose cache was dropped renders in full once.
    #[wasm_bindgen(getter, js_name = cacheTargets)]
    pub fn cache_targets(&self) -> u32 {
        u32::try_from(self.inner.cache_targets()).unwrap_or(u32::MAX)
    }

    /// Sets `cacheTargets` (at least 1).
    #[wasm_bindgen(setter, js_name = cacheTargets)]
    pub fn set_cache_targets(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: &JsValue,
    ) -> Result<(), JsValue> {
        match n.as_f64() {
            Some(v) if v.is_finite() && v >= 1.0 => {
                self.inner.set_cache_targets(v.min(1024.0) as usize);
                Ok(())
            }
            _ => Err(crate::error::Error::new(
                crate::error::ErrorCode::InvalidType,
                "$",
                "`cacheTargets` must be a number of at least 1",
            )
            .into()),
        }
    }

    /// The number of messages.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> u32 {
        u32::try_from(self.inner.len()).unwrap_or(u32::MAX)
    }

    /// Appends one message. A bad message is a `TurnwireError` whose path is the index it
    /// would have had (`$[12].blocks[0].id`); the conversation is left unchanged.
    pub fn append(&mut self, message: &MessageInput) -> Result<(), JsValue> {
        let root = format!("$[{}]", self.inner.len());
        let converted = text::stringify(message, "the message", &root)?;
        self.inner.append_json(&converted.text)?;
        self.inner.add_read_repairs(converted.repairs);
        Ok(())
    }

    /// Appends one message given as JSON text.
    #[wasm_bindgen(js_name = appendJson)]
    pub fn append_json(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] json: &JsValue,
    ) -> Result<(), JsValue> {
        self.inner.append_json(&args::json_text(json, "json")?)?;
        Ok(())
    }

    /// Renders the request body for `options.provider` as UTF-8 JSON bytes.
    pub fn render(&mut self, options: Ts<RenderOptions>) -> Result<Uint8Array, JsValue> {
        let options = read_options(&options.js_value())?;
        // The body goes straight from its pieces (most of them cached) into one JavaScript
        // array: one copy.
        let mut body: Option<Uint8Array> = None;
        self.inner.write_body(&options, &mut |parts| {
            let len = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
            let array = Uint8Array::new_with_length(len(parts.iter().map(|p| p.len()).sum()));
            let mut at = 0u32;
            for part in parts {
                let end = at.saturating_add(len(part.len()));
                array.subarray(at, end).copy_from(part);
                at = end;
            }
            body = Some(array);
        })?;
        Ok(body.unwrap_or_else(|| Uint8Array::new_with_length(0)))
    }

    /// Renders the request body as a `Blob` (`fetch` sends it as is). The pieces that come
    /// from the render cache are kept as `Blob`s of their own and reused, so on a long
    /// conversation a render after an append costs the new turn, not a copy of the whole
    /// history: the body's bytes are exactly `render`'s.
    ///
    /// @example
    /// ```ts
    /// await fetch(url, { method: "POST", headers, body: convo.renderBlob({ provider: "anthropic", model: "claude-sonnet-4-5" }) });
    /// ```
    #[wasm_bindgen(js_name = renderBlob, unchecked_return_type = "BlobLike")]
    pub fn render_blob(&mut self, options: Ts<RenderOptions>) -> Result<JsValue, JsValue> {
        let options = read_options(&options.js_value())?;
        let blob = blob_constructor()?;
        let pieces = &self.pieces;
        let mut made: Result<Array, JsValue> = Ok(Array::new());
        self.inner.write_body_parts(&options, &mut |parts| {
            made = blob_parts(parts, pieces, &blob);
        })?;
        let parts: JsValue = made?.into();
        let body = Reflect::construct(&blob, &Array::of1(&parts))?;
        self.forget_dropped_pieces();
        Ok(body)
    }

    /// Renders `{ body, idMap, toolNames, diagnostics }` as plain objects.
    #[wasm_bindgen(js_name = renderObject)]
    pub fn render_object(&mut self, options: Ts<RenderOptions>) -> Result<Ts<Rendered>, JsValue> {
        let options = read_options(&options.js_value())?;
        let out = self.inner.render(&options)?;
        Ok(Ts::new_unchecked(super::render::rendered_js(out)?))
    }

    /// Renders for sending: `{ body, idMap, toolNames, diagnostics }` with the body as JSON text
    /// (exactly `render`'s bytes, decoded), in one call and without building the body as
    /// objects (what `streamTurn` sends).
    #[wasm_bindgen(js_name = renderRequest, unchecked_return_type = "RenderedRequest")]
    pub fn render_request(&mut self, options: Ts<RenderOptions>) -> Result<JsValue, JsValue> {
        let options = read_options(&options.js_value())?;
        let mut body = Ok(js_sys::JsString::from(""));
        let report = self.inner.write_request(&options, &mut |parts| {
            body = super::render::body_text(parts);
        })?;
        Ok(super::render::request_js(&body?, &report)?)
    }

    /// The transcript in its JSON history shape (so `JSON.stringify(conversation)` works).
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "Transcript")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.inner.transcript().to_value())?)
    }
}

impl Conversation {
    /// Drops the `Blob`s of pieces no render cache holds any more, once there are twice as
    /// many as there were after the last time (so that it costs about nothing per render).
    fn forget_dropped_pieces(&mut self) {
        if self.pieces.size() <= self.prune_at {
            return;
        }
        let live = self.inner.cached_part_ids();
        self.prune_at = u32::try_from(live.len())
            .unwrap_or(u32::MAX)
            .saturating_mul(2)
            .saturating_add(64);
        let keep: crate::fast_map::HashSet<u64> = live.into_iter().collect();
        let dropped = Array::new();
        self.pieces.for_each(&mut |_, key| {
            let id = key.as_f64().map(|f| f as u64);
            if !id.is_some_and(|id| keep.contains(&id)) {
                dropped.push(&key);
            }
        });
        for key in dropped.iter() {
            self.pieces.delete(&key);
        }
    }
}

/// The host's `Blob` constructor.
fn blob_constructor() -> Result<Function, Error> {
    Reflect::get(&js_sys::global(), &JsValue::from_str("Blob"))
        .ok()
        .and_then(|b| b.dyn_into::<Function>().ok())
        .ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidValue,
                "$",
                "this host has no Blob; use render() for the body as bytes",
            )
        })
}

/// The parts of a body `Blob`: fresh bytes copied, each cached piece as its own `Blob`, made
/// once and kept in `pieces` under its id.
fn blob_parts(parts: &[BodyPart<'_>], pieces: &Map, blob: &Function) -> Result<Array, JsValue> {
    let array = Array::new();
    for part in parts {
        match part {
            BodyPart::Fresh(bytes) => {
                array.push(&Uint8Array::from(*bytes));
            }
            BodyPart::Cached { id, bytes, halves } => {
                let key = JsValue::from_f64(*id as f64);
                let mut piece = pieces.get(&key);
                if piece.is_undefined() {
                    // a merged piece from the Blobs of its halves (no bytes copied), else
                    // from its bytes
                    let known = |id: u64| {
                        Some(pieces.get(&JsValue::from_f64(id as f64)))
                            .filter(|b| !b.is_undefined())
                    };
                    let content = match halves.and_then(|(a, b)| Some((known(a)?, known(b)?))) {
                        Some((a, b)) => Array::of2(&a, &b),
                        None => Array::of1(&Uint8Array::from(*bytes)),
                    };
                    piece = Reflect::construct(blob, &Array::of1(&content))?;
                    pieces.set(&key, &piece);
                }
                array.push(&piece);
            }
        }
    }
    Ok(array)
}
