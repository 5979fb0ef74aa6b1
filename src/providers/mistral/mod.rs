//! Mistral (La Plateforme; also mistral-common / vLLM serving): strict request validation.

pub mod validate;
