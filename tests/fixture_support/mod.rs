//! The golden fixtures (`tests/fixtures/<case>/`): their directories and the render options of
//! a case for a provider. Shared by the golden test and the importers' round trips.
#![allow(dead_code, clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use turnwire::Provider;

pub fn read_json(path: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// `options.json` merged with `options.<provider>.json` over the provider's reference model.
pub fn options_for(dir: &Path, provider: Provider) -> Value {
    let mut o = json!({"provider": provider.as_str(), "model": provider.reference_model()});
    for file in [
        "options.json".to_string(),
        format!("options.{}.json", provider.as_str()),
    ] {
        if let Some(Value::Object(extra)) = read_json(&dir.join(file)) {
            for (k, v) in extra {
                o[k] = v;
            }
        }
    }
    o
}

/// Every case directory with a `transcript.json`, sorted.
pub fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("transcript.json").is_file())
        .collect();
    dirs.sort();
    dirs
}
