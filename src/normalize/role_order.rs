//! Role order: system prompts to the system slot, same-speaker neighbours merged where the
//! provider needs strict alternation, an assistant turn between tool results and the next user
//! message where the provider needs one (Mistral), and a leading user turn where the provider
//! needs one.

use super::options::{Bridge, NormalizeOptions, Profile};
use super::work::{describe_message, Msg};
use crate::model::{Block, ProviderMeta, Speaker};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// Moves `system` messages into the provider's system slot: the ones that open the
/// conversation always, later ones only when the provider cannot take them in place. Returns the
/// hoisted texts in order.
///
/// Where the provider takes them in place and roles alternate strictly (Anthropic, ANT-25), a
/// system message must follow a user message and precede an assistant message or end the
/// array: it moves down to right before the next assistant message (past tool results and user
/// text), a second one in a row merges into it (`system_moved`), and one that would still
/// follow an assistant message goes to the system prompt (`system_hoisted`).
pub(crate) fn hoist_system(
    msgs: Vec<Msg>,
    profile: Profile,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Msg>, Vec<String>) {
    let mut system = Vec::new();
    let mut out = Vec::with_capacity(msgs.len());
    let mut seen_other = false;
    let placed = profile.system_anywhere && profile.alternation;
    // a system message waiting for the next assistant message, and whether it moved
    let mut pending: Option<(Msg, bool)> = None;
    for m in msgs {
        if m.speaker != Speaker::System {
            seen_other = true;
            if placed && m.speaker == Speaker::Ai {
                if let Some(p) = pending.take() {
                    place_pending(p, &mut out, &mut system, diags);
                }
            }
            if let Some((_, moved)) = &mut pending {
                *moved = true;
            }
            out.push(m);
            continue;
        }
        if seen_other && placed {
            match &mut pending {
                Some((p, _)) => {
                    diags.push(system_moved(
                        &m,
                        "follows another system message; merged into it",
                    ));
                    p.items.extend(m.items);
                }
                None => pending = Some((m, false)),
            }
            continue;
        }
        if seen_other && profile.system_anywhere {
            out.push(m);
            continue;
        }
        if seen_other {
            diags.push(system_hoisted(&m));
        }
        changes_lost(&m, diags);
        push_text(&mut system, &m);
    }
    if let Some(p) = pending {
        place_pending(p, &mut out, &mut system, diags);
    }
    (out, system)
}

/// Puts a waiting system message at the end of `out` when it follows a user message (tool
/// results are one), else into the system prompt.
fn place_pending(
    (m, moved): (Msg, bool),
    out: &mut Vec<Msg>,
    system: &mut Vec<String>,
    diags: &mut Vec<Diagnostic>,
) {
    let after_user = out
        .last()
        .is_some_and(|prev| matches!(prev.speaker, Speaker::Human | Speaker::Tool));
    let changes = m
        .items
        .iter()
        .any(|i| matches!(i.block, Block::ToolChange(_)));
    if after_user && (changes || !system_text(&m).is_empty()) {
        if moved {
            diags.push(system_moved(
                &m,
                "must precede an assistant message or end the conversation; moved to right before the next assistant message",
            ));
        }
        out.push(m);
    } else {
        diags.push(system_hoisted(&m));
        changes_lost(&m, diags);
        push_text(system, &m);
    }
}

/// The tool changes of a system message that goes to the system prompt, which has no place for
/// them: each is named (ANT-53).
fn changes_lost(m: &Msg, diags: &mut Vec<Diagnostic>) {
    for item in &m.items {
        if let Block::ToolChange(c) = &item.block {
            diags.push(
                Diagnostic::new(
                    DiagnosticCode::ToolChangeProjected,
                    FaultClass::ProviderProjection,
                    format!(
                        "a tool change (`{}`, {}) stands where no system message can: the system prompt has no place for it; left out",
                        c.describe(),
                        c.change.as_str()
                    ),
                )
                .at(item.origin),
            );
        }
    }
}

/// Adds a system message's text to the system prompt (one holding only tool changes has none).
fn push_text(system: &mut Vec<String>, m: &Msg) {
    let text = system_text(m);
    if !text.is_empty()
        || !m
            .items
            .iter()
            .any(|i| matches!(i.block, Block::ToolChange(_)))
    {
        system.push(text);
    }
}

/// The text of a system message (its text and code blocks).
fn system_text(m: &Msg) -> String {
    let texts: Vec<String> = m
        .items
        .iter()
        .filter_map(|i| match &i.block {
            Block::Text(t) => Some(t.text.clone()),
            Block::Code(c) => Some(c.code.clone()),
            _ => None,
        })
        .collect();
    texts.join("\n\n")
}

