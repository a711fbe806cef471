//! Reading JSON that comes from outside (scenario files, exported traces, the data a link
//! carries) strictly, with errors a user can act on.
//!
//! Plain `serde_json` has three holes this module closes: it accepts text after the document
//! (`{…}xyz`, two scenarios in one file) when reading from a `Deserializer`; it accepts a JSON
//! array wherever a struct or a tagged object is expected (serde's sequence form, which takes
//! fields by position and so skips the unknown-field check); and its messages speak Rust
//! ("invalid type: floating point `1.8446744073709552e19`, expected u64"). Here the document must
//! be exactly one value, every object must be written as an object, a UTF-8 byte-order mark is
//! accepted, and every error carries a line and column, and the path to the value it is about
//! (`clients[1].renewal`) where serde can say.
//!
//! The path is tracked by the same wrapper that makes reading strict, not by a second one
//! (`serde_path_to_error` was one: it wrapped every type's `Deserialize` a second time, and was
//! the biggest crate in the app's wasm after the app, the simulator and Yew).
//!
//! This module knows nothing about what it reads: the types' own `Deserialize` implementations
//! say what is valid, and semantic checks stay with them.

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, Expected, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};
use std::cell::RefCell;
use std::fmt;

/// The byte-order mark some editors put at the start of a UTF-8 file.
const BYTE_ORDER_MARK: char = '\u{feff}';

/// What is wrong with a document, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// 1-based; 0 when serde cannot say (inside tagged objects).
    pub line: usize,
    pub column: usize,
    /// Where in the document, e.g. `clients[1].renewal`, when known.
    pub path: Option<String>,
    pub message: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}, column {}: ", self.line, self.column)?;
        }
        match &self.path {
            Some(path) => write!(f, "{path}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for JsonError {}

/// `bytes` as text, or where the first byte that is not UTF-8 sits.
pub fn text(bytes: &[u8]) -> Result<&str, JsonError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let offset = e.valid_up_to();
        // Valid up to `offset`, so this prefix is text.
        let before = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        JsonError {
            line,
            column,
            path: None,
            message: format!(
                "byte {offset} is not UTF-8 text: save the file as UTF-8 (it may be in another \
                 encoding, or not a text file at all)"
            ),
        }
    })
}

/// Reads one `what` (a word for the message: "scenario", "trace") from `json`, strictly.
pub fn from_str<T: DeserializeOwned>(json: &str, what: &str) -> Result<T, JsonError> {
    let json = json.strip_prefix(BYTE_ORDER_MARK).unwrap_or(json);
    let mut reader = serde_json::Deserializer::from_str(json);
    let track = Track::default();
    let value = T::deserialize(Strict::new(&mut reader, &track, Role::Value)).map_err(|e| {
        let path = track.failed_at.take().unwrap_or_else(|| track.path());
        JsonError {
            line: e.line(),
            column: e.column(),
            path: (!path.is_empty()).then_some(path),
            message: plain(&e),
        }
    })?;
    reader.end().map_err(|e| JsonError {
        line: e.line(),
        column: e.column(),
        path: None,
        message: format!("unexpected text after the end of the {what}"),
    })?;
    Ok(value)
}

/// serde_json's message without its position (the caller puts it first), and with number
/// errors said in words.
fn plain(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let message = message.split(" at line ").next().unwrap_or_default();
    let whole_number = |range: &str| format!("must be a whole number from {range}");
    for (rust, range) in [
        ("u8", "0 to 255".to_owned()),
        ("u16", format!("0 to {}", u16::MAX)),
        ("u32", format!("0 to {}", u32::MAX)),
        ("u64", format!("0 to {}", u64::MAX)),
        ("i32", format!("{} to {}", i32::MIN, i32::MAX)),
        ("i64", format!("{} to {}", i64::MIN, i64::MAX)),
    ] {
        if message.starts_with("invalid ") && message.ends_with(&format!(", expected {rust}")) {
            return whole_number(&range);
        }
    }
    message.to_owned()
}

const ARRAY_FOR_OBJECT: &str =
    "found an array where an object belongs: write it as { \"field\": value, … }";

