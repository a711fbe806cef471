//! The story binary's stand-ins for the full binary's pages and dialog: each is the handover
//! to the full binary (`crate::components::handoff`), which then shows the real one.

use super::context::{BUILDER, Context};
use crate::components::handoff::Handoff;
use crate::pages::playground::Story;
use crate::state::Action;
use lockstep_view::content::Content;
use lockstep_view::link::route::Route;
use lockstep_view::split::Feature;
use std::rc::Rc;
use yew::prelude::*;

/// Nothing to keep: the story binary has no guided material.
pub struct MaterialPages;

#[hook]
pub fn use_material_pages(_route: &Route) -> MaterialPages {
    MaterialPages
}

impl MaterialPages {
    /// No lesson here, so the arrow keys have no steps to move between.
    pub fn arrows(&self, _route: &Route, _navigate: &Callback<Route>) -> Option<Callback<bool>> {
        None
    }

    /// No material in hand: a page's title says its section only.
    pub fn content(&self) -> Option<Rc<Content>> {
        None
    }

    /// The handover to the full binary, which shows the page `route` names.
    pub fn page(self, route: &Route, context: Context, _story: Story) -> Html {
        let Some(feature) = Feature::of_route(route) else {
            return Html::default();
        };
        let on_back = context.navigate.reform(|()| Route::Playground);
        html! { <Handoff {feature} playground={context.playground_link} {on_back} /> }
    }
}

/// The handover to the full binary, which opens the builder on arrival.
pub fn builder(
    _dispatch: &Callback<Action>,
    on_close: &Callback<()>,
    playground_link: Option<AttrValue>,
) -> Html {
    html! {
        <div class="dialog-backdrop">
            <div class="dialog" role="dialog" aria-label="The scenario builder" data-testid="handoff-dialog">
                <Handoff feature={Feature::Builder} playground={playground_link}
                    open={AttrValue::from(BUILDER)} on_back={on_close.clone()} />
            </div>
        </div>
    }
}
