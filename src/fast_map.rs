//! The hash maps and sets turnwire uses inside a call: the standard library's, hashing with
//! foldhash instead of SipHash. A render builds and probes hundreds of thousands of short
//! string keys (call ids, tool names, JSON member names); SipHash was 5–12 % of its time.
//! Iteration order is never relied on (bodies follow the transcript's order).
//!
//! ```ignore
//! use crate::fast_map::HashMap;
//! let mut ids: HashMap<&str, usize> = HashMap::default();
//! ids.insert("toolu_1", 0);
//! ```

/// A `std::collections::HashMap` hashing with foldhash (build it with `default()`).
pub(crate) type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// A `std::collections::HashSet` hashing with foldhash (build it with `default()`).
pub(crate) type HashSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;
