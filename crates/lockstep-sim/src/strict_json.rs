//! Reading JSON that comes from outside (scenario files, exported traces, the data a link
//! carries) strictly, with errors a user can act on.
//!
//! Plain `serde_json` has three holes this module closes: it accepts text after the document
//! (`{…}xyz`, two scenarios in one file) when reading from a `Deserializer`; it accepts a JSON
//! array wherever a struct or a tagged object is expected (serde's sequence form, which takes
//! fields by position and so skips the unknown-field check); and its messages speak Rust
//! ("invalid type: floating point `1.8446744073709552e19`, expected u64"). Here the document must
//! be exactly one value, every object must be written as an object, a UTF-8 byte-order mark is
//! accepted, and every error carries a line and column.
//!
//! This module knows nothing about what it reads: the types' own `Deserialize` implementations
//! say what is valid, and semantic checks stay with them.

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, Expected, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};
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
    let value: T = serde_path_to_error::deserialize(Strict(&mut reader)).map_err(|e| {
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

/// A deserializer (and, below, the accessors it hands out) that refuses an array wherever an
/// object is expected, at every depth.
struct Strict<D>(D);

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

struct Checked<V> {
    visitor: V,
    shape: Shape,
}

impl<'de, V: Visitor<'de>> Checked<V> {
    fn new(visitor: V, shape: Shape) -> Checked<V> {
        Checked { visitor, shape }
    }

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
}

macro_rules! forward_deserialize {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method(Checked::new(visitor, Shape::Any))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_any(Checked::new(visitor, Shape::ObjectIfTagged))
    }

    forward_deserialize! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_option
        deserialize_unit deserialize_seq deserialize_map deserialize_identifier
        deserialize_ignored_any
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_unit_struct(name, Checked::new(visitor, Shape::Any))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_newtype_struct(name, Checked::new(visitor, Shape::Any))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_tuple(len, Checked::new(visitor, Shape::Any))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_tuple_struct(name, len, Checked::new(visitor, Shape::Any))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_struct(name, fields, Checked::new(visitor, Shape::Object))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_enum(name, variants, Checked::new(visitor, Shape::Any))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident($type:ty))*) => {$(
        fn $method<E: de::Error>(self, value: $type) -> Result<V::Value, E> {
            self.visitor.$method(value)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Checked<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    forward_visit! {
        visit_bool(bool) visit_i8(i8) visit_i16(i16) visit_i32(i32) visit_i64(i64)
        visit_i128(i128) visit_u8(u8) visit_u16(u16) visit_u32(u32) visit_u64(u64)
        visit_u128(u128) visit_f32(f32) visit_f64(f64) visit_char(char) visit_str(&str)
        visit_borrowed_str(&'de str) visit_string(String) visit_bytes(&[u8])
        visit_borrowed_bytes(&'de [u8]) visit_byte_buf(Vec<u8>)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.visitor.visit_some(Strict(deserializer))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<V::Value, D::Error> {
        self.visitor.visit_newtype_struct(Strict(deserializer))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        if self.refuses_arrays() {
            return Err(de::Error::custom(ARRAY_FOR_OBJECT));
        }
        self.visitor.visit_seq(StrictSeq(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_map(StrictMap(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_enum(StrictEnum(data))
    }
}

/// A seed whose deserializer is made strict.
struct StrictSeed<T>(T);

impl<'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for StrictSeed<T> {
    type Value = T::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T::Value, D::Error> {
        self.0.deserialize(Strict(deserializer))
    }
}

struct StrictSeq<A>(A);

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for StrictSeq<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(StrictSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct StrictMap<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for StrictMap<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(StrictSeed(seed))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(StrictSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct StrictEnum<A>(A);

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for StrictEnum<A> {
    type Error = A::Error;
    type Variant = StrictVariant<A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        self.0
            .variant_seed(StrictSeed(seed))
            .map(|(value, variant)| (value, StrictVariant(variant)))
    }
}

struct StrictVariant<A>(A);

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for StrictVariant<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(StrictSeed(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Checked::new(visitor, Shape::Any))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0
            .struct_variant(fields, Checked::new(visitor, Shape::Object))
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
}
