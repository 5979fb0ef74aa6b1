//! Tool-call ID projection: canonical ids → each provider's lexical format.