fn system_hoisted(m: &Msg) -> Diagnostic {
    Diagnostic::new(
        DiagnosticCode::SystemHoisted,
        FaultClass::ProviderProjection,
        format!(
            "system {} in the middle of the conversation was moved into the system prompt",
            describe_message(m.origin)
        ),
    )
    .at_message(m.origin)
}

fn system_moved(m: &Msg, why: &str) -> Diagnostic {
    Diagnostic::new(
        DiagnosticCode::SystemMoved,
        FaultClass::ProviderProjection,
        format!("system {} {why} (ANT-25)", describe_message(m.origin)),
    )
    .at_message(m.origin)
}

/// Where the provider needs strict alternation, or reasoning on every tool-call message
/// ([`Profile::merges_assistant_pieces`]), consecutive assistant messages are one turn
/// stored in pieces (a model's parallel calls written one message each, text then calls; its
/// reasoning, text and calls written one message each): they merge before results are placed,
/// so parallel calls stay one step with one tool message after it (Gemini pairs results with
/// the calls of the previous turn, GEM-01) and a step's reasoning reaches its calls (KIM-12).
/// Without strict alternation only pieces next to each other in the input merge here (what
/// happens between them, a duplicate result dropped, must not join them: the incremental
/// renderer's boundary may lie there); [`order`] merges the ones results placement brings
/// together.
pub(crate) fn merge_assistant_pieces(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    merge_pieces(msgs, opts, true, diags)
}

/// [`merge_assistant_pieces`], with pieces next to each other in the input only when
/// `input_neighbours`.
fn merge_pieces(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    input_neighbours: bool,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    let profile = Profile::for_options(opts);
    if !profile.merges_assistant_pieces() {
        return msgs;
    }
    // Two assistant messages that may be pieces of one step: `a` (ending at input position
    // `a_end`) and `b`.
    let neighbours = input_neighbours && !profile.alternation;
    let joins = |a: &Msg, a_end: Option<usize>, b: &Msg| {
        a.speaker == Speaker::Ai
            && b.speaker == Speaker::Ai
            && (!neighbours || a_end.zip(b.origin).is_some_and(|(x, y)| x + 1 == y))
    };
    // Without strict alternation, only the pieces that lead to a step's calls are merged (its
    // reasoning and text before the calls), not an answer written after them.
    let mut leads = vec![false; msgs.len()];
    let mut next: Option<(&Msg, bool)> = None;
    for (i, m) in msgs.iter().enumerate().rev() {
        let on = m.speaker == Speaker::Ai
            && (m.has_calls() || next.is_some_and(|(n, l)| l && joins(m, m.origin, n)));
        if let Some(l) = leads.get_mut(i) {
            *l = on;
        }
        next = Some((m, on));
    }
    let mut out: Vec<Msg> = Vec::with_capacity(msgs.len());
    // The input position of the last piece merged into `out`'s last message.
    let mut last_origin: Option<usize> = None;
    for (m, lead) in msgs.into_iter().zip(leads) {
        let merge = out.last().is_some_and(|p| {
            joins(p, last_origin, &m) && (profile.alternation || (lead && !p.has_calls()))
        });
        if let (true, Some(prev)) = (merge, out.last_mut()) {
            diags.push(
                Diagnostic::new(
                    DiagnosticCode::MessagesMerged,
                    FaultClass::ProviderProjection,
                    format!(
                        "assistant {} continues the assistant message before it; merged into it for {}",
                        describe_message(m.origin),
                        opts.target
                    ),
                )
                .at_message(m.origin),
            );
            last_origin = m.origin;
            absorb(prev, m);
            continue;
        }
        last_origin = m.origin;
        out.push(m);
    }
    out
}

/// Appends `piece`'s blocks to `prev`, the message it merges into. A call keeps who made it:
/// when the piece's provenance is another than `prev`'s, it goes on each call that names none
/// of its own (a call Mistral made stays Mistral's inside a Gemini turn, so its id is not
/// echoed as one Gemini minted, GEM-22), and on each text part Gemini signed (an AI Studio
/// signature merged into a Vertex AI turn stays AI Studio's, GEM-23). Other blocks take the
/// merged message's provenance, as before.
fn absorb(prev: &mut Msg, piece: Msg) {
    let own = piece.provenance();
    let stamp = !own.is_empty() && own != prev.provenance();
    for mut item in piece.items {
        match (stamp, &mut item.block) {
            (true, Block::ToolCall(c)) if c.provenance.is_none() => {
                c.provenance = Some(own.clone());
            }
            (true, Block::Text(t))
                if t.provenance.is_none()
                    && matches!(t.meta, Some(ProviderMeta::GeminiThoughtSignature { .. })) =>
            {
                t.provenance = Some(own.clone());
            }
            _ => {}
        }
        prev.items.push(item);
    }
}