/// One step of a path into the document.
enum Segment {
    /// An element of an array.
    Index(usize),
    /// A field of an object, or the variant of an enum written as `{"variant": …}`.
    Key(String),
    /// A key that was not read as text or a number.
    Unknown,
}

/// Where the reader is in the document, and where the first error was met (the innermost
/// wrapper that sees an error records the path; the ones it passes through on the way out find
/// it recorded).
#[derive(Default)]
struct Track {
    at: RefCell<Vec<Segment>>,
    /// The last object key or enum variant read, for the value that follows it.
    key: RefCell<Option<String>>,
    failed_at: RefCell<Option<String>>,
}

impl Track {
    /// `clients[1].ttl_ms`: keys joined by dots, indices in brackets; empty at the top (the
    /// form serde_path_to_error wrote, which messages and tests already use).
    fn path(&self) -> String {
        let mut text = String::new();
        for segment in self.at.borrow().iter() {
            let key = match segment {
                Segment::Index(index) => {
                    text.push_str(&format!("[{index}]"));
                    continue;
                }
                Segment::Key(key) => key.as_str(),
                Segment::Unknown => "?",
            };
            if !text.is_empty() {
                text.push('.');
            }
            text.push_str(key);
        }
        text
    }

    /// Records where the reader is as where it failed, unless a deeper wrapper already did.
    fn failed(&self) {
        if self.failed_at.borrow().is_none() {
            let path = self.path();
            *self.failed_at.borrow_mut() = Some(path);
        }
    }

    fn enter(&self, segment: Segment) {
        self.at.borrow_mut().push(segment);
    }

    fn leave(&self) {
        self.at.borrow_mut().pop();
    }

    /// The segment for the key or variant just read.
    fn take_key(&self) -> Segment {
        match self.key.borrow_mut().take() {
            Some(key) => Segment::Key(key),
            None => Segment::Unknown,
        }
    }
}

/// What a value being read is for: an object key or enum variant is captured for the path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Value,
    Key,
}

/// A deserializer (and, below, the accessors it hands out) that refuses an array wherever an
/// object is expected, at every depth, and keeps the path in `track`.
struct Strict<'t, D> {
    de: D,
    place: Place<'t>,
}

impl<'t, D> Strict<'t, D> {
    fn new(de: D, track: &'t Track, role: Role) -> Self {
        Strict {
            de,
            place: Place { track, role },
        }
    }
}

/// The track, and what the value being read is for.
#[derive(Clone, Copy)]
struct Place<'t> {
    track: &'t Track,
    role: Role,
}

/// What a visitor may be given.
#[derive(Clone, Copy)]
enum Shape {
    /// Whatever the type accepts.
    Any,
    /// An object only: a struct, or a struct variant.
    Object,
    /// An object only if the visitor reads an internally tagged enum (which serde asks for with
    /// `deserialize_any`, as it does a buffered value of any shape).
    ObjectIfTagged,
}

struct Checked<'t, V> {
    visitor: V,
    shape: Shape,
    place: Place<'t>,
}

impl<'t, 'de, V: Visitor<'de>> Checked<'t, V> {
    fn refuses_arrays(&self) -> bool {
        match self.shape {
            Shape::Any => false,
            Shape::Object => true,
            Shape::ObjectIfTagged => {
                // serde's derive names the visitor of a tagged enum "internally tagged enum X";
                // the tests of arrays in place of tagged objects fail if that ever changes.
                let expecting = &self.visitor as &dyn Expected;
                expecting.to_string().starts_with("internally tagged enum")
            }
        }
    }

    /// Remembers `key` for the path when this visitor reads an object key or a variant.
    fn capture(&self, key: impl fmt::Display) {
        if self.place.role == Role::Key {
            *self.place.track.key.borrow_mut() = Some(key.to_string());
        }
    }
}

impl<'t> Place<'t> {
    /// Records the path of an error met reading a value. An error met reading a key is
    /// recorded by the map, with the key on the path, or by the enum, without the variant.
    fn failed(self) {
        if self.role == Role::Value {
            self.track.failed();
        }
    }

    fn checked<V>(self, visitor: V, shape: Shape) -> Checked<'t, V> {
        Checked {
            visitor,
            shape,
            place: self,
        }
    }
}

