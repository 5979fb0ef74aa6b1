//! Shared helpers of the stream decoder tests: the golden event streams and decoding them.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use serde_json::Value;
use turnwire::stream::{StreamDecoder, StreamOptions, StreamOutcome};
use turnwire::Provider;

pub mod event_stream;

/// One golden stream: `tests/fixtures/streams/<provider>/<case>.events`.
#[derive(Debug, Clone)]
pub struct Golden {
    pub provider: Provider,
    pub case: String,
    pub path: PathBuf,
    pub events: Vec<String>,
}

impl Golden {
    pub fn name(&self) -> String {
        format!("{}/{}", self.provider.as_str(), self.case)
    }
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/streams")
}

/// Every golden stream, sorted by provider and case.
pub fn goldens() -> Vec<Golden> {
    let mut out = Vec::new();
    for provider in Provider::ALL {
        let dir = root().join(provider.as_str());
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "events"))
            .collect();
        paths.sort();
        for path in paths {
            let case = path.file_stem().unwrap().to_string_lossy().into_owned();
            let events = std::fs::read_to_string(&path)
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect();
            out.push(Golden {
                provider,
                case,
                path,
                events,
            });
        }
    }
    out
}

/// The golden stream `<provider>/<case>`.
pub fn golden(provider: Provider, case: &str) -> Golden {
    goldens()
        .into_iter()
        .find(|g| g.provider == provider && g.case == case)
        .unwrap_or_else(|| panic!("no golden stream {}/{case}", provider.as_str()))
}

/// The options every golden stream is decoded with: the provider's reference model.
pub fn options(provider: Provider) -> StreamOptions {
    StreamOptions::for_model(provider.reference_model())
}

/// Decodes events; returns the outcome and every delta (as JSON), in order.
pub fn decode<S: AsRef<str>>(provider: Provider, events: &[S]) -> (StreamOutcome, Vec<Value>) {
    let mut d = StreamDecoder::new(provider, options(provider));
    let mut deltas = Vec::new();
    for e in events {
        if let Ok(ds) = d.push(e.as_ref()) {
            deltas.extend(ds.iter().map(|x| serde_json::to_value(x).unwrap()));
        }
    }
    (d.finish(), deltas)
}

/// Decodes JSON values (for the property tests, which rewrite events).
pub fn decode_values(provider: Provider, events: &[Value]) -> StreamOutcome {
    let mut d = StreamDecoder::new(provider, options(provider));
    for e in events {
        let _ = d.push_value(e);
    }
    d.finish()
}

/// The events of a golden stream as JSON (`[DONE]` as the string "[DONE]").
pub fn values(g: &Golden) -> Vec<Value> {
    g.events
        .iter()
        .map(|e| serde_json::from_str(e).unwrap_or_else(|_| Value::String(e.clone())))
        .collect()
}

/// Decodes JSON values where `"[DONE]"` strings are pushed as the marker.
pub fn decode_mixed(provider: Provider, events: &[Value]) -> StreamOutcome {
    let mut d = StreamDecoder::new(provider, options(provider));
    for e in events {
        let _ = match e {
            Value::String(s) => d.push(s),
            other => d.push_value(other),
        };
    }
    d.finish()
}

/// The providers that speak the Chat Completions stream (`[DONE]` ends it).
pub const CHAT_DIALECTS: [Provider; 5] = [
    Provider::OpenAiChat,
    Provider::Mistral,
    Provider::Kimi,
    Provider::DeepSeek,
    Provider::OpenAiCompatible,
];
