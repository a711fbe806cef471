//! The guided material (lessons, questions, cards, guide), fetched when a page that needs it
//! first opens, once per visit (`platform::library::content`); should it fail to load, the page
//! says why and offers to try again, and the playground still works.

use crate::components::Shared;
use crate::link::PageLink;
use crate::platform::library::{self, Material};
use lockstep_view::content::Content;
use std::rc::Rc;
use yew::prelude::*;

/// The material, loaded once `wanted` (the route needs it). Kept behind one `Rc`: `Shared`
/// compares by pointer, so a fresh copy on every render would both deep-copy the material and
/// re-render every page.
#[hook]
pub fn use_material(wanted: bool) -> UseStateHandle<Material> {
    // The material in hand is there from the first render: the build's render has it compiled
    // in, and a page it rendered fetches it before the app draws over the same markup.
    let material =
        use_state(|| library::kept_content().map_or(Material::NotLoaded, Material::Ready));
    {
        let wanted = wanted && *material == Material::NotLoaded;
        let material = material.clone();
        use_effect_with(wanted, move |wanted| {
            if *wanted {
                material.set(Material::Loading);
                wasm_bindgen_futures::spawn_local(async move {
                    material.set(match library::content().await {
                        Ok(content) => Material::Ready(content),
                        Err(error) => Material::Failed(error.to_string()),
                    });
                });
            }
        });
    }
    material
}

/// `page` once the material is ready; meanwhile what is loading, or why it failed with a way to
/// try again.
pub fn with_material(
    material: &UseStateHandle<Material>,
    page: &dyn Fn(Shared<Content>) -> Html,
) -> Html {
    let retry = {
        let material = material.clone();
        Callback::from(move |_: MouseEvent| material.set(Material::NotLoaded))
    };
    match &**material {
        Material::Ready(content) => page(Shared(Rc::clone(content))),
        Material::NotLoaded | Material::Loading => html! {
            <section class="page" data-testid="content-loading" aria-busy="true">
                <p class="muted" role="status">{ "Loading the lessons, questions, interview cards and guide…" }</p>
            </section>
        },
        Material::Failed(error) => html! {
            <section class="page" data-testid="content-error">
                <div class="notice problem" role="alert">
                    <span>{ format!("The lessons, questions, cards and guide could not be loaded. {error}.") }</span>
                    <button type="button" class="control" data-testid="content-retry" onclick={retry}>{ "Try again" }</button>
                </div>
                <p>{ "The playground does not need them: " }<PageLink to="">{ "open the playground" }</PageLink>{ "." }</p>
            </section>
        },
    }
}
