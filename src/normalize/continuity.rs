//! The continuity policy table: for each continuity artifact and its provenance versus the
//! render target, keep it, or hand it to the foreign-thinking policy (drop / plain text).
//!
//! | artifact | anthropic | openai-responses | gemini | reasoning_content targets (deepseek, kimi, …) | others |
//! |---|---|---|---|---|---|
//! | Anthropic signed / redacted thinking | keep: same provider, model (and endpoint when known), thinking on | convert | convert | convert (with `foreignThinking: text`, its text is reused where reasoning is required) | convert |
//! | OpenAI reasoning item (id + encrypted content) | convert | keep: same model (and endpoint), encrypted content present | convert | convert | convert |
//! | reasoning text (`reasoning_content`, unsigned thinking) | convert | convert | convert | keep: same provider family | convert |
//! | Gemini thought signature on a call or text part | drop | drop | keep: same model (and endpoint when known; never across Vertex AI ↔ AI Studio, GEM-23) | drop | drop |
//! | OpenAI Responses `phase` on assistant text, client-tool item shape of a call or result (ORS-18/19) | drop | keep | drop | drop | drop |
//! | OpenRouter `reasoning_details` on thinking (ORT-02) | convert | convert | convert | not sent; the text as reasoning text | not sent; chat targets on OpenRouter: keep, same model (and endpoint, account) |
//!
//! "Convert" means the caller's [`ForeignThinking`](super::ForeignThinking) policy: left out
//! (default) or plain `<thinking>` text. Where a target *requires* an artifact the history lacks,
//! the synthesis pass supplies it (Gemini 3 placeholder signatures; `reasoning_content` on the
//! tool-call turns of the current loop for DeepSeek thinking mode and Kimi thinking models,
//! where any thinking text of that turn is reused, else an empty string). Every decision is a
//! diagnostic.

use super::options::{ForeignThinking, NormalizeOptions, Profile, ThinkingReplay};
use crate::model::{provider_family, Provenance, ProviderMeta, ThinkingBlock};
use crate::vocab::{Host, Provider};

/// What happens to one thinking block.
pub(crate) enum Fate {
    /// Replayed as reasoning the target understands.
    Keep,
    /// Replayed as reasoning although another model produced it, because the target requires
    /// reasoning on this message; the string says why.
    Reuse(String),
    /// Handed to the foreign-thinking policy; the string says why.
    Convert(String),
}

fn target_provenance(opts: &NormalizeOptions) -> Provenance {
    Provenance {
        provider: Some(opts.target.as_str().to_string()),
        api: None,
        model: Some(opts.model.clone()),
        endpoint: opts.endpoint.clone(),
        host: target_host(opts).map(|h| h.as_str().to_string()),
        account: opts.account.clone(),
    }
}

/// The host the request goes to: the caller's, else the one the endpoint's URL names (none
/// for a URL of no host in the table: a gateway, a proxy, a mock), else, without an endpoint,
/// the target provider's own (none for `openai-compatible`).
pub(crate) fn target_host(opts: &NormalizeOptions) -> Option<Host> {
    opts.host.or_else(|| match opts.endpoint.as_deref() {
        Some(url) => crate::hosts::of_url(url),
        None => Host::of(opts.target),
    })
}

/// `provider / model (at endpoint)` for messages.
pub(crate) fn describe_origin(p: &Provenance) -> String {
    let mut s = format!(
        "{} / {}",
        p.provider.as_deref().unwrap_or("an unknown provider"),
        p.model.as_deref().unwrap_or("an unknown model")
    );
    if let Some(e) = &p.endpoint {
        s.push_str(&format!(" at {e}"));
    }
    s
}

