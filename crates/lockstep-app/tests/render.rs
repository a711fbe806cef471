//! The build's render (decision 43): every page `cargo xtask dist` writes, rendered natively by
//! the app's own components, shows what a reader needs before the wasm arrives — a scenario's
//! title, timeline, narration where its link opens and outcome line; a lesson step's text, its
//! place and the run at the step's event — and never a loading placeholder.
#![cfg(feature = "ssr")]

use lockstep::render::{self, pages};
use lockstep_sim::scenario::catalogue::{self, BUILT_IN};
use lockstep_view::content::Content;
use lockstep_view::link::share;
use lockstep_view::state::Playground;

fn content() -> Content {
    Content::parse([
        include_str!("../../../content/lessons.json"),
        include_str!("../../../content/questions.json"),
        include_str!("../../../content/cards.json"),
        include_str!("../../../content/guide.json"),
    ])
    .expect("the content parses")
}

fn rendered(address: &str) -> String {
    render::page(address).unwrap_or_else(|e| panic!("{e}"))
}

/// `text` as the markup writes it in an element's text.
fn as_markup(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The playground a link opens, computed without the app.
fn playground_at(address: &str) -> Playground {
    let loaded = |id: &str| {
        catalogue::find(id).map(|b| std::rc::Rc::new(b.load().expect("a built-in parses")))
    };
    let moment = share::decode(address, &loaded).expect("the address decodes");
    Playground::restore(moment).expect("the moment restores")
}

/// What a reader reads of `markup`: its text without the tags, the entities the render writes
/// read, the spaces collapsed.
fn reading(markup: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in markup.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    collapsed(
        &text
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&"),
    )
}

fn collapsed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The markup of the first element that carries `data-testid="{testid}"`, up to the first
/// `</{tag}>` after it (an element not nested in one of its own kind).
fn element<'a>(html: &'a str, testid: &str, tag: &str) -> Option<&'a str> {
    let at = html.find(&format!("data-testid=\"{testid}\""))?;
    let start = html[..at].rfind('<')?;
    let close = format!("</{tag}>");
    let end = at + html[at..].find(&close)? + close.len();
    Some(&html[start..end])
}

fn assert_no_placeholder(address: &str, html: &str) {
    for placeholder in ["Loading", "content-loading", "loading-line"] {
        assert!(
            !html.contains(placeholder),
            "#{address} shows {placeholder:?}"
        );
    }
}

