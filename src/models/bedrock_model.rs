//! Bedrock model ids: which vendor's model a Converse request goes to, and the vendor's own
//! name for it, so the Claude rows of the capability table serve Claude on Bedrock.
//!
//! A Bedrock model id is a base model (`anthropic.claude-sonnet-4-5-20250929-v1:0`), a
//! cross-region inference profile (`us.` / `eu.` / `apac.` / `jp.` / `au.` / `global.` before
//! it) or an ARN ending in either (`arn:aws:bedrock:us-east-1:…:inference-profile/us.anthropic.…`).
//! An application inference profile's ARN names no model: its family is [`BedrockFamily::Other`].

/// The vendor of a model Bedrock serves, as far as its rules differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BedrockFamily {
    /// Anthropic Claude: signed reasoning, cache points, `toolResult.status`, images in results.
    Claude,
    /// Amazon Nova: cache points (not among the tools), `status`, images in results.
    Nova,
    /// Meta Llama: no text beside a `toolUse` (BDR-10).
    Meta,
    /// Mistral: no text beside a `toolUse` (BDR-10).
    Mistral,
    /// DeepSeek: unsigned reasoning, never replayed (BDR-15).
    DeepSeek,
    /// Any other vendor, or an id that names none.
    Other,
}

impl BedrockFamily {
    /// Claude and Nova take `cachePoint` blocks (BDR-18); other families cache nothing
    /// explicitly.
    ///
    /// ```
    /// use turnwire::models::BedrockFamily;
    /// assert!(BedrockFamily::Nova.takes_cache_points());
    /// ```
    pub const fn takes_cache_points(self) -> bool {
        matches!(self, BedrockFamily::Claude | BedrockFamily::Nova)
    }

    /// Claude and Nova take `toolResult.status` and images inside a `toolResult` (BDR-19/20).
    ///
    /// ```
    /// use turnwire::models::BedrockFamily;
    /// assert!(!BedrockFamily::Meta.takes_result_extras());
    /// ```
    pub const fn takes_result_extras(self) -> bool {
        matches!(self, BedrockFamily::Claude | BedrockFamily::Nova)
    }

    /// Mistral and Meta refuse text beside a `toolUse` in an assistant turn (BDR-10).
    ///
    /// ```
    /// use turnwire::models::BedrockFamily;
    /// assert!(BedrockFamily::Mistral.no_text_beside_tool_use());
    /// ```
    pub const fn no_text_beside_tool_use(self) -> bool {
        matches!(self, BedrockFamily::Meta | BedrockFamily::Mistral)
    }
}

/// The geographic prefixes of Bedrock's cross-region inference profiles.
const GEO_PREFIXES: [&str; 7] = ["us.", "us-gov.", "eu.", "apac.", "jp.", "au.", "global."];

/// The family of a Bedrock model id and the vendor's model name inside it (without the
/// inference profile's region, the vendor and the `-vN:M` version suffix).
///
/// ```
/// use turnwire::models::{bedrock_model, BedrockFamily};
/// assert_eq!(
///     bedrock_model("us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
///     (BedrockFamily::Claude, "claude-sonnet-4-5-20250929".to_string())
/// );
/// assert_eq!(bedrock_model("amazon.nova-pro-v1:0").0, BedrockFamily::Nova);
/// assert_eq!(bedrock_model("meta.llama4-maverick-17b-instruct-v1:0").0, BedrockFamily::Meta);
/// ```
pub fn bedrock_model(id: &str) -> (BedrockFamily, String) {
    let id = id.trim().to_ascii_lowercase();
    // An ARN's resource is after its last `/` (`…:foundation-model/anthropic.claude-…`).
    let mut rest = if id.starts_with("arn:") {
        id.rsplit('/').next().unwrap_or("")
    } else {
        id.as_str()
    };
    if let Some(p) = GEO_PREFIXES.iter().find(|p| rest.starts_with(*p)) {
        rest = &rest[p.len()..];
    }
    let (vendor, name) = match rest.split_once('.') {
        Some((v, n)) => (v, n),
        None => ("", rest),
    };
    let family = match vendor {
        "anthropic" => BedrockFamily::Claude,
        "amazon" if name.starts_with("nova") => BedrockFamily::Nova,
        "meta" => BedrockFamily::Meta,
        "mistral" => BedrockFamily::Mistral,
        "deepseek" => BedrockFamily::DeepSeek,
        _ => BedrockFamily::Other,
    };
    (family, without_version(name).to_string())
}

/// `claude-sonnet-4-5-20250929-v1:0` → `claude-sonnet-4-5-20250929`: the `-vN` suffix and the
/// `:M` throughput tag after it are Bedrock's, not the vendor's.
fn without_version(name: &str) -> &str {
    let name = name.split(':').next().unwrap_or(name);
    match name.rfind("-v") {
        Some(i)
            if i > 0 && name[i + 2..].chars().all(|c| c.is_ascii_digit()) && i + 2 < name.len() =>
        {
            &name[..i]
        }
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_base_models_inference_profiles_and_arns() {
        let claude = |id| bedrock_model(id);
        assert_eq!(
            claude("anthropic.claude-3-5-sonnet-20240620-v1:0"),
            (BedrockFamily::Claude, "claude-3-5-sonnet-20240620".into())
        );
        assert_eq!(
            claude("global.anthropic.claude-opus-4-5-20251101-v1:0"),
            (BedrockFamily::Claude, "claude-opus-4-5-20251101".into())
        );
        assert_eq!(
            claude("arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-haiku-4-5-20251001-v1:0"),
            (BedrockFamily::Claude, "claude-haiku-4-5-20251001".into())
        );
        assert_eq!(
            claude("arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3").0,
            BedrockFamily::Other
        );
        assert_eq!(
            claude("deepseek.r1-v1:0"),
            (BedrockFamily::DeepSeek, "r1".into())
        );
        assert_eq!(
            claude("mistral.mistral-large-2407-v1:0").0,
            BedrockFamily::Mistral
        );
        assert_eq!(
            claude("amazon.titan-text-express-v1").0,
            BedrockFamily::Other
        );
        assert_eq!(claude("qwen.qwen3-32b-v1:0").1, "qwen3-32b");
    }
}
