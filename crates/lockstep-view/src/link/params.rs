//! The mechanics every link shares: a fragment split into `name=value` parameters, values read
//! as numbers, as one of a set of words, as base64url text or as `%XX`-escaped text, and
//! written back the same ways. A link kind says which parameters it has; this says how one is
//! written.
//!
//! What this module must not do: know any link's parameters, or decide what a problem means
//! for the reading (it only names the parameter, its value and what is wrong).

use super::error::{LinkError, Problem};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use lockstep_sim::scenario::strict_json;
use std::str::FromStr;

/// A fragment without its `#`, if it has one.
pub fn without_hash(fragment: &str) -> &str {
    fragment.strip_prefix('#').unwrap_or(fragment)
}

/// The parameters of a fragment (with or without `#`) as written, empty ones left out.
pub fn written(fragment: &str) -> impl Iterator<Item = &str> {
    without_hash(fragment).split('&').filter(|p| !p.is_empty())
}

/// A parameter's name and value (`name` alone: an empty value).
pub fn split(parameter: &str) -> (&str, &str) {
    parameter.split_once('=').unwrap_or((parameter, ""))
}

/// The parameters of a fragment (with or without `#`): name and value, in the order written.
pub fn pairs(fragment: &str) -> impl Iterator<Item = (&str, &str)> {
    written(fragment).map(split)
}

/// A fragment's (without `#`) first parameter as written, and the rest after its `&`, as
/// written too (empty parameters and all).
pub fn first_and_rest(fragment: &str) -> (&str, &str) {
    fragment.split_once('&').unwrap_or((fragment, ""))
}

/// A fragment (without `#`) of these parameters, each already written `name=value` or `name`.
pub fn join(parameters: &[String]) -> String {
    parameters.join("&")
}

/// A whole number in `T`'s range.
pub fn number<T: FromStr>(parameter: &str, value: &str) -> Result<T, LinkError> {
    value.parse().map_err(|_| {
        LinkError::bad(
            parameter,
            value,
            format!("`{value}` is not a whole number in range"),
        )
    })
}

/// One of `all`, by its word.
pub fn word<T: Copy>(
    parameter: &str,
    value: &str,
    all: &[T],
    word_of: fn(T) -> &'static str,
) -> Result<T, LinkError> {
    all.iter()
        .copied()
        .find(|t| word_of(*t) == value)
        .ok_or_else(|| {
            let words: Vec<&str> = all.iter().map(|t| word_of(*t)).collect();
            LinkError::bad(
                parameter,
                value,
                format!("`{value}` is not one of {}", words.join(", ")),
            )
        })
}

/// Fills `slot` with a parameter's value, which may be given once.
pub fn once<T>(slot: &mut Option<T>, parameter: &str, value: T) -> Result<(), LinkError> {
    if slot.replace(value).is_some() {
        return Err(LinkError::at(parameter, "", Problem::Repeated));
    }
    Ok(())
}

/// `text` as base64url without padding.
pub fn base64(text: &str) -> String {
    URL_SAFE_NO_PAD.encode(text)
}

/// The UTF-8 text a base64url value holds.
pub fn base64_text(parameter: &str, value: &str) -> Result<String, LinkError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(value)
        .map_err(|e| LinkError::bad(parameter, value, format!("not base64url: {e}")))?;
    strict_json::text(&bytes)
        .map(str::to_owned)
        .map_err(|e| LinkError::bad(parameter, value, e.to_string()))
}

/// `text` with everything but RFC 3986's unreserved characters written as `%XX`: what
/// `encodeURIComponent` writes, with `!'()*` escaped too (the host script writes the same).
pub fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A value's text with its `%XX` escapes decoded as UTF-8 (what `encodeURIComponent` writes).
pub fn percent_decode(parameter: &str, value: &str) -> Result<String, LinkError> {
    let bad = |reason: &str| LinkError::bad(parameter, value, reason.to_owned());
    let bytes = value.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| bad("a `%` must be followed by two hexadecimal digits"))?;
            decoded.push(hex);
            i += 3;
        } else {
            decoded.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(decoded).map_err(|_| bad("the decoded text is not UTF-8"))
}
