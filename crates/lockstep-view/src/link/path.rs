//! The pages' own paths (issue 41): every page that can be known when the site is built has a
//! path of its own, rendered to `dist/<path>index.html`, while the app keeps one address per
//! page, the fragment the other files of this folder read. This module is the boundary between
//! the two: where an address lives ([`locate`]: a site-relative path and what stays in the
//! hash), the address a path and a hash make ([`address`]), and the way back to the site's root
//! from a page ([`base`]).
//!
//! Paths are site-relative: no leading `/`, every page's path ends in `/`, the root is ``.
//!
//! | address (fragment)                    | path                    | hash            |
//! |---------------------------------------|-------------------------|-----------------|
//! | `` (the playground's default)         | ``                      | ``              |
//! | `s=<id>&<rest>` (a built-in scenario) | `s/<current id>/`       | `<rest>`        |
//! | `embed&s=<id>&<rest>`                 | `embed/<current id>/`   | `<rest>`        |
//! | (read only) `embed/<id>/<rest>/`      | the embed's document    | appended        |
//! | `learn`                               | `learn/`                | the rest        |
//! | `learn=<id>` or `learn=<id>&step=<n>` | `learn/<id>/<n>/`       | the rest        |
//! | `quiz` or `quiz=1`                    | `quiz/`                 | the rest        |
//! | `quiz=<n>`, n ≥ 2                     | `quiz/<n>/`             | the rest        |
//! | `deck`, `guide`, `sources`, `real`    | `deck/` and so on       | the rest        |
//! | `real=<id>` (read from `real/<id>/`)  | `` (no page yet)        | the fragment    |
//! | `lab` or `lab&<rest>` (search too)    | `lab/`                  | `<rest>`        |
//! | anything else                         | ``                      | the fragment    |
//!
//! "Anything else" is a playground link that carries its scenario whole (`scenario=`) or names
//! a chaos run (`chaos=`), an unknown scenario id (the app says so itself), an embed of anything
//! but a built-in scenario, a lesson or recording id that is not a slug (it would not make a
//! safe directory name), and whatever is not written the one way the app writes it (`quiz=0`,
//! `step=03`, a scenario named twice): the root keeps a fragment whole, so it always reads as it
//! did. A scenario's old id (`catalogue::RENAMED`) lives at its current id's path; `learn=<id>`
//! without a step is step 1, and both are written back as the app writes them
//! ([`super::route::Route::fragment`]: `learn=<id>&step=1`, `quiz=1`).
//!
//! The hash after a path: at the root the hash is the whole address, so every link published
//! before the pages had paths (`index.html#learn=x`) opens what it always opened: there the
//! hash wins. After any other path, the path names the page (and its scenario) and the hash only
//! carries that page's other parameters, appended after the path's own: a hash that names a
//! page itself ([`super::route::Route::parse`] reads one from it), or gives again what the path
//! gives (`s=`, `scenario=` or `chaos=` after `s/<id>/`; `s=`, `scenario=`, `learn=` or `real=`
//! after `embed/<id>/`; `step=` after `learn/<id>/<n>/`), is refused, naming that parameter,
//! rather than read as something the path does not say.
//!
//! An embed of a built-in scenario also has a document of its own for its whole address
//! ([`embed_document`]: `embed/<id>/<rest>/`, its parameters a path segment), which the build
//! renders for the embeds it knows (every built-in scenario's, and every embed in the book) and
//! the host script points a frame at. [`address`] reads it; [`locate`] never writes it, since a
//! document exists only where the build made one.
//!
//! What this module must not do: touch the browser (the caller hands in the path relative to
//! the site's root and the hash), load a scenario, or read a parameter's value beyond choosing
//! the page. Nothing here panics.

use super::embed::EMBED;
use super::error::{LinkError, Problem};
use super::params;
use super::route::Route;
use lockstep_sim::scenario::catalogue;

