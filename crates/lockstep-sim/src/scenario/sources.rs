//! The bibliography: every public source Lockstep's scenarios, lessons, questions and interview
//! cards rely on, as data (`content/sources.json`), and [`Citation`], which names one of its
//! entries by id with a locator (a section, a figure, a page).
//!
//! Why here: scenario files cite sources, and a scenario is parsed here and shown by both the
//! command line and the app. Keeping the one bibliography in this crate (embedded at build time,
//! like the catalogue) lets `Scenario::parse` reject a citation that resolves to nothing, and
//! lets the CLI and the app resolve citations with the same code, without the CLI depending on
//! the app. The app's guided material cites the same entries through the same [`Citation`].
//!
//! What this module must not do: hold any text that is not a public reference (no internal
//! notes), or invent an address: an entry without a public URL has none.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::OnceLock;
use strum::VariantArray;

/// The bibliography format this build reads.
pub const FORMAT_VERSION: u32 = 1;

/// The bibliography file as shipped.
pub const EMBEDDED_JSON: &str = include_str!("../../../../content/sources.json");

/// A reference to one bibliography entry, with where in it the claim is made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Citation {
    /// The entry's id in the bibliography.
    pub source: String,
    /// Where in the source: a section, figure, page or file ("§ Making the lock safe with
    /// fencing", "§2.4", "Figure 9-6").
    pub at: String,
}

/// What kind of work an entry is; the Sources page groups entries by it.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    Paper,
    Book,
    Article,
    Docs,
    Analysis,
    Issue,
    Code,
}

impl SourceKind {
    /// Every kind, in the order the Sources page shows them: the declaration order (strum's
    /// `VARIANTS` as an array, its length checked at compile time).
    pub const ALL: [SourceKind; 7] = *SourceKind::VARIANTS
        .as_array()
        .expect("ALL's length is the number of variants");

    /// A heading for a group of entries of this kind.
    pub fn heading(self) -> &'static str {
        match self {
            SourceKind::Paper => "Papers",
            SourceKind::Book => "Books",
            SourceKind::Article => "Articles and posts",
            SourceKind::Docs => "Documentation",
            SourceKind::Analysis => "Test reports",
            SourceKind::Issue => "Issues and mailing lists",
            SourceKind::Code => "Source code",
        }
    }
}

/// One bibliography entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub id: String,
    /// Empty when the work names no author.
    pub authors: String,
    pub title: String,
    pub year: Option<u16>,
    /// Publisher, conference, site or repository; empty when unknown.
    pub venue: String,
    /// The public address, or `None` when the work has none that we know of.
    pub url: Option<String>,
    pub kind: SourceKind,
}

impl Source {
    /// The full reference in one line: authors (year). "Title". Venue. URL.
    pub fn reference(&self) -> String {
        let mut parts = Vec::new();
        match (self.authors.is_empty(), self.year) {
            (false, Some(year)) => parts.push(format!("{} ({year}).", self.authors)),
            (false, None) => parts.push(format!("{}.", self.authors)),
            (true, Some(year)) => parts.push(format!("({year}).")),
            (true, None) => {}
        }
        parts.push(format!("\u{201c}{}\u{201d}.", self.title));
        if !self.venue.is_empty() {
            parts.push(format!("{}.", self.venue));
        }
        if let Some(url) = &self.url {
            parts.push(url.clone());
        }
        parts.join(" ")
    }

    /// A short name for a "Source:" line: the authors or publisher (without any parenthesis or
    /// trailing remark) and the year, then the title.
    pub fn short(&self) -> String {
        let who = self
            .authors
            .split([',', '('])
            .next()
            .unwrap_or_default()
            .trim();
        match (who.is_empty(), self.year) {
            (false, Some(year)) => format!("{who} ({year}), \u{201c}{}\u{201d}", self.title),
            (false, None) => format!("{who}, \u{201c}{}\u{201d}", self.title),
            (true, _) => self.title.clone(),
        }
    }
}

/// The bibliography file.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: u32,
    sources: Vec<Source>,
}

/// All the sources, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bibliography {
    pub sources: Vec<Source>,
}

/// Why a bibliography cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BibliographyError {
    Syntax(String),
    UnsupportedFormat {
        found: u32,
    },
    /// Two entries share an id, or an id is not a slug.
    BadId(String),
}

impl fmt::Display for BibliographyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BibliographyError::Syntax(message) => write!(f, "sources.json: {message}"),
            BibliographyError::UnsupportedFormat { found } => write!(
                f,
                "sources.json: format {found}; this build reads {FORMAT_VERSION}"
            ),
            BibliographyError::BadId(id) => {
                write!(f, "sources.json: the id \"{id}\" is repeated or not a slug")
            }
        }
    }
}

impl std::error::Error for BibliographyError {}

/// Why a citation does not resolve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CitationError {
    UnknownSource(String),
    NoLocator(String),
    /// The embedded bibliography itself cannot be read (a native test keeps this from shipping).
    Unreadable(BibliographyError),
}

