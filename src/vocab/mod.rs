//! The words every stage shares, in a leaf every floor may import: the provider names, the
//! wire APIs and their facts, the hosts that serve them ([`Host`]), and the diagnostics with
//! their codes and passes (as serde_json keeps its `Error` in a leaf that `ser`, `de` and
//! `value` import).
//! Nothing here imports another module of the crate but `error`.

mod diagnostic;
mod google_endpoint;
mod host;
mod needs;
mod openrouter;
mod pass;
mod provider;
mod provider_facts;
mod signature_minter;
mod synthetic_reason;
mod wire_api;

pub use diagnostic::{DedupeDecision, Diagnostic, DiagnosticCode, FaultClass, SyntheticReasonCode};
pub(crate) use google_endpoint::{names_stable_v1, GoogleEndpoint};
pub(crate) use host::Host;
pub(crate) use needs::{Bridge, ByModel, Replay};
pub(crate) use openrouter::is_openrouter;
pub use pass::Pass;
pub use provider::Provider;
pub(crate) use provider_facts::{
    Audio, CacheStyle, Carry, ChatDialect, Images, OutputLimit, TokenCounting,
};
pub(crate) use signature_minter::foreign_signature_minter;
pub use synthetic_reason::SyntheticReason;
pub(crate) use wire_api::{Pairing, WireApi};