/// Where an address lives on the site: a page's path (site-relative, ending in `/`; `` for the
/// root) and the part of the address that stays in the hash (without `#`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    pub path: String,
    pub hash: String,
}

impl Located {
    /// At the root, the whole fragment in the hash.
    fn root(fragment: &str) -> Located {
        Located {
            path: String::new(),
            hash: fragment.to_owned(),
        }
    }

    /// A relative link to this place from the page at `from` (a page's path): it works
    /// wherever the site is served from.
    pub fn href(&self, from: &str) -> String {
        let mut href = base(from);
        href.push_str(&self.path);
        if !self.hash.is_empty() {
            href.push('#');
            href.push_str(&self.hash);
        }
        href
    }
}

/// Where the address `fragment` (with or without `#`) lives. See the module's table.
pub fn locate(fragment: &str) -> Located {
    let fragment = params::without_hash(fragment);
    match page_of(fragment) {
        // A place is given only where `address` reads it back (the hash claims nothing the
        // path says), so a path never says what the address does not.
        Some((page, hash)) if check_hash(&page, hash).is_ok() => Located {
            path: page.path(),
            hash: hash.to_owned(),
        },
        _ => Located::root(fragment),
    }
}

/// The app's address (fragment, without `#`) for the page at `path` (site-relative, with or
/// without its trailing `/`) and the hash after it (with or without `#`). At the root the hash
/// is the address; after a page's path, the path's own parameters come first and the hash's
/// follow, in their order. An unknown path, or a hash that names the page again, is an error
/// naming it (see the module's documentation).
pub fn address(path: &str, hash: &str) -> Result<String, LinkError> {
    let hash = params::without_hash(hash);
    let segments = path.strip_suffix('/').unwrap_or(path);
    if segments.is_empty() {
        return Ok(hash.to_owned());
    }
    let page = Page::at(segments).ok_or_else(|| LinkError::at("", path, Problem::UnknownPath))?;
    if let Page::EmbedDocument { rest, .. } = &page {
        check_hash(&page, rest)?;
    }
    check_hash(&page, hash)?;
    let mut fragment = page.fragment();
    if !hash.is_empty() {
        fragment.push('&');
        fragment.push_str(hash);
    }
    Ok(fragment)
}

/// The relative prefix from the page at `path` back to the site's root: `./` at the root,
/// `../` for each segment below it (`s/x/` → `../../`). A path without its trailing `/` is
/// taken as the page's path, as [`address`] takes it.
pub fn base(path: &str) -> String {
    let segments = path.strip_suffix('/').unwrap_or(path);
    if segments.is_empty() {
        "./".to_owned()
    } else {
        "../".repeat(segments.split('/').count())
    }
}

/// The path of the document the build renders for the embed at `fragment` (with or without
/// `#`): `embed/<current id>/` for a built-in scenario's embed without other parameters,
/// `embed/<current id>/<rest>/` with them, the parameters as the address writes them. `None`
/// for any other embed (the author's own scenario, a lesson, a recording), an address that is
/// not an embed's, or one whose parameters would not make one safe directory name (a `/`, a `%`
/// that decodes to one, a `\` or a control character).
pub fn embed_document(fragment: &str) -> Option<String> {
    let (page, rest) = page_of(params::without_hash(fragment))?;
    let Page::Embed(id) = page else {
        return None;
    };
    check_hash(&page, rest).ok()?;
    if rest.is_empty() {
        return Some(page.path());
    }
    let decoded = params::percent_decode("", rest).ok()?;
    let safe = !rest.contains(['/', '#', '?'])
        && !decoded.contains(['/', '\\'])
        && !decoded.chars().any(char::is_control);
    safe.then(|| Page::EmbedDocument { id, rest }.path())
}

/// Where a page of the app lives, for links between pages; `None` where the page has no
/// address of its own (the playground, whose address is its moment: [`locate`] that; an embed
/// whose address cannot be read).
pub fn page_place(route: &Route) -> Option<Located> {
    route.fragment().map(|fragment| locate(&fragment))
}

