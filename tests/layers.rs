//! The floors of `src/` (`../shared/DESIGN.md`, "Layout: the core on floors"): every top-level
//! module sits on a floor and imports only from its own floor or the floors below. This test
//! reads the `crate::…` paths of every `src/**/*.rs` file (the text before its first
//! `#[cfg(test)]`; test files and `lib.rs`, which only re-exports, left out) and fails on an
//! import from a lower floor to a higher one, on a module no floor names, and on any import
//! cycle between top-level modules (which same-floor imports could still make).
//!
//! A wish to import upward means a word belongs lower down: move it to `vocab/` (or the floor
//! that owns it) instead of moving this table.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module of `src/` and its floor, lowest first.
const FLOORS: &[(&str, u8)] = &[
    // 0: leaves with no words of turnwire's own
    ("error", 0),
    ("excerpt", 0),
    ("fast_map", 0),
    ("memory", 0),
    // 1: the words every floor shares: Provider, WireApi and its facts, Diagnostic, Pass
    ("vocab", 1),
    // 2: JSON reading and writing, id projection, model capabilities
    ("json", 2),
    ("ids", 2),
    ("models", 2),
    ("hosts", 2),
    // 3: the canonical transcript
    ("model", 3),
    ("context_window", 3),
    // 4: the normaliser's passes; what every stream decoder shares
    ("normalize", 4),
    ("streaming", 4),
    // 5: the render options, resolved once
    ("request", 5),
    // 6: the seam (providers/target.rs) and one folder per wire API
    ("providers", 6),
    // 7: the drivers: render and the stream decoder
    ("render", 7),
    ("decode", 7),
    // 8: the incremental conversation, the importers, the relay
    ("conversation", 8),
    ("import", 8),
    ("relay", 8),
    // 9: the exporters (which read the importers' keys)
    ("export", 9),
    // 10: the bindings
    ("wasm", 10),
    ("bin", 10),
];

fn floor_of(module: &str) -> Option<u8> {
    FLOORS.iter().find(|(m, _)| *m == module).map(|(_, f)| *f)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`src/x.rs` and `src/x/…` are `x`).
fn top_module(rel: &Path) -> String {
    let first = rel
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    first.trim_end_matches(".rs").to_string()
}

fn is_test_file(rel: &Path) -> bool {
    let text = rel.to_string_lossy().replace('\\', "/");
    let name = rel.file_name().map(|n| n.to_string_lossy().into_owned());
    matches!(
        name.as_deref(),
        Some("tests.rs" | "test.rs" | "test_support.rs")
    ) || text.contains("/tests/")
}

/// The source without comments and without what follows the first `#[cfg(test)]`.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The top-level modules `code` names through `crate::` paths, `use crate::{a::…, b}` included.
fn imports_of(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // the members of a grouped `use crate::{…}`, nested braces skipped
            let mut depth = 1;
            let mut start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => {
                        start = true;
                        continue;
                    }
                    c if c.is_whitespace() => continue,
                    _ => {}
                }
                if start && depth == 1 {
                    let name = ident_at(&group[j..]);
                    if !name.is_empty() {
                        out.insert(name.to_string());
                    }
                }
                start = false;
            }
        } else {
            let name = ident_at(rest);
            if !name.is_empty() {
                out.insert(name.to_string());
            }
        }
    }
    out
}

/// Every import between two different top-level modules: module → (module it imports → the
/// files that do).
fn module_imports() -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<String> = files
        .iter()
        .filter_map(|f| f.strip_prefix(&src).ok())
        .map(top_module)
        .collect();
    let mut edges: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in &files {
        let Ok(rel) = file.strip_prefix(&src) else {
            continue;
        };
        let from = top_module(rel);
        if from == "lib" || from == "main" || is_test_file(rel) {
            continue;
        }
        let text = fs::read_to_string(file).unwrap_or_default();
        let entry = edges.entry(from.clone()).or_default();
        for to in imports_of(&code_of(&text)) {
            if to != from && modules.contains(&to) {
                entry
                    .entry(to)
                    .or_default()
                    .insert(rel.to_string_lossy().into_owned());
            }
        }
    }
    edges
}

#[test]
fn every_module_of_src_sits_on_a_floor() {
    let unknown: Vec<String> = module_imports()
        .keys()
        .filter(|m| floor_of(m).is_none())
        .cloned()
        .collect();
    assert!(
        unknown.is_empty(),
        "top-level modules on no floor (add them to FLOORS in tests/layers.rs and to the floors of DESIGN.md): {unknown:?}"
    );
}

#[test]
fn no_module_imports_from_a_higher_floor() {
    let mut upward = Vec::new();
    for (from, targets) in module_imports() {
        let Some(low) = floor_of(&from) else { continue };
        for (to, files) in targets {
            let Some(high) = floor_of(&to) else { continue };
            if high > low {
                upward.push(format!(
                    "{from} (floor {low}) imports {to} (floor {high}) in {files:?}"
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports from a lower floor to a higher one:\n  {}",
        upward.join("\n  ")
    );
}

#[test]
fn no_import_cycle_between_top_level_modules() {
    let edges = module_imports();
    // a module is in a cycle when it can reach itself
    let mut cycles = Vec::new();
    for start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&String> = edges[start].keys().collect();
        while let Some(m) = stack.pop() {
            if m == start {
                cycles.push(start.clone());
                break;
            }
            if seen.insert(m.clone()) {
                if let Some(next) = edges.get(m) {
                    stack.extend(next.keys());
                }
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "modules inside import cycles: {cycles:?}"
    );
}

/// The reader finds what the guard must see: plain, grouped and nested `crate::` paths, and
/// nothing in comments.
#[test]
fn the_import_reader_sees_plain_grouped_and_nested_paths() {
    let code = code_of(
        "use crate::a::B;\nuse crate::{c::{D, e::F}, g};\nfn f() { crate::h::i(); } // crate::zz\n#[cfg(test)]\nuse crate::t;",
    );
    let got: Vec<String> = imports_of(&code).into_iter().collect();
    assert_eq!(got, ["a", "c", "g", "h"]);
}
