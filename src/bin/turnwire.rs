//! `turnwire` command line: render a transcript for a provider, or validate a request body.
//!
//! ```text
//! turnwire render --provider <p> [--model <id>] [--options <json>] [FILE|-]
//! turnwire validate --provider <p> [FILE|-]
//! turnwire hosts --json | --ts
//! ```

use std::io::{Read, Write};

/// `println!` that never panics: a closed pipe (`turnwire … | head`) just ends the output.
macro_rules! out {
    ($($t:tt)*) => {{
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

/// `eprintln!` that never panics.
macro_rules! err {
    ($($t:tt)*) => {{
        let _ = writeln!(std::io::stderr().lock(), $($t)*);
    }};
}
use std::process::ExitCode;

use turnwire::import::{from_request_body, ImportSource};
use turnwire::{
    render_owned, validate_request, Error, ErrorCode, Provider, RenderOptions, Transcript,
};

const USAGE: &str = "usage:
  turnwire render --provider <p> [--model <id>] [--options <json>] [FILE|-]
  turnwire validate --provider <p> [FILE|-]
  turnwire import --provider <p> [--model <id>] [FILE|-]
  turnwire hosts --json | --ts

providers: anthropic, openai-chat, openai-responses, gemini, mistral, kimi, deepseek, openai-compatible
render prints {\"body\", \"idMap\", \"toolNames\", \"diagnostics\"}; validate prints violations and exits 1 when there are any;
import reads a request body for <p> and prints {\"transcript\", \"options\", \"diagnostics\"} (--model: the model of its assistant turns, required for gemini);
hosts prints the host table (src/hosts.rs) as JSON, or as the module js/hosts.generated.mts (--ts).";

/// Marker returned by the argument parser for `-h`/`--help`.
const HELP: &str = "help";

struct Args {
    command: String,
    provider: Option<String>,
    model: Option<String>,
    options: Option<String>,
    file: Option<String>,
    /// `--json` or `--ts` (the `hosts` command's output form).
    format: Option<String>,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let command = it.next().ok_or_else(|| "missing command".to_string())?;
    let mut a = Args {
        command,
        provider: None,
        model: None,
        options: None,
        file: None,
        format: None,
    };
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--provider" => a.provider = Some(value("--provider")?),
            "--model" => a.model = Some(value("--model")?),
            "--options" => a.options = Some(value("--options")?),
            "--json" | "--ts" => a.format = Some(arg.trim_start_matches('-').to_string()),
            "-h" | "--help" => return Err(HELP.to_string()),
            other if a.file.is_none() && (other == "-" || !other.starts_with("--")) => {
                a.file = Some(other.to_string())
            }
            other => return Err(format!("unexpected argument `{other}`")),
        }
    }
    Ok(a)
}

fn read_input(file: Option<&str>) -> Result<String, Error> {
    let mut text = String::new();
    let result = match file {
        None | Some("-") => std::io::stdin().read_to_string(&mut text).map(|_| ()),
        Some(path) => std::fs::read_to_string(path).map(|t| text = t),
    };
    result.map_err(|e| {
        Error::new(
            ErrorCode::ReadFailed,
            "$",
            format!("cannot read input: {e}"),
        )
    })?;
    Ok(text)
}

/// The `--provider` argument, required by both commands.
fn provider(a: &Args) -> Result<Provider, Error> {
    a.provider
        .as_deref()
        .ok_or_else(|| {
            Error::new(
                ErrorCode::MissingField,
                "$.provider",
                "--provider is required",
            )
        })?
        .parse()
}

fn options(a: &Args) -> Result<RenderOptions, Error> {
    let provider = provider(a)?;
    let mut v: serde_json::Value = match &a.options {
        Some(text) => serde_json::from_str(text).map_err(|e| {
            Error::new(
                ErrorCode::InvalidJson,
                "$",
                format!("--options is not valid JSON: {e}"),
            )
        })?,
        None => serde_json::json!({}),
    };
    let Some(obj) = v.as_object_mut() else {
        return Err(Error::new(
            ErrorCode::InvalidType,
            "$",
            "--options must be a JSON object",
        ));
    };
    obj.insert("provider".into(), provider.as_str().into());
    if let Some(m) = &a.model {
        obj.insert("model".into(), m.clone().into());
    }
    if !obj.contains_key("model") {
        return Err(Error::new(
            ErrorCode::MissingField,
            "$.model",
            "give the model with --model or in --options",
        ));
    }
    RenderOptions::from_value(v)
}

fn run(a: &Args) -> Result<ExitCode, Error> {
    match a.command.as_str() {
        "render" => {
            let opts = options(a)?;
            let transcript = Transcript::from_json(&read_input(a.file.as_deref())?)?;
            let out = render_owned(transcript, &opts)?;
            out!(
                "{}",
                serde_json::to_string_pretty(&out.to_value()).unwrap_or_default()
            );
            Ok(ExitCode::SUCCESS)
        }
        "validate" => {
            let provider = provider(a)?;
            let text = read_input(a.file.as_deref())?;
            let body: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
                Error::new(ErrorCode::InvalidJson, "$", format!("not valid JSON: {e}"))
            })?;
            let violations = validate_request(provider, &body);
            out!(
                "{}",
                serde_json::to_string_pretty(&violations).unwrap_or_default()
            );
            Ok(if violations.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        "import" => {
            let provider = provider(a)?;
            let text = read_input(a.file.as_deref())?;
            let body: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
                Error::new(ErrorCode::InvalidJson, "$", format!("not valid JSON: {e}"))
            })?;
            let source = ImportSource {
                model: a.model.clone(),
                endpoint: None,
                host: None,
                account: None,
            };
            let imported = from_request_body(provider, &body, &source)?;
            let out = serde_json::json!({
                "transcript": imported.transcript.to_value(),
                "options": imported.options,
                "diagnostics": imported.diagnostics,
            });
            out!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
            Ok(ExitCode::SUCCESS)
        }
        "hosts" => {
            match a.format.as_deref() {
                Some("ts") => {
                    let _ = write!(
                        std::io::stdout().lock(),
                        "{}",
                        turnwire::hosts::typescript()
                    );
                }
                _ => out!(
                    "{}",
                    serde_json::to_string_pretty(&turnwire::hosts::json()).unwrap_or_default()
                ),
            }
            Ok(ExitCode::SUCCESS)
        }
        other => Err(Error::new(
            ErrorCode::InvalidValue,
            "$",
            format!("unknown command `{other}`\n{USAGE}"),
        )),
    }
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(msg) if msg == HELP => {
            out!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(msg) => {
            err!("error: {msg}");
            err!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            err!("error[{}] at {}: {}", e.code(), e.path(), e.message());
            ExitCode::from(2)
        }
    }
}