/// A page that has a path of its own (the root apart).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Page<'a> {
    /// The playground at a built-in scenario (its current id).
    Scenario(&'static str),
    /// The embed of a built-in scenario (its current id).
    Embed(&'static str),
    /// The embed of a built-in scenario with its other parameters (`at=12&controls=none`, as
    /// the address writes them): the document the build renders for that one embed.
    EmbedDocument {
        id: &'static str,
        rest: &'a str,
    },
    Lessons,
    /// Step `step` (1-based, as in addresses) of the lesson `id`.
    Lesson {
        id: &'a str,
        step: usize,
    },
    /// Question `question` (1-based) of the knowledge check.
    Quiz(usize),
    Deck,
    Guide,
    Sources,
    Lab,
    Recordings,
    Recording(&'a str),
}

/// The page a fragment (without `#`) names and the rest of it, or `None` for the root. Only
/// the way the app writes an address counts (see the module's table).
fn page_of(fragment: &str) -> Option<(Page<'_>, &str)> {
    let (first, rest) = params::first_and_rest(fragment);
    let page = match params::split(first) {
        ("s", id) => Page::Scenario(current(id)?),
        (EMBED, "") => {
            let (second, rest) = params::first_and_rest(rest);
            return match params::split(second) {
                ("s", id) => Some((Page::Embed(current(id)?), rest)),
                _ => None,
            };
        }
        ("learn", "") => Page::Lessons,
        ("learn", id) if is_slug(id) => return lesson(id, rest),
        ("quiz", "") => Page::Quiz(1),
        ("quiz", n) => Page::Quiz(ordinal(n)?),
        ("deck", "") => Page::Deck,
        ("guide", "") => Page::Guide,
        ("sources", "") => Page::Sources,
        ("lab", "") => Page::Lab,
        ("real", "") => Page::Recordings,
        // A recorded run's page is not rendered yet (it needs the recording in the build's
        // render), so a static host has no file at `real/<id>/`: it stays at the root.
        _ => return None,
    };
    Some((page, rest))
}

/// The lesson `id` at the step `rest` starts with (`step=<n>`), else at step 1.
fn lesson<'a>(id: &'a str, rest: &'a str) -> Option<(Page<'a>, &'a str)> {
    let (second, after) = params::first_and_rest(rest);
    match params::split(second) {
        // A step written otherwise (`step=0`, `step=03`) stays at the root, whole.
        ("step", n) => Some((
            Page::Lesson {
                id,
                step: ordinal(n)?,
            },
            after,
        )),
        _ => Some((Page::Lesson { id, step: 1 }, rest)),
    }
}

/// The current id of the built-in scenario `id` (or of an id it had before).
fn current(id: &str) -> Option<&'static str> {
    catalogue::entry(id).map(|entry| entry.id)
}

/// A number from 1 written without leading zeros: the one way a step or question is written.
fn ordinal(text: &str) -> Option<usize> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    (digits && !text.starts_with('0'))
        .then(|| text.parse().ok())
        .flatten()
}