/// Every `deserialize_*` of [`Strict`]: hand the call on with the visitor checked for `$shape`,
/// and record where an error was met. Written once so that no method can forget either half.
macro_rules! forward_deserialize {
    ($($method:ident($($arg:ident: $type:ty),*) $shape:ident;)*) => {$(
        fn $method<V: Visitor<'de>>(
            self,
            $($arg: $type,)*
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            let place = self.place;
            let checked = place.checked(visitor, Shape::$shape);
            self.de
                .$method($($arg,)* checked)
                .inspect_err(|_| place.failed())
        }
    )*};
}

impl<'t, 'de, D: Deserializer<'de>> Deserializer<'de> for Strict<'t, D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_any() ObjectIfTagged;
        deserialize_bool() Any;
        deserialize_i8() Any;
        deserialize_i16() Any;
        deserialize_i32() Any;
        deserialize_i64() Any;
        deserialize_i128() Any;
        deserialize_u8() Any;
        deserialize_u16() Any;
        deserialize_u32() Any;
        deserialize_u64() Any;
        deserialize_u128() Any;
        deserialize_f32() Any;
        deserialize_f64() Any;
        deserialize_char() Any;
        deserialize_str() Any;
        deserialize_string() Any;
        deserialize_bytes() Any;
        deserialize_byte_buf() Any;
        deserialize_option() Any;
        deserialize_unit() Any;
        deserialize_seq() Any;
        deserialize_map() Any;
        deserialize_identifier() Any;
        deserialize_ignored_any() Any;
        deserialize_unit_struct(name: &'static str) Any;
        deserialize_newtype_struct(name: &'static str) Any;
        deserialize_tuple(len: usize) Any;
        deserialize_tuple_struct(name: &'static str, len: usize) Any;
        deserialize_struct(name: &'static str, fields: &'static [&'static str]) Object;
        deserialize_enum(name: &'static str, variants: &'static [&'static str]) Any;
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident($type:ty))*) => {$(
        fn $method<E: de::Error>(self, value: $type) -> Result<V::Value, E> {
            self.visitor.$method(value)
        }
    )*};
}

macro_rules! forward_visit_key {
    ($($method:ident($type:ty))*) => {$(
        fn $method<E: de::Error>(self, value: $type) -> Result<V::Value, E> {
            self.capture(&value);
            self.visitor.$method(value)
        }
    )*};
}

impl<'t, 'de, V: Visitor<'de>> Visitor<'de> for Checked<'t, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    forward_visit! {
        visit_f32(f32) visit_f64(f64) visit_char(char)
        visit_bytes(&[u8]) visit_borrowed_bytes(&'de [u8]) visit_byte_buf(Vec<u8>)
    }

    // The ways a key can be handed over: text, or a boolean or number for such keys.
    forward_visit_key! {
        visit_bool(bool) visit_i8(i8) visit_i16(i16) visit_i32(i32) visit_i64(i64)
        visit_i128(i128) visit_u8(u8) visit_u16(u16) visit_u32(u32) visit_u64(u64)
        visit_u128(u128) visit_str(&str) visit_borrowed_str(&'de str)
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<V::Value, E> {
        self.capture(&value);
        self.visitor.visit_string(value)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.visitor
            .visit_some(Strict::new(deserializer, self.place.track, Role::Value))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<V::Value, D::Error> {
        self.visitor
            .visit_newtype_struct(Strict::new(deserializer, self.place.track, Role::Value))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        if self.refuses_arrays() {
            return Err(de::Error::custom(ARRAY_FOR_OBJECT));
        }
        self.visitor.visit_seq(StrictSeq {
            seq,
            track: self.place.track,
            index: 0,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_map(StrictMap {
            map,
            track: self.place.track,
        })
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_enum(StrictEnum {
            data,
            track: self.place.track,
        })
    }
}

/// A seed whose deserializer is made strict.
struct StrictSeed<'t, T> {
    seed: T,
    track: &'t Track,
    role: Role,
}

impl<'t, 'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for StrictSeed<'t, T> {
    type Value = T::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T::Value, D::Error> {
        self.seed
            .deserialize(Strict::new(deserializer, self.track, self.role))
    }
}

struct StrictSeq<'t, A> {
    seq: A,
    track: &'t Track,
    index: usize,
}

impl<'t, 'de, A: SeqAccess<'de>> SeqAccess<'de> for StrictSeq<'t, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        let track = self.track;
        track.enter(Segment::Index(self.index));
        self.index += 1;
        let element = self
            .seq
            .next_element_seed(StrictSeed {
                seed,
                track,
                role: Role::Value,
            })
            .inspect_err(|_| track.failed());
        track.leave();
        element
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

struct StrictMap<'t, A> {
    map: A,
    track: &'t Track,
}

impl<'t, 'de, A: MapAccess<'de>> MapAccess<'de> for StrictMap<'t, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let track = self.track;
        track.key.take();
        self.map
            .next_key_seed(StrictSeed {
                seed,
                track,
                role: Role::Key,
            })
            .inspect_err(|_| {
                track.enter(track.take_key());
                track.failed();
                track.leave();
            })
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        let track = self.track;
        track.enter(track.take_key());
        let value = self
            .map
            .next_value_seed(StrictSeed {
                seed,
                track,
                role: Role::Value,
            })
            .inspect_err(|_| track.failed());
        track.leave();
        value
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

struct StrictEnum<'t, A> {
    data: A,
    track: &'t Track,
}

impl<'t, 'de, A: EnumAccess<'de>> EnumAccess<'de> for StrictEnum<'t, A> {
    type Error = A::Error;
    type Variant = StrictVariant<'t, A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let track = self.track;
        track.key.take();
        let (value, variant) = self
            .data
            .variant_seed(StrictSeed {
                seed,
                track,
                role: Role::Key,
            })
            .inspect_err(|_| track.failed())?;
        let name = track.take_key();
        Ok((
            value,
            StrictVariant {
                variant,
                track,
                name,
            },
        ))
    }
}

/// The content of an enum variant, read with the variant's name on the path.
struct StrictVariant<'t, A> {
    variant: A,
    track: &'t Track,
    name: Segment,
}

