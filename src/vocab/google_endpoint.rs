//! A fact about the base URLs Gemini's generateContent is served at: whether one names the
//! stable `v1` API version, which refuses `functionCall.id` (GEM-22). Which host a URL belongs
//! to (Vertex AI or Google AI Studio, GEM-23) is the host table's (`src/hosts.rs`).

/// Whether a base URL names the stable `v1` API version (a path segment `v1`): there Gemini
/// answers `Invalid JSON payload received. Unknown name "id" at
/// 'contents[N].parts[M].function_call': Cannot find field.` to a call id (GEM-22). `v1beta`,
/// `v1beta1` and `v1alpha` take ids; a URL that names no version is sent to `v1beta` by the JS
/// provider table.
pub(crate) fn names_stable_v1(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let path = rest.split(['?', '#']).next().unwrap_or_default();
    path.split('/')
        .skip(1)
        .any(|segment| segment.eq_ignore_ascii_case("v1"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gem_22_only_an_explicit_v1_segment_is_the_stable_api() {
        for url in [
            "https://generativelanguage.googleapis.com/v1",
            "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/l",
            "https://generativelanguage.googleapis.com/V1/",
        ] {
            assert!(names_stable_v1(url), "{url}");
        }
        for url in [
            "https://generativelanguage.googleapis.com",
            "https://generativelanguage.googleapis.com/v1beta",
            "https://aiplatform.googleapis.com/v1beta1/projects/p",
            "https://example.com/v1alpha",
            "https://v1.example.com",
            "https://example.com/api?version=/v1",
        ] {
            assert!(!names_stable_v1(url), "{url}");
        }
    }
}
