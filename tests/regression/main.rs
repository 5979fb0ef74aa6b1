//! One file per fixed bug: the smallest input that showed it, and the expectation it broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod ant_10_open_loop_with_user_text;