impl<'t, A> StrictVariant<'t, A> {
    /// Reads the variant's content with its name on the path.
    fn within<T, E>(self, read: impl FnOnce(A, &'t Track) -> Result<T, E>) -> Result<T, E> {
        let track = self.track;
        track.enter(self.name);
        let result = read(self.variant, track).inspect_err(|_| track.failed());
        track.leave();
        result
    }
}

impl<'t, 'de, A: VariantAccess<'de>> VariantAccess<'de> for StrictVariant<'t, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.within(|variant, _| variant.unit_variant())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.within(|variant, track| {
            variant.newtype_variant_seed(StrictSeed {
                seed,
                track,
                role: Role::Value,
            })
        })
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.within(|variant, track| {
            variant.tuple_variant(
                len,
                Place {
                    track,
                    role: Role::Value,
                }
                .checked(visitor, Shape::Any),
            )
        })
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.within(|variant, track| {
            variant.struct_variant(
                fields,
                Place {
                    track,
                    role: Role::Value,
                }
                .checked(visitor, Shape::Object),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Pair {
        a: u64,
        b: Vec<u8>,
    }

    #[test]
    fn an_object_and_its_arrays_read_as_usual() {
        let pair: Pair = from_str(r#"{"a": 1, "b": [2, 3]}"#, "pair").expect("valid");
        assert_eq!(
            pair,
            Pair {
                a: 1,
                b: vec![2, 3]
            }
        );
    }

    #[test]
    fn a_byte_order_mark_is_accepted() {
        let pair: Pair = from_str("\u{feff}{\"a\": 1, \"b\": []}", "pair").expect("valid");
        assert_eq!(pair.a, 1);
    }

    #[test]
    fn a_number_out_of_range_is_said_in_words() {
        let error = from_str::<Pair>(r#"{"a": 18446744073709551616, "b": []}"#, "pair")
            .expect_err("above u64::MAX")
            .to_string();
        assert_eq!(
            error,
            "line 1, column 26: a: must be a whole number from 0 to 18446744073709551615"
        );
        let error = from_str::<Pair>(r#"{"a": 1, "b": [300]}"#, "pair")
            .expect_err("above u8::MAX")
            .to_string();
        assert!(
            error.contains("b[0]: must be a whole number from 0 to 255"),
            "{error}"
        );
    }

    #[test]
    fn text_that_is_not_utf8_says_where() {
        let error = text(b"{\n  \"a\": \"caf\xe9\"}").expect_err("Latin-1");
        assert_eq!((error.line, error.column), (2, 12));
        assert!(
            error.to_string().contains("byte 13 is not UTF-8"),
            "{error}"
        );
    }

    /// The old reading: serde_path_to_error around the strict layer (whose own path is unused).
    fn old_from_str<T: DeserializeOwned>(json: &str) -> Result<T, JsonError> {
        let json = json.strip_prefix(BYTE_ORDER_MARK).unwrap_or(json);
        let mut reader = serde_json::Deserializer::from_str(json);
        let unused = Track::default();
        let value: T =
            serde_path_to_error::deserialize(Strict::new(&mut reader, &unused, Role::Value))
                .map_err(|e| {
                    let path = e.path().to_string();
                    let inner = e.into_inner();
                    JsonError {
                        line: inner.line(),
                        column: inner.column(),
                        path: (path != ".").then_some(path),
                        message: plain(&inner),
                    }
                })?;
        reader.end().map_err(|e| JsonError {
            line: e.line(),
            column: e.column(),
            path: None,
            message: "unexpected text after the end".to_string(),
        })?;
        Ok(value)
    }

    /// Every place in `value`, as JSON pointers.
    fn pointers(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
        let children: Vec<(String, &serde_json::Value)> = match value {
            serde_json::Value::Object(map) => map
                .iter()
                .map(|(key, child)| (format!("{at}/{key}"), child))
                .collect(),
            serde_json::Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(index, child)| (format!("{at}/{index}"), child))
                .collect(),
            _ => Vec::new(),
        };
        for (pointer, child) in children {
            out.push(pointer.clone());
            pointers(child, pointer, out);
        }
    }

    #[test]
    fn names_the_same_place_as_serde_path_to_error_did() {
        use serde_json::{Value, json};
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .expect("the scenarios folder")
            .map(|entry| entry.expect("an entry").path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
            .collect();
        files.sort();
        assert!(files.len() > 10, "{files:?}");
        let (mut compared, mut with_path) = (0, 0);
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            let document: Value = serde_json::from_str(&text).expect("JSON");
            let mut places = Vec::new();
            pointers(&document, String::new(), &mut places);
            for place in &places {
                let (parent, key) = place.rsplit_once('/').expect("a parent");
                let edits: [&dyn Fn(&mut Value); 4] = [
                    &|v| {
                        let changed = match v.pointer(place) {
                            Some(Value::Number(_)) => json!("7"),
                            Some(Value::String(_)) => json!(7),
                            Some(Value::Array(_)) => json!({"a": 1}),
                            Some(Value::Object(_)) => json!([1]),
                            _ => json!([]),
                        };
                        if let Some(node) = v.pointer_mut(place) {
                            *node = changed;
                        }
                    },
                    &|v| match v.pointer_mut(parent) {
                        Some(Value::Object(map)) => {
                            map.remove(key);
                        }
                        Some(Value::Array(items)) => {
                            items.remove(key.parse().expect("an index"));
                        }
                        _ => {}
                    },
                    &|v| {
                        if let Some(Value::Object(map)) = v.pointer_mut(place) {
                            map.insert("colour".to_string(), json!(3));
                        }
                    },
                    &|v| {
                        if let Some(node @ Value::Number(_)) = v.pointer_mut(place) {
                            *node = json!(-1);
                        }
                    },
                ];
                for edit in edits {
                    let mut edited = document.clone();
                    edit(&mut edited);
                    let text = serde_json::to_string_pretty(&edited).expect("serialises");
                    let new = from_str::<crate::Scenario>(&text, "scenario").map(|_| ());
                    let old = old_from_str::<crate::Scenario>(&text).map(|_| ());
                    assert_eq!(new, old, "{} edited at {place}", file.display());
                    compared += 1;
                    if new.is_err_and(|e| e.path.is_some()) {
                        with_path += 1;
                    }
                }
            }
        }
        assert!(
            compared > 1_000 && with_path > 300,
            "{compared} {with_path}"
        );
    }
}
