//! "Copy embed code": the HTML an author pastes into a page to embed the playground's current
//! moment — with the host script (`embed.js`, a `div` whose `data-*` attributes are the moment),
//! or as a plain iframe of the `#embed` view.
//!
//! Both are made from the moment's link ([`share::encode`]), so they say exactly what "Share"
//! says: the scenario (by id, or whole as inline JSON), the seed and fencing when they differ
//! from the scenario's, the interventions, the position, compare. Pure text in, text out: this
//! module does not touch the browser, and it must not decide what the embed shows beyond the
//! moment and what the author chose ([`Options`]: where it starts, which controls).

use crate::link::embed::ControlSet;
use crate::link::share;
use crate::state::{Moment, Origin};
use std::fmt;

/// Where an embed of a moment starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// At the moment shown in the playground.
    ThisMoment,
    /// At the run's start (every event at t = 0), so the reader steps through the whole story.
    Beginning,
}

/// What an author chooses for an embed: where it starts and which controls it has (always
/// written out in the snippet, so an author sees what to change).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub start: Start,
    pub controls: ControlSet,
}

impl Options {
    /// The moment as shown, with Back, Step, Play and the scrubber (the embed's default).
    pub const AS_SHOWN: Options = Options {
        start: Start::ThisMoment,
        controls: ControlSet::Transport,
    };
}

/// The height an iframe keeps until the embed says how tall it is (the host script's default).
const PLACEHOLDER_HEIGHT: u32 = 420;

/// The address of the app's directory (ending in `/`): where `embed.js` and the embed view live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppAddress(String);

impl AppAddress {
    /// The app's directory, from the address of the page it runs in (any query, fragment and
    /// file name dropped: `https://x.org/lockstep/index.html?a#s=…` → `https://x.org/lockstep/`).
    pub fn of_page(href: &str) -> AppAddress {
        let end = href.find(['?', '#']).unwrap_or(href.len());
        let page = &href[..end];
        let directory = page.rfind('/').map_or(page, |slash| &page[..=slash]);
        AppAddress(directory.to_owned())
    }
}

impl fmt::Display for AppAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The two snippets for one moment, and the embed view's address they show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbedCode {
    /// The embed view's address: the iframe's source, and what a preview shows.
    pub address: String,
    /// The host script's `<script>` line and the `div` it turns into a self-sizing embed.
    pub host_script: String,
    /// One `<iframe>` of the embed view, for pages that cannot run scripts.
    pub iframe: String,
}

/// The snippets that embed `moment` from the app at `app`, as the author chose (`options`).
pub fn for_moment(
    app: &AppAddress,
    moment: &Moment,
    loaded: share::Loaded,
    options: Options,
) -> EmbedCode {
    let moment = Moment {
        // The embed's address and the host script read no `chaos=`: a chaos lab run is
        // embedded with its whole scenario, as a custom one.
        origin: match moment.origin {
            Origin::Chaos(_) => Origin::Custom,
            Origin::BuiltIn(_) | Origin::Custom => moment.origin.clone(),
        },
        position: match options.start {
            Start::ThisMoment => moment.position,
            Start::Beginning => None,
        },
        ..moment.clone()
    };
    let fragment = share::encode(&moment, loaded);
    let title = format!("Lockstep: {}", moment.scenario.title);
    let controls = options.controls.word();
    let address = format!("{app}#embed&{fragment}&controls={controls}");
    EmbedCode {
        host_script: host_script(app, &moment, &fragment, &title, controls),
        iframe: iframe_of(&address, &title),
        address,
    }
}

/// The snippets that embed the recorded real run `recording` (its id), whose title is `title`:
/// shown whole beside its simulation, so they carry no moment.
pub fn for_recording(app: &AppAddress, recording: &str, title: &str) -> EmbedCode {
    let title = format!("Lockstep: {title}");
    let div = format!(
        "<div data-lockstep=\"\" data-real=\"{}\" data-title=\"{}\"></div>",
        attribute(recording),
        attribute(&title)
    );
    let source = format!("{app}#embed&real={recording}");
    EmbedCode {
        host_script: format!(
            "<script src=\"{}\" defer></script>\n{div}",
            attribute(&format!("{app}embed.js"))
        ),
        iframe: iframe_of(&source, &title),
        address: source,
    }
}