/// Same model as the target, or why not. Provenance-less artifacts match only when the caller
/// trusts them.
fn same_model(prov: &Provenance, opts: &NormalizeOptions) -> Result<(), String> {
    let target = target_provenance(opts);
    if prov.is_empty() {
        return if opts.trust_unattributed_thinking {
            Ok(())
        } else {
            Err("its provenance is unknown, so it cannot be attributed to this model".into())
        };
    }
    let other_account = matches!((&prov.account, &target.account), (Some(a), Some(b)) if a != b);
    if prov.same_model_as(&target) {
        Ok(())
    } else if other_account && prov.same_family_as(&target) && prov.model == target.model {
        // the labels stay out of the message: they may be derived from a key (js/account.mts)
        Err("it was made under another account than this request's".into())
    } else if let Some((minted, to)) =
        other_host(prov, &target).filter(|_| prov.model == target.model)
    {
        Err(format!(
            "it was served by {minted} and this request goes to {to}: signatures and encrypted reasoning are replayed only within one host's family"
        ))
    } else {
        Err(format!(
            "it comes from {}, not {}",
            describe_origin(prov),
            describe_origin(&target)
        ))
    }
}

/// The two hosts, when both are known and of different continuity families.
fn other_host(prov: &Provenance, target: &Provenance) -> Option<(String, String)> {
    let (a, b) = (prov.host_name()?, target.host_name()?);
    (crate::hosts::family_of(&a) != crate::hosts::family_of(&b)).then_some((a, b))
}

/// Whether the target model reads a Claude thinking block of `prov`: the same model, or, for a
/// target from Opus 4.8 on, an older Claude model served on the same host and account — a
/// newer Claude reads older Claude's blocks, an older one silently drops a newer one's
/// (provider-changes-2026.md A1), so an upgrade keeps the reasoning.
fn readable_by_target(prov: &Provenance, opts: &NormalizeOptions) -> Result<(), String> {
    let why = match same_model(prov, opts) {
        Ok(()) => return Ok(()),
        Err(why) => why,
    };
    let target = target_provenance(opts);
    let older = match (
        prov.model
            .as_deref()
            .and_then(crate::models::claude_generation),
        crate::models::claude_generation(&opts.model),
    ) {
        // documented from the 2026 models on (Opus 4.8 and later); older targets keep the
        // exact-model rule
        (Some(block), Some(model)) => block < model && model >= (4, 8),
        _ => false,
    };
    if older && prov.same_family_as(&target) && prov.same_host_as(&target) {
        Ok(())
    } else {
        Err(why)
    }
}