impl fmt::Display for CitationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CitationError::UnknownSource(id) => {
                write!(f, "there is no source \"{id}\" in the bibliography")
            }
            CitationError::NoLocator(id) => write!(
                f,
                "the citation of \"{id}\" says nowhere where (`at`: a section, figure or page)"
            ),
            CitationError::Unreadable(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CitationError {}

impl Bibliography {
    /// Reads a bibliography file.
    pub fn parse(json: &str) -> Result<Bibliography, BibliographyError> {
        let file: File =
            serde_json::from_str(json).map_err(|e| BibliographyError::Syntax(e.to_string()))?;
        if file.format != FORMAT_VERSION {
            return Err(BibliographyError::UnsupportedFormat { found: file.format });
        }
        for (i, source) in file.sources.iter().enumerate() {
            let slug = !source.id.is_empty()
                && source
                    .id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            let repeated = file.sources[..i].iter().any(|s| s.id == source.id);
            if !slug || repeated {
                return Err(BibliographyError::BadId(source.id.clone()));
            }
        }
        Ok(Bibliography {
            sources: file.sources,
        })
    }

    /// The bibliography embedded in this build.
    pub fn embedded() -> Result<&'static Bibliography, &'static BibliographyError> {
        static EMBEDDED: OnceLock<Result<Bibliography, BibliographyError>> = OnceLock::new();
        EMBEDDED
            .get_or_init(|| Bibliography::parse(EMBEDDED_JSON))
            .as_ref()
    }

    pub fn find(&self, id: &str) -> Option<&Source> {
        self.sources.iter().find(|s| s.id == id)
    }

    /// The entry a citation names, if it names one and says where.
    pub fn resolve(&self, citation: &Citation) -> Result<&Source, CitationError> {
        let source = self
            .find(&citation.source)
            .ok_or_else(|| CitationError::UnknownSource(citation.source.clone()))?;
        if citation.at.trim().is_empty() {
            return Err(CitationError::NoLocator(citation.source.clone()));
        }
        Ok(source)
    }
}

/// Checks citations against the embedded bibliography: the index of the first one that does
/// not resolve, and why.
pub fn check_citations(citations: &[Citation]) -> Result<(), (usize, CitationError)> {
    let bibliography =
        Bibliography::embedded().map_err(|e| (0, CitationError::Unreadable(e.clone())))?;
    citations
        .iter()
        .enumerate()
        .try_for_each(|(i, c)| bibliography.resolve(c).map(|_| ()).map_err(|e| (i, e)))
}

/// One citation as a line of text: the short reference and the locator.
pub fn cite(citation: &Citation) -> String {
    match Bibliography::embedded()
        .ok()
        .and_then(|b| b.find(&citation.source))
    {
        Some(source) => format!("{}, {}", source.short(), citation.at),
        None => format!(
            "{} (not in the bibliography), {}",
            citation.source, citation.at
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn citation(source: &str, at: &str) -> Citation {
        Citation {
            source: source.to_owned(),
            at: at.to_owned(),
        }
    }

    #[test]
    fn the_embedded_bibliography_reads_and_has_no_repeated_ids() {
        let bibliography = Bibliography::embedded().expect("content/sources.json reads");
        assert!(bibliography.find("kleppmann-2016").is_some());
    }

    #[test]
    fn a_dangling_id_or_a_missing_locator_does_not_resolve() {
        assert_eq!(
            check_citations(&[
                citation("kleppmann-2016", "§ Making the lock safe with fencing"),
                citation("no-such-source", "§ 1"),
            ]),
            Err((1, CitationError::UnknownSource("no-such-source".to_owned())))
        );
        assert_eq!(
            check_citations(&[citation("kleppmann-2016", " ")]),
            Err((0, CitationError::NoLocator("kleppmann-2016".to_owned())))
        );
        assert_eq!(check_citations(&[citation("chubby-2006", "§2.4")]), Ok(()));
    }

    #[test]
    fn a_repeated_id_is_refused() {
        let entry = r#"{"id": "x", "authors": "", "title": "T", "year": null, "venue": "", "url": null, "kind": "docs"}"#;
        let json = format!(r#"{{"format": 1, "sources": [{entry}, {entry}]}}"#);
        assert_eq!(
            Bibliography::parse(&json),
            Err(BibliographyError::BadId("x".to_owned()))
        );
    }

    #[test]
    fn references_name_author_year_title_venue_and_address() {
        let bibliography = Bibliography::embedded().expect("content/sources.json reads");
        let chubby = bibliography.find("chubby-2006").expect("Chubby is cited");
        let reference = chubby.reference();
        assert!(reference.starts_with("Mike Burrows (2006). \u{201c}The Chubby lock service"));
        assert!(reference.ends_with("https://research.google.com/archive/chubby-osdi06.pdf"));
        assert_eq!(
            cite(&citation("chubby-2006", "§2.4")),
            "Mike Burrows (2006), \u{201c}The Chubby lock service for loosely-coupled distributed systems\u{201d}, §2.4"
        );
    }
}