fn host_script(
    app: &AppAddress,
    moment: &Moment,
    fragment: &str,
    title: &str,
    controls: &str,
) -> String {
    let id = match &moment.origin {
        Origin::BuiltIn(id) => *id,
        Origin::Chaos(_) | Origin::Custom => "",
    };
    let mut div = format!("<div data-lockstep=\"{}\"", attribute(id));
    for (name, value) in fragment.split('&').filter_map(|pair| pair.split_once('=')) {
        // The scenario is the `data-lockstep` id or the inline JSON below, never an attribute.
        if name != "s" && name != "scenario" {
            div.push_str(&format!(" data-{name}=\"{}\"", attribute(value)));
        }
    }
    div.push_str(&format!(
        " data-controls=\"{controls}\" data-title=\"{}\">",
        attribute(title)
    ));
    if moment.origin == Origin::Custom {
        div.push_str("\n<script type=\"application/json\">\n");
        div.push_str(&inline_json(&moment.scenario.to_json()));
        div.push_str("\n</script>\n");
    }
    div.push_str("</div>");
    format!(
        "<script src=\"{}\" defer></script>\n{div}",
        attribute(&format!("{app}embed.js"))
    )
}

fn iframe_of(source: &str, title: &str) -> String {
    format!(
        "<iframe src=\"{}\" title=\"{}\" loading=\"lazy\" height=\"{PLACEHOLDER_HEIGHT}\" \
         style=\"frame-sizing: content-height; display: block; width: 100%; border: 0\"></iframe>",
        attribute(source),
        attribute(title)
    )
}