#[test]
fn every_scenario_page_shows_its_story_where_its_link_opens() {
    for built_in in BUILT_IN {
        let address = format!("s={}", built_in.id);
        let html = rendered(&address);
        let scenario = built_in.load().expect("the scenario");
        let playground = playground_at(&address);
        assert!(
            html.contains(&as_markup(&scenario.title)),
            "{} title",
            built_in.id
        );
        assert!(
            html.contains(r#"data-testid="timeline-main""#),
            "{} timeline",
            built_in.id
        );
        assert!(
            html.contains(r#"data-testid="now-line""#),
            "{} now line",
            built_in.id
        );
        assert!(
            html.contains(r#"data-testid="narration""#),
            "{} narration",
            built_in.id
        );
        assert!(
            html.contains(r#"data-testid="outcome-line""#),
            "{} outcome",
            built_in.id
        );
        let place = format!("event {} of {}", playground.position(), playground.total());
        assert!(html.contains(&place), "{} says {place:?}", built_in.id);
        assert_no_placeholder(&address, &html);
    }
}

#[test]
fn every_lesson_step_page_shows_its_text_its_place_and_its_run() {
    let content = content();
    for lesson in &content.lessons {
        let count = lesson.steps.len();
        for (index, step) in lesson.steps.iter().enumerate() {
            let address = format!("learn={}&step={}", lesson.id, index + 1);
            let html = rendered(&address);
            // A step that asks for a prediction shows the question first, its text after.
            let first = if step.predict.is_some() {
                "predict"
            } else {
                "lesson-text"
            };
            assert!(
                html.contains(&format!("data-testid=\"{first}\"")),
                "{address}: shows {first}"
            );
            assert!(
                html.contains(&format!("Step {} of {count}", index + 1)),
                "{address}: its place"
            );
            assert!(
                html.contains(r#"data-testid="timeline-main""#),
                "{address}: the run"
            );
            // The run stands at the step's event (or just after it, once no prediction waits).
            let position = step.event + usize::from(step.predict.is_none());
            assert!(
                html.contains(&format!("event {position} of ")),
                "{address}: stands at event {position}"
            );
            assert_no_placeholder(&address, &html);
        }
    }
}

#[test]
fn a_prediction_step_page_holds_its_text_folded_under_just_show_me() {
    let content = content();
    let mut predictions = 0;
    for lesson in &content.lessons {
        for (index, step) in lesson.steps.iter().enumerate() {
            let Some(predict) = &step.predict else {
                continue;
            };
            predictions += 1;
            let address = format!("learn={}&step={}", lesson.id, index + 1);
            let html = rendered(&address);
            let fold = element(&html, "predict-fold", "details")
                .unwrap_or_else(|| panic!("{address}: no fold under the prediction"));
            // Closed: the step's text is there for a reader without JavaScript, not shown to
            // one who is about to predict.
            let opening = &fold[..fold.find('>').expect("a tag")];
            assert!(!opening.contains(" open"), "{address}: {opening}");
            let read = reading(fold);
            assert!(read.contains(&collapsed(&step.text)), "{address}: {read}");
            let answer = &predict.choices[predict.answer].text;
            assert!(read.contains(&collapsed(answer)), "{address}: the answer");
            assert!(read.contains(&collapsed(&predict.why)), "{address}: why");
            // Only once: the text shown after an answer is not there yet.
            assert!(
                !html.contains(r#"data-testid="lesson-text""#),
                "{address}: the step's text shown"
            );
        }
    }
    assert!(predictions > 0, "the lessons ask for predictions");
}

#[test]
fn a_page_asks_at_once_for_the_files_the_app_draws_it_from() {
    let all = pages::all();
    let files = |address: &str| {
        all.iter()
            .find(|p| p.address == address)
            .map(|p| p.files.clone())
            .unwrap_or_else(|| panic!("no page #{address}"))
    };
    assert!(files("").is_empty(), "the default scenario is in the wasm");
    assert_eq!(
        files("s=s1-gc-pause-unfenced"),
        ["scenarios/s1-gc-pause-unfenced.json"]
    );
    let step = files("learn=not-a-mutex&step=3");
    assert!(
        step.contains(&"content/lessons.json".to_owned()),
        "{step:?}"
    );
    assert!(
        step.contains(&"scenarios/s1-gc-pause-unfenced.json".to_owned()),
        "{step:?}"
    );
    assert_eq!(files("deck").len(), 4, "the material");
    assert!(files("sources").is_empty());
}

#[test]
fn every_page_the_build_writes_renders_with_its_own_words() {
    let all = pages::all();
    let content = content();
    let steps: usize = content.lessons.iter().map(|l| l.steps.len()).sum();
    // The playground, each scenario, the lessons' index and each step, each question, and the
    // deck, the guide, the sources, the lab and the real runs.
    assert_eq!(
        all.len(),
        1 + BUILT_IN.len() + 1 + steps + content.questions.len() + 5
    );
    for page in all
        .iter()
        .filter(|p| !p.address.starts_with("s=") && !p.address.contains("step="))
    {
        let html = rendered(&page.address);
        assert!(
            html.contains(r#"data-testid="app""#),
            "#{}: the site",
            page.address
        );
        assert!(
            !page.description.is_empty(),
            "#{}: a description",
            page.address
        );
        assert!(page.title.ends_with("Lockstep") || page.title.starts_with("Lockstep"));
    }
}

/// The `href` of the first element that carries `data-testid="{testid}"`, as a browser reads it.
fn href_of(html: &str, testid: &str) -> Option<String> {
    let at = html.find(&format!("data-testid=\"{testid}\""))?;
    let start = html[..at].rfind('<')?;
    let end = at + html[at..].find('>')?;
    href_in(&html[start..end])
}

/// The first `href` in `markup`, its `&amp;` read as `&`.
fn href_in(markup: &str) -> Option<String> {
    let from = markup.find("href=\"")? + "href=\"".len();
    let len = markup[from..].find('"')?;
    Some(markup[from..from + len].replace("&amp;", "&"))
}

#[test]
fn the_links_between_pages_are_relative_paths_from_the_page() {
    let content = content();
    let lesson = &content.lessons[0];
    let last = lesson.steps.len();
    let address = format!("learn={}&step={last}", lesson.id);
    let html = rendered(&address);
    let up = "../../../";
    for (testid, page) in [
        ("nav-lessons", "learn/"),
        ("nav-quiz", "quiz/"),
        ("nav-deck", "deck/"),
        ("nav-guide", "guide/"),
        ("nav-lab", "lab/"),
        ("nav-real", "real/"),
        ("nav-sources", "sources/"),
        // The last step's "All lessons".
        ("lesson-done", "learn/"),
    ] {
        assert_eq!(
            href_of(&html, testid).as_deref(),
            Some(format!("{up}{page}").as_str()),
            "{address}: {testid}"
        );
    }
    let breadcrumbs = &html[html.find("class=\"breadcrumbs\"").expect("breadcrumbs")..];
    assert_eq!(href_in(breadcrumbs), Some(format!("{up}learn/")));
    // The Playground tab opens the lesson's moment: a scenario's page, or the root's hash.
    let playground = href_of(&html, "nav-playground").expect("the Playground tab");
    assert!(playground.starts_with(up), "{address}: {playground}");
    // The same links from the root's page and from a scenario's.
    assert_eq!(
        href_of(&rendered(""), "nav-lessons").as_deref(),
        Some("./learn/")
    );
    let scenario = format!("s={}&at=1", BUILT_IN[0].id);
    assert_eq!(
        href_of(&rendered(&scenario), "nav-quiz").as_deref(),
        Some("../../quiz/")
    );
}

#[test]
fn no_rendered_page_links_to_another_page_by_its_fragment() {
    for page in pages::all() {
        let html = rendered(&page.address);
        if let Some(at) = html.find("href=\"#") {
            let end = (at + 120).min(html.len());
            panic!(
                "#{} links by a fragment: {}",
                page.address,
                html.get(at..end).unwrap_or_default()
            );
        }
        // Every link in the site's own pages leads from the page's path, never from the root.
        let depth = lockstep_view::link::path::locate(&page.address)
            .path
            .matches('/')
            .count();
        if depth > 0 {
            let up = "../".repeat(depth);
            let nav = href_of(&html, "nav-sources").expect("the nav");
            assert_eq!(nav, format!("{up}sources/"), "#{}", page.address);
        }
    }
}
