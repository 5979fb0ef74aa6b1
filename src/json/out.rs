//! A request body as the adapters build it: [`Out`], a JSON tree whose strings are borrowed from
//! the normalised transcript and the options where they need no change, whose member names are
//! mostly `&'static str`, and whose objects are plain lists of members in order.
//!
//! Built as `serde_json::Value`s, a body copied every message text and tool output once into
//! the tree and once more into the bytes, and allocated a name, a member table and a hash index
//! for every object; most of a render's time went to allocating and freeing them. An `Out` is
//! written straight to bytes ([`Out::write`]: byte for byte what the same body as a `Value`
//! gives) and becomes a `Value` only where one is wanted ([`Out::into_value`]: `render()`'s
//! body, the incremental renderer, `providerOptions`).

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::write::{write_str_in, write_value_in};

/// A JSON value under construction (see the module doc).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Out<'a> {
    /// A string.
    Str(Cow<'a, str>),
    /// Any JSON value taken as it is: `null`, booleans, numbers, tool arguments, schemas.
    Json(Cow<'a, Value>),
    /// An array.
    Arr(Vec<Out<'a>>),
    /// An object.
    Obj(Obj<'a>),
}

/// An object's members in order; a name appears once ([`Obj::insert`] replaces in place, as
/// `serde_json::Map` does).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Obj<'a>(pub(crate) Vec<(Cow<'a, str>, Out<'a>)>);

/// `null`.
pub(crate) const NULL: Out<'static> = Out::Json(Cow::Borrowed(&Value::Null));

impl<'a> Obj<'a> {
    /// An empty object.
    pub(crate) fn new() -> Self {
        Obj(Vec::new())
    }

    /// Sets `key` to `value`: in its place when the object has it, else last.
    ///
    /// ```ignore
    /// let mut o = Obj::new();
    /// o.insert("a", 1u64);
    /// o.insert("b", "x");
    /// o.insert("a", 2u64);
    /// assert_eq!(o.into_value().to_string(), r#"{"a":2,"b":"x"}"#);
    /// ```
    pub(crate) fn insert(&mut self, key: impl Into<Cow<'a, str>>, value: impl Into<Out<'a>>) {
        let key = key.into();
        let value = value.into();
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => *v = value,
            None => self.0.push((key, value)),
        }
    }

    /// The value of `key`, to change it.
    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut Out<'a>> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Takes member `key` out.
    pub(crate) fn remove(&mut self, key: &str) -> Option<Out<'a>> {
        let i = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(i).1)
    }

    /// Whether the object has no member.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The object as a `serde_json::Map`.
    pub(crate) fn into_map(self) -> Map<String, Value> {
        self.0
            .into_iter()
            .map(|(k, v)| (k.into_owned(), v.into_value()))
            .collect()
    }
}

impl<'a> Out<'a> {
    /// An array of strings, borrowed.
    pub(crate) fn strs(items: &'a [String]) -> Self {
        Out::Arr(items.iter().map(Out::from).collect())
    }

    /// The value as a `serde_json::Value`.
    pub(crate) fn into_value(self) -> Value {
        match self {
            Out::Str(s) => Value::String(s.into_owned()),
            Out::Json(v) => v.into_owned(),
            Out::Arr(items) => Value::Array(items.into_iter().map(Out::into_value).collect()),
            Out::Obj(o) => Value::Object(o.into_map()),
        }
    }

    /// The object's members, to change them; a JSON object taken as it is becomes an [`Obj`]
    /// first. `None` for anything but an object.
    pub(crate) fn as_obj_mut(&mut self) -> Option<&mut Obj<'a>> {
        if let Out::Json(v) = self {
            let Value::Object(map) = v.as_ref() else {
                return None;
            };
            let members = map
                .iter()
                .map(|(k, v)| (Cow::Owned(k.clone()), Out::Json(Cow::Owned(v.clone()))))
                .collect();
            *self = Out::Obj(Obj(members));
        }
        match self {
            Out::Obj(o) => Some(o),
            _ => None,
        }
    }

    /// The value of member `key` of an object.
    pub(crate) fn get(&self, key: &str) -> Option<&Out<'a>> {
        match self {
            Out::Obj(o) => o.0.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string it is, if it is one.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Out::Str(s) => Some(s),
            Out::Json(v) => v.as_str(),
            _ => None,
        }
    }

    /// Appends the value as compact JSON, byte for byte what `json::write` writes for the same
    /// value as a `Value` (with `ASCII`, every non-ASCII character as a `\u` escape).
    pub(crate) fn write<const ASCII: bool>(&self, out: &mut Vec<u8>) {
        match self {
            Out::Str(s) => write_str_in::<ASCII>(out, s),
            Out::Json(v) => write_value_in::<ASCII>(out, v),
            Out::Arr(items) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    item.write::<ASCII>(out);
                }
                out.push(b']');
            }
            Out::Obj(o) => {
                out.push(b'{');
                for (i, (key, item)) in o.0.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    write_str_in::<ASCII>(out, key);
                    out.push(b':');
                    item.write::<ASCII>(out);
                }
                out.push(b'}');
            }
        }
    }
}

impl<'a> From<&'a str> for Out<'a> {
    fn from(s: &'a str) -> Self {
        Out::Str(Cow::Borrowed(s))
    }
}

impl<'a> From<&'a String> for Out<'a> {
    fn from(s: &'a String) -> Self {
        Out::Str(Cow::Borrowed(s))
    }
}