/// The fate of a thinking block under `profile`. `required` says the target needs reasoning on
/// this message (a tool-call turn of the current loop for a `reasoning_content` target).
pub(crate) fn thinking(
    t: &ThinkingBlock,
    msg_prov: &Provenance,
    opts: &NormalizeOptions,
    profile: Profile,
    required: bool,
) -> Fate {
    let prov = t.provenance.clone().unwrap_or_default().or(msg_prov);
    if let (Some(ProviderMeta::OpenRouterReasoningDetails { .. }), true) =
        (&t.meta, takes_reasoning_details(opts))
    {
        // ORT-02: sent back whole to the model that produced them, on OpenRouter
        return match same_openrouter_model(&prov, opts) {
            Ok(()) => Fate::Keep,
            Err(why) => Fate::Convert(format!(
                "its OpenRouter reasoning details are not sent: {why}"
            )),
        };
    }
    match profile.thinking {
        ThinkingReplay::None => Fate::Convert(format!("{} takes no reasoning back", opts.target)),
        ThinkingReplay::AnthropicSigned => {
            let signed = match &t.meta {
                Some(ProviderMeta::AnthropicSignature { signature }) => !signature.is_empty(),
                Some(ProviderMeta::AnthropicRedacted { data }) => !data.is_empty(),
                _ => false,
            };
            if !signed {
                return Fate::Convert("it carries no Anthropic signature".into());
            }
            // ANT-51: a signature another provider's Anthropic-compatible endpoint minted,
            // whatever the provenance says (a gateway relabels), goes back only to that host.
            let target = target_host(opts);
            let first_party = opts
                .endpoint
                .as_deref()
                .is_none_or(|e| e.contains("anthropic.com"))
                && !target.is_some_and(|h| crate::hosts::mints_own_signatures(h.as_str()));
            // A host that mints its own signatures (DeepSeek, Kimi, Z.ai `/anthropic`) takes
            // only its own back, and its own go nowhere else (the host table).
            if let Some(minted) = prov.host_name() {
                let target = target.map(Host::as_str);
                let own = |h: &str| crate::hosts::mints_own_signatures(h);
                if (own(&minted) || target.is_some_and(own))
                    && target.is_some_and(|t| {
                        crate::hosts::family_of(t) != crate::hosts::family_of(&minted)
                    })
                {
                    return Fate::Convert(format!(
                        "its signature was minted on {minted} and this request goes to {}: a signature is replayed only to the host that minted it",
                        target.unwrap_or_default()
                    ));
                }
            }
            if let Some(ProviderMeta::AnthropicSignature { signature }) = &t.meta {
                if let Some(minter) = crate::vocab::foreign_signature_minter(signature) {
                    if first_party {
                        return Fate::Convert(format!(
                            "its signature is {minter}, not Anthropic's; Anthropic refuses it (ANT-51)"
                        ));
                    }
                }
            }
            if let Err(why) = readable_by_target(&prov, opts) {
                return Fate::Convert(why);
            }
            if !opts.thinking_enabled {
                return Fate::Convert("thinking is off for this request".into());
            }
            Fate::Keep
        }
        ThinkingReplay::ReasoningItems => {
            let encrypted = matches!(
                &t.meta,
                Some(ProviderMeta::OpenAiReasoning { encrypted_content: Some(e), .. })
                    if !e.is_empty()
            );
            if !encrypted {
                return Fate::Convert(
                    "it is no OpenAI reasoning item with encrypted content (stateless replay needs it)"
                        .into(),
                );
            }
            match same_model(&prov, opts) {
                Ok(()) => Fate::Keep,
                Err(why) => Fate::Convert(why),
            }
        }
        ThinkingReplay::ReasoningField { .. } => {
            // A generic server is one model; the named providers take their family's reasoning.
            let own = if opts.target == Provider::OpenAiCompatible {
                same_model(&prov, opts).is_ok() && !prov.is_empty()
            } else {
                prov.provider
                    .as_deref()
                    .is_some_and(|p| provider_family(p) == provider_family(opts.target.as_str()))
            };
            let has_text = !t.thought.trim().is_empty();
            if own && has_text {
                Fate::Keep
            } else if required && has_text && opts.foreign_thinking == ForeignThinking::Text {
                Fate::Reuse(format!(
                    "{} needs reasoning_content on this tool-call turn and foreign thinking is sent as text; the thinking of {} is sent as it",
                    opts.target,
                    describe_origin(&prov)
                ))
            } else if !has_text {
                Fate::Convert("it has no reasoning text to send".into())
            } else {
                Fate::Convert(format!(
                    "it comes from {}, and {} takes reasoning_content only from its own models",
                    describe_origin(&prov),
                    opts.target
                ))
            }
        }
    }
}

/// Whether the target takes OpenRouter's `reasoning_details` back: a Chat Completions request
/// to OpenRouter (the `host` option, else the host its endpoint names).
pub(crate) fn takes_reasoning_details(opts: &NormalizeOptions) -> bool {
    matches!(
        opts.target,
        Provider::OpenAiChat | Provider::OpenAiCompatible
    ) && target_host(opts) == Some(Host::OpenRouter)
}

