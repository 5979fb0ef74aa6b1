//! Errors: one typed error with a stable code and the JSON path of the bad input.

use std::fmt;

/// A stable, machine-readable error code. The string form never changes between releases.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub enum ErrorCode {
    /// The input is not JSON at all.
    InvalidJson,
    /// A value has the wrong JSON type (for example a number where a string belongs).
    InvalidType,
    /// A required field is absent.
    MissingField,
    /// A value has the right type but an unacceptable value (unknown speaker, empty model…).
    InvalidValue,
    /// The provider name is not one turnwire knows.
    UnknownProvider,
    /// The provider is known but this build cannot render for it yet.
    UnsupportedProvider,
    /// Nothing is left to send (no user, assistant or tool content).
    EmptyTranscript,
    /// The input could not be read (a file or stream error, in the command line).
    ReadFailed,
    /// Strict mode: the model is unknown or lacks the continuity features turnwire needs.
    UnsupportedModel,
    /// The memory budget ran out ([`crate::memory`]); a conversation keeps its transcript.
    OutOfMemory,
    /// An index names no message (a conversation edit past its end).
    OutOfRange,
    /// The target cannot take an option the caller set, and nothing close to it (structured
    /// output on DeepSeek or on Claude before 4.5).
    UnsupportedOption,
    /// JavaScript only: a method of a `Conversation`, `StreamDecoder` or `StreamRelay` was
    /// called after its `free()` (or on something that is not one).
    Freed,
    /// JavaScript only: a call on a `Conversation`, `StreamDecoder` or `StreamRelay` from inside
    /// another call on it (a getter or `toJSON` of that call's argument calling back).
    ReentrantCall,
}

impl ErrorCode {
    /// The stable string form, as exposed to JavaScript and printed by the CLI.
    ///
    /// ```
    /// use turnwire::ErrorCode;
    /// assert_eq!(ErrorCode::MissingField.as_str(), "missing_field");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidJson => "invalid_json",
            ErrorCode::InvalidType => "invalid_type",
            ErrorCode::MissingField => "missing_field",
            ErrorCode::InvalidValue => "invalid_value",
            ErrorCode::UnknownProvider => "unknown_provider",
            ErrorCode::UnsupportedProvider => "unsupported_provider",
            ErrorCode::EmptyTranscript => "empty_transcript",
            ErrorCode::ReadFailed => "read_failed",
            ErrorCode::UnsupportedModel => "unsupported_model",
            ErrorCode::OutOfMemory => "out_of_memory",
            ErrorCode::OutOfRange => "out_of_range",
            ErrorCode::UnsupportedOption => "unsupported_option",
            ErrorCode::Freed => "freed",
            ErrorCode::ReentrantCall => "reentrant_call",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error every fallible turnwire operation returns.
///
/// `path` is a JSON path into the input that caused it (`$[2].blocks[0].id`), or `$` when the
/// whole input is at fault.
///
/// ```
/// let err = turnwire::Transcript::from_json(r#"[{"speaker": "robot", "blocks": []}]"#).unwrap_err();
/// assert_eq!(err.code().as_str(), "invalid_value");
/// assert_eq!(err.path(), "$[0].speaker");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code} at {path}: {message}")]
pub struct Error {
    code: ErrorCode,
    path: String,
    message: String,
}

impl Error {
    /// Builds an error from its parts. A value the message quotes (between backquotes or
    /// double quotes) longer than 80 bytes is cut to its start and its length
    /// (``found `xxxx…` (4194304 bytes)``), and a message or path still longer than 2 KiB keeps
    /// its start and its end: a bad value can be megabytes, an error message is logged and shown.
    pub fn new(code: ErrorCode, path: impl Into<String>, message: impl Into<String>) -> Self {
        Error {
            code,
            path: crate::excerpt::bounded(path.into()),
            message: crate::excerpt::bounded(crate::excerpt::bound_quotes(message.into())),
        }
    }

    /// The stable code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The JSON path of the offending input.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// A human-readable explanation.
    pub fn message(&self) -> &str {
        &self.message
    }
}