/// Puts a bridging assistant turn before `out[at]` when the message before it is one it cannot
/// directly follow.
fn bridge_before(
    out: &mut Vec<Msg>,
    at: usize,
    bridge: Bridge,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(next) = out.get(at) else { return };
    let prev = at.checked_sub(1).and_then(|p| out.get(p));
    let Some(why) = bridge_needed(bridge, prev, next) else {
        return;
    };
    diags.push(
        Diagnostic::new(
            DiagnosticCode::AssistantBridgeInserted,
            FaultClass::ProviderProjection,
            format!(
                "{} does not take {why}; a short assistant turn was inserted before {}",
                opts.target,
                describe_message(next.origin)
            ),
        )
        .at_message(next.origin),
    );
    out.insert(at, Msg::made_up_text(Speaker::Ai, &opts.bridge_text));
}

/// Why `next` cannot directly follow `prev` on a target with this bridge rule, if it cannot.
fn bridge_needed(bridge: Bridge, prev: Option<&Msg>, next: &Msg) -> Option<&'static str> {
    let results = prev.filter(|p| p.speaker == Speaker::Tool && next.speaker == Speaker::Human)?;
    match bridge {
        Bridge::Never => None,
        Bridge::BeforeEveryUser => Some("a user message right after tool results"),
        Bridge::BeforeMediaAfterParallelResults => {
            let answers = results
                .items
                .iter()
                .filter(|i| matches!(i.block, Block::ToolResponse(_)))
                .count();
            let media = next
                .items
                .iter()
                .any(|i| matches!(i.block, Block::Media(_)));
            (answers > 1 && media)
                .then_some("media in the content that answers several parallel calls (GEM-18)")
        }
    }
}

