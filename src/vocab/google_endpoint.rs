//! Facts about the base URLs Gemini's generateContent is served at: which Google endpoint
//! family a URL belongs to (Gemini thought signatures are bound to it, GEM-23) and whether it
//! names the stable `v1` API version, which refuses `functionCall.id` (GEM-22).

/// The Google endpoint family that serves a Gemini model.
///
/// ```ignore
/// assert_eq!(GoogleEndpoint::of_url("https://us-central1-aiplatform.googleapis.com/v1beta1/projects/p"), Some(GoogleEndpoint::Vertex));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GoogleEndpoint {
    /// Vertex AI: `aiplatform.googleapis.com` and its regional hosts.
    Vertex,
    /// Google AI Studio (the Gemini API): `generativelanguage.googleapis.com`.
    AiStudio,
}

impl GoogleEndpoint {
    /// The family of a base URL, when its host says it; `None` for any other host (a gateway,
    /// a proxy, a mock), whose family turnwire cannot know.
    pub(crate) fn of_url(url: &str) -> Option<GoogleEndpoint> {
        let host = host_of(url).to_ascii_lowercase();
        if host == "aiplatform.googleapis.com" || host.ends_with("-aiplatform.googleapis.com") {
            Some(GoogleEndpoint::Vertex)
        } else if host == "generativelanguage.googleapis.com" {
            Some(GoogleEndpoint::AiStudio)
        } else {
            None
        }
    }

    /// The family a provider name says (`vertex`, `google-vertex`, `vertex-ai`…): Vertex AI.
    /// Other names (`gemini`, `google`) are served by either family, so they say nothing.
    pub(crate) fn of_provider_name(name: &str) -> Option<GoogleEndpoint> {
        name.to_ascii_lowercase()
            .contains("vertex")
            .then_some(GoogleEndpoint::Vertex)
    }

    /// How the family is named in diagnostics.
    pub(crate) const fn describe(self) -> &'static str {
        match self {
            GoogleEndpoint::Vertex => "Vertex AI",
            GoogleEndpoint::AiStudio => "Google AI Studio (generativelanguage.googleapis.com)",
        }
    }
}

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

/// The host of a URL (no scheme, user, port or path).
pub(super) fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or(authority);
    host.split(':').next().unwrap_or(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_come_from_the_host() {
        let vertex = [
            "https://aiplatform.googleapis.com/v1beta1/projects/p/locations/global/publishers/google",
            "https://us-central1-aiplatform.googleapis.com",
            "https://EUROPE-WEST4-aiplatform.googleapis.com:443/v1/",
        ];
        for url in vertex {
            assert_eq!(
                GoogleEndpoint::of_url(url),
                Some(GoogleEndpoint::Vertex),
                "{url}"
            );
        }
        for url in [
            "https://generativelanguage.googleapis.com",
            "https://generativelanguage.googleapis.com/v1beta",
        ] {
            assert_eq!(
                GoogleEndpoint::of_url(url),
                Some(GoogleEndpoint::AiStudio),
                "{url}"
            );
        }
        for url in [
            "http://127.0.0.1:8080",
            "https://gateway.example.com/generativelanguage.googleapis.com",
            "https://notaiplatform.googleapis.com.evil.example",
            "",
        ] {
            assert_eq!(GoogleEndpoint::of_url(url), None, "{url}");
        }
        assert_eq!(
            GoogleEndpoint::of_provider_name("google-vertex"),
            Some(GoogleEndpoint::Vertex)
        );
        assert_eq!(GoogleEndpoint::of_provider_name("gemini"), None);
    }

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