impl From<String> for Out<'_> {
    fn from(s: String) -> Self {
        Out::Str(Cow::Owned(s))
    }
}

impl<'a> From<Cow<'a, str>> for Out<'a> {
    fn from(s: Cow<'a, str>) -> Self {
        Out::Str(s)
    }
}

impl From<Value> for Out<'_> {
    fn from(v: Value) -> Self {
        Out::Json(Cow::Owned(v))
    }
}

impl<'a> From<&'a Value> for Out<'a> {
    fn from(v: &'a Value) -> Self {
        Out::Json(Cow::Borrowed(v))
    }
}

impl<'a> From<Vec<Out<'a>>> for Out<'a> {
    fn from(items: Vec<Out<'a>>) -> Self {
        Out::Arr(items)
    }
}

impl<'a> From<Obj<'a>> for Out<'a> {
    fn from(o: Obj<'a>) -> Self {
        Out::Obj(o)
    }
}

/// Numbers and booleans, as `serde_json::Value::from` makes them (so they write alike).
macro_rules! scalar_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Out<'_> {
            fn from(x: $t) -> Self {
                Out::Json(Cow::Owned(Value::from(x)))
            }
        }
    )*};
}
scalar_from!(bool, u32, u64, i64, f64);

/// An [`Out`] object from `{"key": value, …}` in order, each value converted with `Out::from`
/// (borrowed where it is a reference). Values are Rust expressions: nest `out!` for inner
/// objects.
///
/// ```ignore
/// let text = String::from("hi");
/// let part = out!({"type": "text", "text": &text});
/// ```
macro_rules! out {
    ({ $($key:literal : $value:expr),* $(,)? }) => {
        $crate::json::out::Out::Obj($crate::json::out::Obj(vec![
            $( (std::borrow::Cow::Borrowed($key), $crate::json::out::Out::from($value)) ),*
        ]))
    };
}
pub(crate) use out;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn bytes<const ASCII: bool>(o: &Out<'_>) -> Vec<u8> {
        let mut b = Vec::new();
        o.write::<ASCII>(&mut b);
        b
    }

    #[test]
    fn an_out_writes_the_bytes_of_its_value_in_both_modes() {
        let args = json!({"path": "a\"b", "n": [1, 1.5, null], "ü": "😀"});
        let mut o = out!({"role": "assistant", "content": "é\n", "args": &args, "n": 3u64, "f": 0.5f64, "ok": true});
        if let Some(obj) = o.as_obj_mut() {
            obj.insert("role", "user");
            obj.insert(String::from("extra"), vec![out!({}), NULL, Out::from("x")]);
        }
        let value = o.clone().into_value();
        assert_eq!(
            value,
            json!({"role": "user", "content": "é\n", "args": args, "n": 3, "f": 0.5, "ok": true, "extra": [{}, null, "x"]})
        );
        assert_eq!(bytes::<false>(&o), crate::json::write::to_vec(&value));
        let mut ascii = Vec::new();
        crate::json::write::write_value_ascii(&mut ascii, &value);
        assert_eq!(bytes::<true>(&o), ascii);
    }

    /// Random trees: strings of every kind of character, numbers, nested arrays and objects
    /// built through `Obj::insert` (names may repeat), borrowed and owned JSON values.
    fn tree() -> impl proptest::strategy::Strategy<Value = Out<'static>> {
        use proptest::prelude::*;
        let text = "(?s).{0,24}|[\"\\\\\\n\\u{0}-\\u{1f}é😀漢]{0,12}";
        let leaf = prop_oneof![
            text.prop_map(Out::from),
            any::<i64>().prop_map(Out::from),
            any::<bool>().prop_map(Out::from),
            (-1e9f64..1e9).prop_map(Out::from),
            Just(NULL),
            text.prop_map(|s| Out::from(json!({ s: [1, "x\n"] }))),
        ];
        leaf.prop_recursive(4, 48, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Out::Arr),
                proptest::collection::vec(("[a-c]{1,2}|é|\"", inner), 0..6).prop_map(|members| {
                    let mut o = Obj::new();
                    for (k, v) in members {
                        o.insert(k, v);
                    }
                    Out::Obj(o)
                }),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn any_out_writes_exactly_what_its_value_writes(o in tree()) {
            let value = o.clone().into_value();
            proptest::prop_assert_eq!(bytes::<false>(&o), crate::json::write::to_vec(&value));
            let ascii = bytes::<true>(&o);
            proptest::prop_assert!(ascii.is_ascii());
            let mut expected = Vec::new();
            crate::json::write::write_value_ascii(&mut expected, &value);
            proptest::prop_assert_eq!(&ascii, &expected);
            let back: Value = serde_json::from_slice(&ascii).unwrap();
            proptest::prop_assert_eq!(back, value);
        }
    }

    #[test]
    fn a_json_object_becomes_members_to_change_and_other_values_do_not() {
        let server_tool = json!({"type": "web_search", "max_uses": 3});
        let mut o = Out::from(&server_tool);
        if let Some(m) = o.as_obj_mut() {
            m.insert("cache_control", json!({"type": "ephemeral"}));
        }
        assert_eq!(
            o.into_value(),
            json!({"type": "web_search", "max_uses": 3, "cache_control": {"type": "ephemeral"}})
        );
        assert!(Out::from("x").as_obj_mut().is_none());
        assert!(NULL.clone().as_obj_mut().is_none());
    }
}