/// Merges same-role neighbours, bridges what the target cannot take in a row, and opens the
/// conversation with a user turn where the target needs one — unless `after_prefix`: the
/// messages continue a prefix rendered before them (the incremental renderer's tail).
pub(crate) fn order(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    after_prefix: bool,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    let profile = Profile::for_options(opts);
    // Results placed since the pieces were merged can bring more pieces together (KIM-12).
    let msgs = if profile.alternation {
        msgs
    } else {
        merge_pieces(msgs, opts, false, diags)
    };
    let mut out: Vec<Msg> = Vec::with_capacity(msgs.len());
    for m in msgs {
        if profile.alternation {
            if let Some(prev) = out.last_mut() {
                // Same-speaker neighbours merge. A tool message followed by user text shares the
                // provider's user role too; the adapter puts the text after the results.
                let same =
                    prev.speaker == m.speaker && matches!(m.speaker, Speaker::Ai | Speaker::Human);
                if same {
                    diags.push(
                        Diagnostic::new(
                            DiagnosticCode::MessagesMerged,
                            FaultClass::ProviderProjection,
                            format!(
                                "`{}` {} follows another message of the same {} role; merged into it",
                                m.speaker.as_str(),
                                describe_message(m.origin),
                                opts.target
                            ),
                        )
                        .at_message(m.origin),
                    );
                    absorb(prev, m);
                    // A user message that gained media by the merge may need its bridge now.
                    let at = out.len() - 1;
                    bridge_before(&mut out, at, profile.bridge, opts, diags);
                    continue;
                }
            }
        }
        out.push(m);
        let at = out.len() - 1;
        bridge_before(&mut out, at, profile.bridge, opts, diags);
    }
    if profile.leading_user
        && !after_prefix
        && out.first().is_some_and(|m| m.speaker != Speaker::Human)
    {
        diags.push(Diagnostic::new(
            DiagnosticCode::LeadingUserInserted,
            FaultClass::ProviderProjection,
            format!(
                "{} needs the conversation to open with a user turn; one was inserted",
                opts.target
            ),
        ));
        out.insert(
            0,
            Msg::made_up_text(Speaker::Human, &opts.leading_user_text),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::options::DEFAULT_LEADING_USER_TEXT;
    use crate::normalize::test_support::*;
    use crate::vocab::Provider;
    use serde_json::json;

    fn hoist(v: serde_json::Value, target: Provider) -> (Vec<String>, Vec<String>, Vec<String>) {
        let mut diags = Vec::new();
        let (out, system) = hoist_system(
            msgs(v),
            Profile::of(target, crate::models::defaults(target)),
            &mut diags,
        );
        (shape(&out), system, codes(&diags))
    }

    fn ordered(v: serde_json::Value, target: Provider) -> (Vec<Msg>, Vec<String>) {
        let mut diags = Vec::new();
        let out = order(msgs(v), &opts(target), false, &mut diags);
        (out, codes(&diags))
    }

    #[test]
    fn leading_system_messages_hoisted_silently_for_every_target() {
        let input = json!([
            {"speaker": "system", "blocks": [text("be brief"), {"type": "code", "code": "rule 2"}]},
            {"speaker": "system", "blocks": [text("be kind")]},
            {"speaker": "human", "blocks": [text("hi")]}
        ]);
        for target in [Provider::Anthropic, Provider::OpenAiChat] {
            let (s, system, c) = hoist(input.clone(), target);
            assert_eq!(s, ["human: text"]);
            assert_eq!(system, ["be brief\n\nrule 2", "be kind"]);
            assert_eq!(c, NO_CODES);
        }
    }

    #[test]
    fn mid_conversation_system_hoisted_for_anthropic() {
        let (s, system, c) = hoist(
            json!([
                {"speaker": "human", "blocks": [text("hi")]},
                {"speaker": "system", "blocks": [text("now be terse")]},
                {"speaker": "ai", "blocks": [text("ok")]}
            ]),
            Provider::Anthropic,
        );
        assert_eq!(s, ["human: text", "ai: text"]);
        assert_eq!(system, ["now be terse"]);
        assert_eq!(c, ["system_hoisted"]);
    }

    #[test]
    fn mid_conversation_system_kept_in_place_for_openai() {
        let (s, system, c) = hoist(
            json!([
                {"speaker": "system", "blocks": [text("first")]},
                {"speaker": "human", "blocks": [text("hi")]},
                {"speaker": "system", "blocks": [text("now be terse")]}
            ]),
            Provider::OpenAiChat,
        );
        assert_eq!(s, ["human: text", "system: text"]);
        assert_eq!(system, ["first"]);
        assert_eq!(c, NO_CODES);
    }

    #[test]
    fn same_speaker_neighbours_merged_only_for_anthropic() {
        let input = json!([
            {"speaker": "human", "blocks": [text("a")]},
            {"speaker": "human", "blocks": [text("b")]},
            {"speaker": "ai", "blocks": [text("c")]},
            {"speaker": "ai", "blocks": [call("c1")]},
            {"speaker": "tool", "blocks": [result("c1")]},
            {"speaker": "tool", "blocks": [result("c2")]},
            {"speaker": "human", "blocks": [text("d")]}
        ]);
        let (out, c) = ordered(input.clone(), Provider::Anthropic);
        // tool messages and the user text after them are left for the adapter
        assert_eq!(
            shape(&out),
            [
                "human: text text",
                "ai: text call(c1)",
                "tool: result(c1)",
                "tool: result(c2)",
                "human: text"
            ]
        );
        assert_eq!(c, ["messages_merged", "messages_merged"]);
        assert_eq!(texts(&out)[..2], ["a", "b"]);

        let (out, c) = ordered(input, Provider::OpenAiChat);
        assert_eq!(out.len(), 7);
        assert_eq!(c, NO_CODES);
    }

    #[test]
    fn leading_user_turn_inserted_only_for_anthropic() {
        let input = json!([{"speaker": "ai", "blocks": [text("hello again")]}]);
        let (out, c) = ordered(input.clone(), Provider::Anthropic);
        assert_eq!(shape(&out), ["human: text", "ai: text"]);
        assert_eq!(texts(&out), [DEFAULT_LEADING_USER_TEXT, "hello again"]);
        assert_eq!(out[0].origin, None);
        assert_eq!(c, ["leading_user_inserted"]);

        let (out, c) = ordered(input, Provider::OpenAiChat);
        assert_eq!(shape(&out), ["ai: text"]);
        assert_eq!(c, NO_CODES);
    }

    #[test]
    fn history_opening_with_user_needs_no_insert() {
        let (out, c) = ordered(
            json!([
                {"speaker": "human", "blocks": [text("hi")]},
                {"speaker": "ai", "blocks": [text("hello")]}
            ]),
            Provider::Anthropic,
        );
        assert_eq!(shape(&out), ["human: text", "ai: text"]);
        assert_eq!(c, NO_CODES);
    }
}
