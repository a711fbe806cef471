//! Which of the site's files a page draws from, beyond what the wasm carries: the guided
//! material for a page that shows it, a lesson step's scenarios, a playground link's or an
//! embed's built-in scenarios (the one it shows and the one it compares with). The default scenario is in the
//! wasm, so never among them. The build names them in each page it writes, to preload
//! (`render::pages`); the wasm fetches them before it draws over a page the build drew
//! (`crate::start`). This module decides only: it fetches nothing and reads no browser.

use lockstep_sim::scenario::catalogue;
use lockstep_view::content::Content;
use lockstep_view::link::route::Route;
use lockstep_view::link::share;

/// Whether the page at `address` draws from the guided material.
pub fn needs_material(address: &str) -> bool {
    Route::parse(address).is_some_and(|route| route.needs_content())
}

/// The built-in scenarios the page at `address` draws from, but the default one. A lesson
/// step's are named in the material: none until it is in hand (`content`).
pub fn scenarios(address: &str, content: Option<&Content>) -> Vec<&'static str> {
    let named = match Route::parse(address) {
        Some(Route::Lesson { id, step }) => of_step(content, &id, step),
        // An embed's document (decision 44) draws its scenario, as a playground link does.
        Some(Route::Embed(_)) | None => [
            share::built_in_named(address),
            share::compared_built_in(address),
        ]
        .into_iter()
        .flatten()
        .collect(),
        Some(_) => Vec::new(),
    };
    named
        .into_iter()
        .filter(|id| *id != catalogue::DEFAULT_ID)
        .collect()
}

#[cfg(feature = "full")]
fn of_step(content: Option<&Content>, id: &str, step: usize) -> Vec<&'static str> {
    content.map_or_else(Vec::new, |content| {
        crate::pages::lessons::scenarios_of_step(content, id, step)
    })
}

/// The story binary has no lessons: it hands a lesson's page to the full binary, which fetches
/// the step's scenarios as it starts.
#[cfg(not(feature = "full"))]
fn of_step(_: Option<&Content>, _: &str, _: usize) -> Vec<&'static str> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_draws_from_the_scenarios_it_names_but_the_default_one() {
        assert_eq!(
            scenarios("s=s1-gc-pause-unfenced&at=4&compare=s3-fencing-gap", None),
            ["s1-gc-pause-unfenced", "s3-fencing-gap"]
        );
        let default = format!("s={}&compare=s3-fencing-gap", catalogue::DEFAULT_ID);
        assert_eq!(scenarios(&default, None), ["s3-fencing-gap"]);
        assert_eq!(
            scenarios(
                "embed&s=s1-gc-pause-unfenced&at=10&compare=s3-fencing-gap",
                None
            ),
            ["s1-gc-pause-unfenced", "s3-fencing-gap"]
        );
        assert!(scenarios("", None).is_empty());
        assert!(!needs_material("s=s1-gc-pause-unfenced"));
    }

    #[test]
    fn a_lesson_step_names_its_scenarios_in_the_material() {
        let step = "learn=not-a-mutex&step=3";
        assert!(needs_material(step));
        assert!(scenarios(step, None).is_empty(), "not before the material");
        assert!(needs_material("deck"));
        assert!(!needs_material("sources"));
    }
}
