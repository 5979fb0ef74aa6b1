//! One file per fixed bug: the smallest input that showed it, and the expectation it broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod ai_sdk_error_result_with_media;
mod ant_10_multi_step_loop_keeps_thinking;
mod ant_10_open_loop_with_user_text;
mod compat_gets_no_foreign_reasoning;
mod deepseek_v4_needs_reasoning_content;
mod edit_at_the_boundary_follows_the_prefix;
mod gemini_import_thinking_budget_zero;
mod gemini_parallel_calls_in_pieces;
mod gemini_parallel_media_moved_or_merged;
mod kimi_non_thinking_models_take_reasoning_content;
mod late_duplicate_of_id_less_calls;
mod media_in_tool_message_without_result;
mod parallel_calls_sharing_one_id;
mod pi_ai_results_keep_their_calls_pi_id;
mod redacted_thinking_before_an_empty_signed_text;
mod responses_max_output_tokens_below_16;
mod responses_message_split_after_calls;
mod responses_reasoning_without_item_ids;
mod retry_reuses_id_of_hung_call;
mod thinking_only_pieces_of_one_turn;
