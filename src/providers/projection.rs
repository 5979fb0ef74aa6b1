//! The per-render projection state adapters share: id and tool-name projectors, the id map,
//! and the projection diagnostics.

use crate::fast_map::HashMap;

use crate::ids::{IdFormat, IdProjector, ToolNameProjector};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// Projection state for one render.
pub(crate) struct Projection {
    ids: IdProjector,
    names: ToolNameProjector,
    by_canonical: HashMap<String, String>,
    names_by_call: HashMap<String, String>,
    /// Canonical → provider id, in call order.
    pub id_map: Vec<(String, String)>,
    /// Diagnostics of lossy projections.
    pub diagnostics: Vec<Diagnostic>,
}

impl Projection {
    /// Fresh state whose tool names must also start with a letter or `_` (Gemini, GEM-10).
    pub fn with_leading_letter_names(format: IdFormat) -> Self {
        Projection {
            names: ToolNameProjector::leading_letter(),
            ..Projection::new(format)
        }
    }

    /// Fresh state for an id format.
    pub fn new(format: IdFormat) -> Self {
        Projection {
            ids: IdProjector::new(format),
            names: ToolNameProjector::new(),
            by_canonical: HashMap::default(),
            names_by_call: HashMap::default(),
            id_map: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// The provider id of a call, assigned on first sight (calls come in transcript order).
    pub fn call_id(&mut self, canonical: &str, projected_name: &str) -> String {
        if let Some(id) = self.by_canonical.get(canonical) {
            return id.clone();
        }
        let id = self.ids.project(canonical, projected_name);
        self.by_canonical.insert(canonical.to_string(), id.clone());
        self.names_by_call
            .insert(canonical.to_string(), projected_name.to_string());
        self.id_map.push((canonical.to_string(), id.clone()));
        id
    }

    /// Sends a call's canonical id as it is: the id the provider minted, echoed back (Gemini 3,
    /// GEM-22). Its results carry the same id ([`Projection::emitted`]).
    pub fn echo_call_id(&mut self, canonical: &str) {
        if self.by_canonical.contains_key(canonical) {
            return;
        }
        self.by_canonical
            .insert(canonical.to_string(), canonical.to_string());
        self.id_map
            .push((canonical.to_string(), canonical.to_string()));
    }

    /// Records a call's (projected) tool name without giving it a wire id (Gemini pairs results
    /// with calls by order and name unless the call's id is echoed).
    pub fn register_call(&mut self, canonical: &str, projected_name: &str) {
        self.names_by_call
            .entry(canonical.to_string())
            .or_insert_with(|| projected_name.to_string());
    }

    /// The provider id of a result: its call's id. (The normaliser puts every result after its
    /// call, so the call's id is already assigned.)
    pub fn result_id(&mut self, canonical: &str) -> String {
        self.call_id(canonical, "")
    }

    /// Claims valid tool names before any invalid one is projected: the declared tools and the
    /// names used by calls in the history.
    pub fn reserve_names<'a>(&mut self, names: impl IntoIterator<Item = &'a str>) {
        self.names.reserve(names);
    }

    /// A tool name that fits the provider's rules.
    pub fn tool_name(&mut self, name: &str) -> String {
        self.names.project(name)
    }

    /// Records a lossy projection concerning a call.
    pub fn note(&mut self, code: DiagnosticCode, message: String, call_id: Option<&str>) {
        let d = Diagnostic::new(code, FaultClass::ProviderProjection, message);
        self.diagnostics.push(match call_id {
            Some(id) => d.call(id.to_string()),
            None => d,
        });
    }

    /// Adds the diagnostics made elsewhere (a request option's), if any.
    pub fn extend_notes(&mut self, d: impl IntoIterator<Item = Diagnostic>) {
        self.diagnostics.extend(d);
    }

    /// Diagnostics for renamed tools (call once at the end); returns the renamed pairs.
    pub fn finish(&mut self) -> Vec<(String, String)> {
        let renamed = self.names.renamed();
        for (from, to) in &renamed {
            self.diagnostics.push(Diagnostic::new(
                DiagnosticCode::ToolNameProjected,
                FaultClass::ProviderProjection,
                format!(
                    "tool name `{from}` does not fit the provider's name rules; sent as `{to}`"
                ),
            ));
        }
        renamed
    }

    /// The (projected) tool name of a call already projected.
    pub fn call_name(&self, canonical: &str) -> Option<String> {
        self.names_by_call.get(canonical).cloned()
    }

    /// The provider id assigned to a canonical id, if any.
    pub fn emitted(&self, canonical: &str) -> Option<&String> {
        self.by_canonical.get(canonical)
    }
}