/// `[a-z0-9-]+`: a name that is safe as a directory's, everywhere.
fn is_slug(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Slugs joined by single dots (a recording's id, `s2-gc-pause-fenced.postgres`): never `.` or
/// `..`, which a path would read as a directory of its own.
fn is_dotted_slug(text: &str) -> bool {
    text.split('.').all(is_slug)
}

impl<'a> Page<'a> {
    /// The page at `segments` (a path without its trailing `/`, not empty).
    fn at(segments: &'a str) -> Option<Page<'a>> {
        let parts: Vec<&str> = segments.split('/').collect();
        Some(match parts.as_slice() {
            // Only a current id has a page: an old one is written as the current one.
            ["s", id] => Page::Scenario(current(id).filter(|c| c == id)?),
            ["embed", id] => Page::Embed(current(id).filter(|c| c == id)?),
            ["embed", id, rest] if !rest.is_empty() => Page::EmbedDocument {
                id: current(id).filter(|c| c == id)?,
                rest,
            },
            ["learn"] => Page::Lessons,
            ["learn", id, n] if is_slug(id) => Page::Lesson {
                id,
                step: ordinal(n)?,
            },
            ["quiz"] => Page::Quiz(1),
            // `quiz/1/` is read too, though question 1 is written `quiz/`.
            ["quiz", n] => Page::Quiz(ordinal(n)?),
            ["deck"] => Page::Deck,
            ["guide"] => Page::Guide,
            ["sources"] => Page::Sources,
            ["lab"] => Page::Lab,
            ["real"] => Page::Recordings,
            ["real", id] if is_dotted_slug(id) => Page::Recording(id),
            _ => return None,
        })
    }

    /// The page's path: site-relative, ending in `/`.
    fn path(&self) -> String {
        match self {
            Page::Scenario(id) => format!("s/{id}/"),
            Page::Embed(id) => format!("embed/{id}/"),
            Page::EmbedDocument { id, rest } => format!("embed/{id}/{rest}/"),
            Page::Lessons => "learn/".to_owned(),
            Page::Lesson { id, step } => format!("learn/{id}/{step}/"),
            Page::Quiz(1) => "quiz/".to_owned(),
            Page::Quiz(n) => format!("quiz/{n}/"),
            Page::Deck => "deck/".to_owned(),
            Page::Guide => "guide/".to_owned(),
            Page::Sources => "sources/".to_owned(),
            Page::Lab => "lab/".to_owned(),
            Page::Recordings => "real/".to_owned(),
            Page::Recording(id) => format!("real/{id}/"),
        }
    }

    /// The page's own parameters, as the app writes them.
    fn fragment(&self) -> String {
        match self {
            Page::Scenario(id) => format!("s={id}"),
            Page::Embed(id) => format!("{EMBED}&s={id}"),
            Page::EmbedDocument { id, rest } => format!("{EMBED}&s={id}&{rest}"),
            Page::Lessons => "learn".to_owned(),
            Page::Lesson { id, step } => format!("learn={id}&step={step}"),
            Page::Quiz(n) => format!("quiz={n}"),
            Page::Deck => "deck".to_owned(),
            Page::Guide => "guide".to_owned(),
            Page::Sources => "sources".to_owned(),
            Page::Lab => "lab".to_owned(),
            Page::Recordings => "real".to_owned(),
            Page::Recording(id) => format!("real={id}"),
        }
    }

    /// Whether a parameter `name` in the hash would say again what the path says: appended, it
    /// would replace the path's (the playground reads the last scenario named), or be refused
    /// or read first (the embed's one scenario, lesson or recording; the lesson's step).
    fn claims(&self, name: &str) -> bool {
        match self {
            Page::Scenario(_) => ["s", "scenario", "chaos"].contains(&name),
            Page::Embed(_) | Page::EmbedDocument { .. } => {
                ["s", "scenario", "learn", "real"].contains(&name)
            }
            Page::Lesson { .. } => name == "step",
            _ => false,
        }
    }
}

/// Refuses a hash that names a page itself, or says again what `page`'s path says.
fn check_hash(page: &Page, hash: &str) -> Result<(), LinkError> {
    let named_by_path = |name: &str, value: &str| {
        LinkError::at(name, value, Problem::NamedByPath { path: page.path() })
    };
    if Route::parse(hash).is_some()
        && let Some((name, value)) = params::pairs(hash).next()
    {
        return Err(named_by_path(name, value));
    }
    match params::pairs(hash).find(|(name, _)| page.claims(name)) {
        Some((name, value)) => Err(named_by_path(name, value)),
        None => Ok(()),
    }
}
