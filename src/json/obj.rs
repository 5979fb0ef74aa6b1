//! `obj!`: a JSON object built in order, each value moved or copied once.

/// A JSON object from `{"key": value, …}` in order, each value converted with `Value::from`:
/// moved or copied once. (`serde_json::json!` serialises every interpolated value into a new
/// `Value`, which deep-copies message contents and tool arguments a second time.) Values are
/// Rust expressions: nest `obj!` for inner objects.
macro_rules! obj {
    ({ $($key:literal : $value:expr),* $(,)? }) => {{
        let mut map = serde_json::Map::new();
        $( map.insert(String::from($key), serde_json::Value::from($value)); )*
        serde_json::Value::Object(map)
    }};
}
pub(crate) use obj;
