//! The site: the playground's state, kept across pages, and the page the route names — the
//! playground, a lesson over the same run, the lessons' index, the knowledge check, the
//! interview deck, the guide, the sources, the chaos lab — under the navigation bar, with the
//! shortcut sheet and the builder as dialogs.

use crate::components::Shared;
use crate::components::controls::Drag;
use crate::components::monitor::Monitor;
use crate::hooks::{
    initial_playground, initial_route, use_autoplay, use_keyboard, use_landing, use_links_in_place,
    use_page_title, use_pause_when_hidden, use_url_sync,
};
use crate::link::{self, Here};
use crate::pages::features::{BUILDER, Context, MaterialPages, builder, use_material_pages};
use crate::pages::first_run::use_first_run;
use crate::pages::nav::SiteNav;
use crate::pages::playground::{PlaygroundPage, Story, playground_page};
use crate::pages::shortcuts::ShortcutSheet;
use crate::platform::browser;
use crate::platform::panels_wait::{Wait, use_panels_wait, use_sight};
use crate::state::{Action, Notice, Playground};
use lockstep_view::content::Content;
use lockstep_view::link::route::Route;
use lockstep_view::metrics::of_run;
use lockstep_view::state::Origin;
use lockstep_view::title;
use std::rc::Rc;
use yew::prelude::*;

/// The first stop of the Tab key on a page with a run: past the navigation and the setup to the
/// transport's Step (a hash link would change the route).
fn skip_link() -> Html {
    html! {
        <button type="button" class="skip-link" data-testid="skip-link"
            onclick={Callback::from(|_: MouseEvent| browser::focus("[data-testid=\"step\"]"))}>
            { "Skip to the player" }
        </button>
    }
}

/// What the site opens with.
#[derive(Properties, PartialEq)]
pub struct SiteProps {
    /// The address the page opened at (`crate::AppProps`).
    pub address: AttrValue,
}

/// The page shown, first the one the visit opened at; the window placed on each move to another
/// (`use_landing`).
#[hook]
fn use_page_route(address: &AttrValue) -> UseStateHandle<Route> {
    let route = {
        let address = address.clone();
        use_state(move || initial_route(&address))
    };
    use_landing(&route);
    route
}

#[component]
pub fn Site(props: &SiteProps) -> Html {
    let address = props.address.clone();
    let playground = {
        let address = address.clone();
        use_reducer(move || initial_playground(&address))
    };
    // One callback for the page's life: components compare it by pointer, and a fresh one on
    // every render would render every component that takes it again.
    let dispatch = {
        let handle = playground.dispatcher();
        use_callback((), move |action: Action, _| handle.dispatch(action))
    };
    let route = use_page_route(&address);
    let Dialogs {
        help,
        building,
        toggle_help,
        open_builder,
        close_dialogs,
    } = use_dialogs();
    use_autoplay(playground.play(), playground.speed(), dispatch.clone());
    use_pause_when_hidden(dispatch.clone());
    let navigate = {
        let route = route.clone();
        Callback::from(move |to: Route| route.set(to))
    };
    let material_pages = use_material_pages(&route);
    use_page_title(page_title(
        &address,
        &route,
        &playground,
        material_pages.content(),
    ));
    let arrows = material_pages.arrows(&route, &navigate);
    use_keyboard(
        dispatch.clone(),
        toggle_help.clone(),
        close_dialogs.clone(),
        arrows,
    );
    let moment_fragment = use_moment_fragment(&playground);
    // While a scenario's file loads (a link's or a menu choice's), the URL keeps what the visitor
    // asked for: a reload or a copied address must not fall back to what happens to show meanwhile.
    // So does a link read only in part, until the visitor acts: its address is theirs to fix.
    let keeps_address = matches!(
        playground.notice(),
        Some(Notice::Loading(_) | Notice::Link(_))
    );
    let written = moment_fragment.clone().filter(|_| !keeps_address);
    // The links between pages are written from the page the URL shows: the one `use_url_sync` writes.
    let here = link::use_site_here(&address, route.fragment().or(written.clone()).as_deref());
    use_links_in_place(here.clone());
    let first_run = use_first_run(&address, &here, &playground, &dispatch, &navigate);
    use_url_sync(&address, written, route.clone(), dispatch.clone());
    let pages = Pages {
        playground: playground.clone(),
        dispatch: dispatch.clone(),
        navigate,
        on_help: toggle_help,
        on_build: open_builder,
        guide: first_run.card,
        here: here.clone(),
        #[cfg(not(feature = "full"))]
        playground_link: moment_fragment.clone().map(AttrValue::from),
        material: material_pages,
    };
    let body = pages.body(
        &route,
        use_story(&playground, &dispatch, *route == Route::Playground),
    );
    let pages_link = moment_fragment.clone().map(AttrValue::from);
    let playground_href = here.href(&moment_fragment.unwrap_or_default());
    html! {
        <ContextProvider<Here> context={here}>
            <main class="app" data-testid="app">
                { site_frame(&route, &playground, Nav { playground_href: AttrValue::from(playground_href), begin_guide: first_run.begin }, body) }
                if *help {
                    <ShortcutSheet on_close={close_dialogs.reform(|_: MouseEvent| ())} />
                }
                if *building {
                    { builder(&dispatch, &close_dialogs, pages_link) }
                }
            </main>
        </ContextProvider<Here>>
    }
}

