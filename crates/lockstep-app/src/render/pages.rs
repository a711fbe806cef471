//! Every page the build renders: its address, its words for a search engine and a link preview
//! (the `<title>`, the app's own for the page (`lockstep_view::title`), and the meta
//! description), in the order `sitemap.xml` lists them. Pages that need a file the build does
//! not carry (a recorded run), a visitor's own scenario or settings (a custom scenario, a lab
//! run, a search) have no rendered page: they keep the loading frame.

use crate::hooks::initial_route;
use crate::page_files;
use crate::platform::library;
use lockstep_sim::scenario::catalogue::{self, BUILT_IN};
use lockstep_view::content::Content;
use lockstep_view::link::share;
use lockstep_view::title;

/// One page the build writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    /// The app's address for it (`lockstep_view::link`): what its path alone reads as, so what
    /// the wasm opens there too (`lockstep-render` checks it).
    pub address: String,
    pub title: String,
    pub description: String,
    /// The site's files the app fetches before drawing over the page (`crate::start`).
    pub files: Vec<String>,
}

pub(super) fn page(address: String, description: &str) -> Page {
    let files = files_of(&address);
    Page {
        title: title_of(&address),
        files,
        address,
        description: description.to_owned(),
    }
}

/// The title the app gives the page it opens at `address` (`lockstep_view::title`), with the
/// scenario a playground's page opens and the guided material, both compiled in.
fn title_of(address: &str) -> String {
    let built_in = share::built_in_named(address).unwrap_or(catalogue::DEFAULT_ID);
    let scenario = library::loaded(built_in);
    let scenario_title = scenario.as_ref().map_or("", |s| s.title.as_str());
    title::of(
        &initial_route(address),
        title::Playground::of(address, Some(built_in), scenario_title),
        Some(&library::embedded_content()),
    )
}

/// The files `crate::start` fetches for the page at `address` before it mounts
/// (`crate::page_files`), as paths from the site's root.
fn files_of(address: &str) -> Vec<String> {
    let mut files = Vec::new();
    if page_files::needs_material(address) {
        files.extend(Content::FILES.iter().map(|name| format!("content/{name}")));
    }
    let content = library::embedded_content();
    files.extend(
        page_files::scenarios(address, Some(&content))
            .into_iter()
            .map(|id| format!("scenarios/{id}.json")),
    );
    files
}

/// Every page, the playground first.
pub fn all() -> Vec<Page> {
    let content = library::embedded_content();
    let mut pages = vec![page(
        String::new(),
        "A playground where you break a distributed lock — pause a client, expire a lease, cut \
         the network — and watch a fencing token refuse the stale write, or the data get lost \
         without one.",
    )];
    pages.extend(scenarios());
    pages.extend(lessons(&content));
    pages.extend(others(&content));
    pages
}

/// Each built-in scenario as its link without a moment opens it.
fn scenarios() -> impl Iterator<Item = Page> {
    BUILT_IN.iter().filter_map(|built_in| {
        let scenario = built_in.load().ok()?;
        Some(page(format!("s={}", built_in.id), &scenario.summary))
    })
}

/// The lessons' index and every step of every lesson.
fn lessons(content: &Content) -> impl Iterator<Item = Page> + '_ {
    let index = page(
        "learn".to_owned(),
        "Short lessons, each over a run you can step through: why a lease is not a mutex, what a \
         fencing token does, where Redlock and failover go wrong.",
    );
    let steps =
        content.lessons.iter().flat_map(|lesson| {
            lesson.steps.iter().enumerate().map(move |(i, step)| {
                page(format!("learn={}&step={}", lesson.id, i + 1), &step.text)
            })
        });
    std::iter::once(index).chain(steps)
}

/// The knowledge check's questions, the deck, the guide, the sources, the lab, the real runs.
fn others(content: &Content) -> Vec<Page> {
    let mut pages: Vec<Page> = content
        .questions
        .iter()
        .enumerate()
        .map(|(i, question)| page(format!("quiz={}", i + 1), &question.question))
        .collect();
    pages.extend([
        page(
            "deck".to_owned(),
            "Flash cards on distributed locks, leases and fencing tokens, to practise for a \
             system-design interview.",
        ),
        page(
            "guide".to_owned(),
            "Which lock a job needs: a few questions lead from what a failure would cost to a \
             lease, a fencing token, or a simpler mechanism.",
        ),
        page(
            "sources".to_owned(),
            "The articles, papers, documentation and bug reports every scenario and lesson rests on.",
        ),
        page(
            "lab".to_owned(),
            "Thousands of random runs with pauses, partitions, crashes and clock jumps, on each \
             lock service, with fencing on and off: how often beliefs overlap and data is lost.",
        ),
        page(
            "real".to_owned(),
            "The same scenarios played against real PostgreSQL, Redis and etcd, recorded and \
             judged by the same invariants as the simulation.",
        ),
    ]);
    pages
}