/// `value` safe inside a double-quoted HTML attribute.
fn attribute(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// JSON safe inside a `<script>` element: a `<` can only be inside a JSON string, where
/// `\u003c` means the same, so no `</script>` or `<!--` in a title can end the element early.
fn inline_json(json: &str) -> String {
    json.replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_files::{loaded, moment};
    use lockstep_sim::models::resource::Fencing;
    use lockstep_sim::scenario::types::Scenario;
    use lockstep_sim::world::intervention::{Action, Intervention};
    use lockstep_sim::world::time::{Millis, VirtualTime};

    const APP: &str = "https://example.org/lockstep/";

    /// A recording's snippets name it and nothing else, and the embed's address reads back as
    /// that recording.
    #[test]
    fn a_recordings_code_names_the_recording() {
        let app = AppAddress::of_page(APP);
        let code = for_recording(&app, "s2-gc-pause-fenced.postgres", "S2 \"fenced\" <run>");
        assert_eq!(
            code.host_script,
            "<script src=\"https://example.org/lockstep/embed.js\" defer></script>\n\
             <div data-lockstep=\"\" data-real=\"s2-gc-pause-fenced.postgres\" \
             data-title=\"Lockstep: S2 &quot;fenced&quot; &lt;run&gt;\"></div>"
        );
        let source = code
            .iframe
            .split('"')
            .nth(1)
            .expect("src")
            .replace("&amp;", "&");
        let fragment = source.split_once('#').expect("fragment").1;
        assert_eq!(
            crate::link::embed::parse(fragment).map(|spec| spec.shows),
            Ok(crate::link::embed::Shows::Real {
                recording: "s2-gc-pause-fenced.postgres".to_owned()
            })
        );
    }

    /// S2 at event 30 with every part of a moment changed: seed, fencing, an intervention and
    /// compare.
    fn changed_moment() -> Moment {
        let mut m = moment("s2-gc-pause-fenced", 30);
        m.seed = 7;
        m.scenario.resource = m.scenario.resource.with_fencing(Fencing::Off);
        m.log.push(Intervention {
            at_ms: VirtualTime(51),
            action: Action::Pause {
                node: "client-b".to_owned(),
                for_ms: Some(Millis(900)),
            },
        });
        m.compare = crate::state::Comparison::Fencing;
        m
    }

    fn code(moment: &Moment) -> EmbedCode {
        for_moment(
            &AppAddress::of_page(APP),
            moment,
            &loaded,
            Options::AS_SHOWN,
        )
    }

    /// The iframe's `src`, its `&amp;`s read back as `&`.
    fn iframe_source(iframe: &str) -> String {
        let start = iframe.find("src=\"").expect("a src") + 5;
        let end = start + iframe[start..].find('"').expect("a closing quote");
        iframe[start..end].replace("&amp;", "&")
    }

    /// The text between the inline `<script type="application/json">` and `</script>`.
    fn inline_scenario(snippet: &str) -> &str {
        let start = snippet
            .find("<script type=\"application/json\">")
            .expect("an inline scenario")
            + "<script type=\"application/json\">".len();
        let end = start + snippet[start..].find("</script>").expect("its end");
        &snippet[start..end]
    }

    #[test]
    fn the_app_is_the_directory_of_the_page() {
        let of = |href: &str| AppAddress::of_page(href).to_string();
        assert_eq!(of("https://x.org/lockstep/"), "https://x.org/lockstep/");
        assert_eq!(
            of("https://x.org/lockstep/index.html?v=2#s=s1-gc-pause-unfenced&at=3"),
            "https://x.org/lockstep/"
        );
        assert_eq!(of("http://127.0.0.1:8080/#a/b"), "http://127.0.0.1:8080/");
    }

    #[test]
    fn a_built_in_moment_is_one_script_line_and_one_div() {
        let code = code(&moment("s2-gc-pause-fenced", 12));
        assert_eq!(
            code.host_script,
            "<script src=\"https://example.org/lockstep/embed.js\" defer></script>\n\
             <div data-lockstep=\"s2-gc-pause-fenced\" data-at=\"12\" data-controls=\"transport\" \
             data-title=\"Lockstep: S2 · A GC pause past the lease's end, with fencing tokens 33 and 34\"></div>"
        );
        assert_eq!(
            code.iframe,
            "<iframe src=\"https://example.org/lockstep/#embed&amp;s=s2-gc-pause-fenced&amp;at=12&amp;controls=transport\" \
             title=\"Lockstep: S2 · A GC pause past the lease's end, with fencing tokens 33 and 34\" loading=\"lazy\" height=\"420\" \
             style=\"frame-sizing: content-height; display: block; width: 100%; border: 0\"></iframe>"
        );
    }

    #[test]
    fn the_iframe_opens_the_embed_at_the_same_moment() {
        let m = changed_moment();
        let source = iframe_source(&code(&m).iframe);
        let fragment = source
            .strip_prefix("https://example.org/lockstep/#embed&")
            .and_then(|rest| rest.strip_suffix("&controls=transport"))
            .unwrap_or_else(|| panic!("an embed address: {source}"));
        assert_eq!(share::decode(fragment, &loaded), Ok(m));
    }

    #[test]
    fn every_part_of_the_moment_becomes_an_attribute() {
        let m = changed_moment();
        let snippet = code(&m).host_script;
        let link = share::encode(&m, &loaded);
        let log = link
            .split('&')
            .find_map(|pair| pair.strip_prefix("log="))
            .expect("the link carries the log");
        for attribute in [
            "data-lockstep=\"s2-gc-pause-fenced\"".to_owned(),
            "data-seed=\"7\"".to_owned(),
            "data-fencing=\"off\"".to_owned(),
            format!("data-log=\"{log}\""),
            "data-at=\"30\"".to_owned(),
            "data-compare=\"1\"".to_owned(),
        ] {
            assert!(
                snippet.contains(&attribute),
                "{attribute} missing: {snippet}"
            );
        }
    }

    #[test]
    fn a_scenario_of_ones_own_travels_inline_and_reads_back_the_same() {
        let mut m = moment("s1-gc-pause-unfenced", 4);
        m.origin = Origin::Custom;
        m.scenario.title = "Mine </script><!-- & \"quoted\"".to_owned();
        let code = code(&m);
        assert!(
            code.host_script
                .contains("<div data-lockstep=\"\" data-at=\"4\""),
            "{}",
            code.host_script
        );
        assert!(
            code.host_script.contains(
                "data-title=\"Lockstep: Mine &lt;/script&gt;&lt;!-- &amp; &quot;quoted&quot;\""
            ),
            "{}",
            code.host_script
        );
        let json = inline_scenario(&code.host_script);
        assert!(!json.contains('<'), "the JSON could end its script: {json}");
        assert_eq!(Scenario::parse(json), Ok(m.scenario.clone()));
        assert_eq!(
            code.host_script.matches("</script>").count(),
            2,
            "the loader's and the inline scenario's ends, no more: {}",
            code.host_script
        );
        let source = iframe_source(&code.iframe);
        let fragment = source
            .strip_prefix("https://example.org/lockstep/#embed&")
            .and_then(|rest| rest.strip_suffix("&controls=transport"))
            .unwrap_or_else(|| panic!("an embed address: {source}"));
        assert_eq!(share::decode(fragment, &loaded), Ok(m));
    }

    #[test]
    fn the_authors_choices_change_the_start_and_the_controls_and_nothing_else() {
        let m = changed_moment();
        let app = AppAddress::of_page(APP);
        let chosen = for_moment(
            &app,
            &m,
            &loaded,
            Options {
                start: Start::Beginning,
                controls: ControlSet::Full,
            },
        );
        assert!(
            !chosen.host_script.contains("data-at="),
            "{}",
            chosen.host_script
        );
        assert!(
            chosen.host_script.contains("data-controls=\"full\""),
            "{}",
            chosen.host_script
        );
        assert_eq!(iframe_source(&chosen.iframe), chosen.address);
        let fragment = chosen
            .address
            .strip_prefix("https://example.org/lockstep/#embed&")
            .and_then(|rest| rest.strip_suffix("&controls=full"))
            .unwrap_or_else(|| panic!("an embed address: {}", chosen.address));
        let from_start = Moment {
            position: None,
            ..m.clone()
        };
        assert_eq!(share::decode(fragment, &loaded), Ok(from_start));
        let spec = crate::link::embed::parse(&format!("#embed&{fragment}&controls=none"));
        assert_eq!(spec.map(|s| s.controls), Ok(ControlSet::None));
    }
}