/// The page's title (`lockstep_view::title`), for the site opened at `address`.
fn page_title(
    address: &str,
    route: &Route,
    playground: &Playground,
    content: Option<Rc<Content>>,
) -> String {
    let built_in = match playground.origin() {
        Origin::BuiltIn(id) => Some(*id),
        Origin::Chaos(_) | Origin::Custom => None,
    };
    title::of(
        route,
        title::Playground::of(address, built_in, playground.title()),
        content.as_deref(),
    )
}

/// What the navigation bar needs beside the route.
struct Nav {
    /// The Playground tab's link.
    playground_href: AttrValue,
    /// Begins the guided start.
    begin_guide: Callback<()>,
}

/// The page under the navigation bar; on a page with a run (the playground and a lesson over it)
/// the link that skips to the player above, and the run's trace hash below.
fn site_frame(route: &Route, playground: &Playground, nav: Nav, body: Html) -> Html {
    let shows_run = matches!(route, Route::Playground | Route::Lesson { .. });
    html! {
        <>
            if shows_run {
                { skip_link() }
            }
            <SiteNav at={route.clone()} playground_href={nav.playground_href} on_guided_start={nav.begin_guide} />
            { body }
            if shows_run {
                <footer class="app-footer">
                    <span>{ "trace hash " }<code data-testid="trace-hash">{ playground.full_hash() }</code></span>
                    <span>{ "Same scenario, seed and actions give the same trace, here and in the CLI." }</span>
                </footer>
            }
        </>
    }
}

/// The shortcut sheet and the builder, and the callbacks that open and close them.
struct Dialogs {
    help: UseStateHandle<bool>,
    building: UseStateHandle<bool>,
    toggle_help: Callback<()>,
    open_builder: Callback<()>,
    close_dialogs: Callback<()>,
}

#[hook]
fn use_dialogs() -> Dialogs {
    let help = use_state(|| false);
    // The story binary hands over to this one to open the builder (`platform::handoff`).
    let building = use_state(|| crate::platform::handoff::take_open(BUILDER));
    // Callbacks kept across renders where a component compares them: a fresh one would render
    // the setup bar again on every Step.
    let toggle_help = {
        let help = help.clone();
        use_callback(*help, move |(), shown: &bool| help.set(!*shown))
    };
    let open_builder = {
        let building = building.clone();
        use_callback((), move |(), _| building.set(true))
    };
    let close_dialogs = {
        let (help, building) = (help.clone(), building.clone());
        Callback::from(move |()| {
            help.set(false);
            building.set(false);
        })
    };
    Dialogs {
        help,
        building,
        toggle_help,
        open_builder,
        close_dialogs,
    }
}