/// Whether details of `prov` go back to the target on OpenRouter, or why not: the same model,
/// minted on OpenRouter (either chat provider may point there, so the provider name does not
/// decide; a provenance without endpoint needs the target's provider family), the same account
/// where both are known.
fn same_openrouter_model(prov: &Provenance, opts: &NormalizeOptions) -> Result<(), String> {
    let target = target_provenance(opts);
    let on_openrouter = prov.host_name().as_deref() == Some(Host::OpenRouter.as_str());
    if (prov.endpoint.is_some() || prov.host.is_some()) && !on_openrouter {
        return Err(format!(
            "it comes from {}, not OpenRouter",
            describe_origin(prov)
        ));
    }
    if !on_openrouter {
        return same_model(prov, opts);
    }
    let account = match (&prov.account, &target.account) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    };
    if prov.model != target.model {
        Err(format!(
            "it comes from {}, not {}",
            describe_origin(prov),
            describe_origin(&target)
        ))
    } else if !account {
        Err("it was made under another account than this request's".into())
    } else {
        Ok(())
    }
}

/// Why a kept thinking block's OpenRouter `reasoning_details` are not sent, when they are not:
/// only OpenRouter takes them (ORT-02); its text goes on as the target's reasoning.
pub(crate) fn details_not_sent(t: &ThinkingBlock, opts: &NormalizeOptions) -> Option<String> {
    match &t.meta {
        Some(ProviderMeta::OpenRouterReasoningDetails { .. }) if !takes_reasoning_details(opts) => {
            Some(format!(
                "{} is not OpenRouter; only OpenRouter takes reasoning_details back (ORT-02), so only the reasoning text is sent",
                opts.target
            ))
        }
        _ => None,
    }
}

/// Whether a Gemini thought signature on a call or text part is replayed, or why not.
pub(crate) fn gemini_token(
    signature: &str,
    prov: &Provenance,
    opts: &NormalizeOptions,
    profile: Profile,
) -> Result<(), String> {
    if !profile.gemini_tokens {
        return Err(format!(
            "{} takes no Gemini thought signatures",
            opts.target
        ));
    }
    let base64 = !signature.is_empty()
        && signature
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=' | b'-' | b'_'));
    if !base64 {
        return Err(
            "it is not a base64 signature (Gemini answers `Corrupted thought signature`, GEM-08)"
                .into(),
        );
    }
    let google = |h: &str| matches!(h, "vertex" | "google");
    if let (Some(minted), Some(target)) = (prov.host_name(), target_host(opts)) {
        if google(&minted) && google(target.as_str()) && minted != target.as_str() {
            return Err(format!(
                "it was minted on {} and this request goes to {}: a Gemini thought signature is bound to the endpoint that minted it (Gemini answers `Corrupted thought signature.`, GEM-23)",
                describe_google(&minted),
                describe_google(target.as_str())
            ));
        }
    }
    same_model(prov, opts)
}

/// Whether an OpenAI Responses label is replayed, or why not: a message's `phase` (ORS-18) and
/// the client-tool item shape behind a call or result (ORS-19) mean something to the Responses
/// API only (any model: neither is bound to the model or account that produced it). Elsewhere
/// the text stays text and the call an ordinary tool call with its arguments as JSON.
pub(crate) fn responses_label(meta: &ProviderMeta, opts: &NormalizeOptions) -> Result<(), String> {
    if let ProviderMeta::OpenAiPhase { phase } = meta {
        if !matches!(phase.as_str(), "commentary" | "final_answer") {
            return Err(format!(
                "`{phase}` is not a phase (ORS-18: `commentary` or `final_answer`)"
            ));
        }
    }
    if opts.target == Provider::OpenAiResponses {
        return Ok(());
    }
    Err(match meta {
        ProviderMeta::OpenAiItem { item_type, .. } => format!(
            "{} has no `{item_type}` item; it is sent as an ordinary tool call or result with its arguments as JSON",
            opts.target
        ),
        _ => format!("only OpenAI Responses labels assistant messages with a phase, not {}", opts.target),
    })
}

/// How a Google host is named in GEM-23's diagnostics.
fn describe_google(host: &str) -> &'static str {
    if host == "vertex" {
        "Vertex AI"
    } else {
        "Google AI Studio (generativelanguage.googleapis.com)"
    }
}
