//! Whether a request goes to OpenRouter, the one host that takes `reasoning_details` back on
//! assistant messages (ORT-02). Decided from the endpoint's host until the host table
//! (issue 32, `host: "openrouter"`) names it; this is the one place to re-point then.

use super::google_endpoint::host_of;

/// Whether `endpoint` (a base URL) is OpenRouter's: the host `openrouter.ai` or one below it.
/// Unknown (`None`) is not OpenRouter: its details are sent only where the target is known.
///
/// ```ignore
/// assert!(is_openrouter(Some("https://openrouter.ai/api/v1")));
/// assert!(!is_openrouter(Some("https://api.openai.com/v1")));
/// ```
pub(crate) fn is_openrouter(endpoint: Option<&str>) -> bool {
    endpoint.is_some_and(|url| {
        let host = host_of(url).to_ascii_lowercase();
        let host = host.trim_end_matches('.');
        host == "openrouter.ai" || host.ends_with(".openrouter.ai")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openrouter_is_told_by_its_host() {
        for yes in [
            "https://openrouter.ai/api/v1",
            "https://OpenRouter.ai/api/v1/",
            "https://openrouter.ai:443/api/v1",
            "https://eu.openrouter.ai/api/v1",
        ] {
            assert!(is_openrouter(Some(yes)), "{yes}");
        }
        for no in [
            "https://api.openai.com/v1",
            "https://openrouter.ai.example.com/v1",
            "https://notopenrouter.ai/v1",
            "https://proxy.example.com/openrouter.ai/v1",
        ] {
            assert!(!is_openrouter(Some(no)), "{no}");
        }
        assert!(!is_openrouter(None));
    }
}