/// The playground's address: the URL and the Playground tab share it. The scenario's part is
/// encoded once per run (it is dear: JSON and base64); each step only adds its position.
#[hook]
fn use_moment_fragment(playground: &UseReducerHandle<Playground>) -> Option<String> {
    let setup_fragment = {
        let playground = playground.clone();
        use_memo(Shared(playground.run_rc()), move |_| {
            playground.moment().map(|m| link::encode_setup(&m))
        })
    };
    setup_fragment
        .as_ref()
        .as_ref()
        .map(|setup| link::at_position(setup, Some(playground.position()), playground.compare()))
}

/// The story's parts, and the panels below it. While the scrubber is dragged, the story
/// (timeline, stage, "now" line, transport) follows every move, and the panels below it keep
/// the moment where the drag began until it rests: they are out of sight on most screens, and
/// drawing them anew on every move would make the timeline lag behind the pointer.
#[hook]
fn use_story(
    playground: &UseReducerHandle<Playground>,
    dispatch: &Callback<Action>,
    on_playground: bool,
) -> Below {
    let drag = use_state_eq(|| Drag::Resting);
    let on_drag = {
        let drag = drag.clone();
        use_callback((), move |next: Drag, _| drag.set(next))
    };
    let below_story = use_node_ref();
    let sight = use_sight(below_story.clone(), on_playground);
    let (wait, (held_run, held_sim)) = use_panels_wait(
        Shared(playground.run_rc()),
        Shared(playground.sim_rc()),
        *drag == Drag::Moving,
        sight,
    );
    // What the monitor plots: the whole run's figures once per run, cut at each step.
    let metrics = use_memo(Shared(playground.run_rc()), |run| of_run(run));
    let monitor = html! {
        <Monitor whole={Shared(metrics.clone())} shown={metrics.shown(held_sim.trace().len())}
            end={playground.layout().end} />
    };
    Below {
        story: Story::of(playground, dispatch, monitor),
        on_drag,
        below_story,
        holding: wait == Wait::Waiting,
        held_run,
        held_sim,
    }
}

/// The story and what the playground shows below it.
struct Below {
    story: Story,
    on_drag: Callback<Drag>,
    below_story: NodeRef,
    holding: bool,
    held_run: Shared<lockstep_view::run::Run>,
    held_sim: Shared<lockstep_sim::Sim>,
}

/// What every page may need from the site.
struct Pages {
    playground: UseReducerHandle<Playground>,
    dispatch: Callback<Action>,
    navigate: Callback<Route>,
    on_help: Callback<()>,
    on_build: Callback<()>,
    /// The card over the story: the guided start's while it runs, else a returning visitor's
    /// way back in.
    guide: Option<Html>,
    /// The page shown, which links are written from.
    here: Here,
    /// The playground's link (its moment), which a handover to the full binary keeps.
    #[cfg(not(feature = "full"))]
    playground_link: Option<AttrValue>,
    material: MaterialPages,
}

impl Pages {
    /// The page `route` names.
    fn body(self, route: &Route, below: Below) -> Html {
        match route {
            Route::Playground => playground_page(PlaygroundPage {
                playground: self.playground.clone(),
                dispatch: self.dispatch.clone(),
                on_help: self.on_help.clone(),
                on_build: self.on_build.clone(),
                on_drag: below.on_drag,
                story: below.story,
                below_story: below.below_story,
                holding: below.holding,
                held_run: below.held_run,
                held_sim: below.held_sim,
                guide: self.guide.clone(),
                here: self.here.clone(),
            }),
            // An embed's address typed into the site's address bar: the embed is a page of its own.
            Route::Embed(_) => {
                crate::platform::browser::reload();
                Html::default()
            }
            _ => self.material.page(
                route,
                Context {
                    #[cfg(feature = "full")]
                    playground: self.playground.clone(),
                    #[cfg(feature = "full")]
                    dispatch: self.dispatch.clone(),
                    navigate: self.navigate.clone(),
                    #[cfg(not(feature = "full"))]
                    playground_link: self.playground_link.clone(),
                },
                below.story,
            ),
        }
    }
}
