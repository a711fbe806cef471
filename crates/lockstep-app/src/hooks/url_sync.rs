//! Keeping the URL in step with the page and the playground's moment, following links pasted
//! or clicked, and what a visit starts with (the page and the moment its address names).

use crate::link;
use crate::platform::browser;
use crate::platform::handoff;
use crate::platform::library;
use crate::state::{Action, Playground};
use gloo_events::EventListener;
use gloo_timers::callback::Timeout;
use lockstep_view::link::route::Route;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The page a visit starts on.
pub fn initial_route(address: &str) -> Route {
    Route::parse(address).unwrap_or(Route::Playground)
}

/// How long the playground must stand still before the URL follows it. Writing the URL is a
/// same-document navigation that costs Chromium several milliseconds (more with a long custom
/// scenario in it): too dear for every Step of autoplay, a held arrow key or a scrub.
const URL_QUIET_MS: u32 = 250;

/// What the URL shows and what it should show. The first change after a quiet spell is written
/// at once; changes that follow it within [`URL_QUIET_MS`] wait, and the last of them is written
/// when they stop. `<html data-url>` says `waiting` while a change waits to be written and
/// `written` once the URL shows what the page wanted (`docs/test-hooks.md`).
struct UrlWriter {
    wanted: Option<String>,
    written: String,
    quiet: Option<Timeout>,
}

impl UrlWriter {
    fn want(writer: &Rc<RefCell<UrlWriter>>, fragment: String) {
        let mut this = writer.borrow_mut();
        this.wanted = Some(fragment);
        if this.quiet.is_none() {
            this.flush();
        }
        let later = Rc::clone(writer);
        this.quiet = Some(Timeout::new(URL_QUIET_MS, move || {
            let mut this = later.borrow_mut();
            this.quiet = None;
            this.flush();
        }));
        this.mark();
    }

    fn flush(&mut self) {
        if let Some(wanted) = self.wanted.take()
            && wanted != self.written
        {
            browser::replace_address(&wanted);
            self.written = wanted;
        }
        self.mark();
    }

    /// Says on `<html data-url>` whether a change still waits to be written.
    fn mark(&self) {
        let waiting = self.wanted.is_some();
        browser::mark("url", if waiting { "waiting" } else { "written" });
    }
}

/// Writes the page — or on the playground, its moment (`moment_fragment`, from
/// `link::encode`) — into the URL as it changes (see [`UrlWriter`]), and follows links clicked or
/// pasted into the address bar.
#[hook]
pub fn use_url_sync(
    address: &AttrValue,
    moment_fragment: Option<String>,
    route: UseStateHandle<Route>,
    dispatch: Callback<Action>,
) {
    // The playground's address the visit started at, read before the effect below rewrites it.
    let arrival = use_memo(address.clone(), |address| playground_arrival(address));
    let writer = use_mut_ref(|| {
        let writer = UrlWriter {
            wanted: None,
            written: address.to_string(),
            quiet: None,
        };
        writer.mark();
        writer
    });
    let fragment = route.fragment().or(moment_fragment);
    {
        let writer = Rc::clone(&writer);
        use_effect_with(fragment, move |fragment| {
            if let Some(fragment) = fragment {
                UrlWriter::want(&writer, fragment.clone());
            }
        });
    }
    let opened_at = address.clone();
    use_effect_with((), move |_| {
        // An old link to a page or a built-in scenario's moment (`#learn=…`, `#s=…` at the
        // root) shows that page's own address, the rest of it kept in the fragment.
        if !lockstep_view::link::path::locate(&opened_at)
            .path
            .is_empty()
        {
            browser::replace_address(&opened_at);
        }
        // A link the first render could not open: its scenario's file is still to load.
        if Route::parse(&arrival).is_none() && waits_for_its_scenario(&arrival) {
            follow_link(arrival.to_string(), dispatch.clone());
        }
        // A chaos lab seed's link opens on its timeline, wherever the setup puts it.
        if Route::parse(&arrival).is_none() && arrival.split('&').any(|p| p.starts_with("chaos=")) {
            crate::platform::reveal::timeline_when_shown(None);
        }
        let follow = Rc::new(move || {
            let address = browser::address();
            // The address bar says what the user asked for in its own form: a page's path.
            browser::replace_address(&address);
            // A fragment link followed fires both events; the second finds it followed.
            if address == writer.borrow().written {
                return;
            }
            // What the page meant to write before is out of date.
            {
                let mut writer = writer.borrow_mut();
                writer.written = address.clone();
                writer.wanted = None;
                writer.mark();
            }
            if let Some(page) = Route::parse(&address) {
                route.set(page);
                return;
            }
            route.set(Route::Playground);
            if !address.is_empty() {
                follow_link(address, dispatch.clone());
            }
        });
        // A fragment link or a pasted link fires `hashchange`; Back and Forward between
        // pages' paths fire only `popstate`.
        let listeners: Vec<EventListener> = crate::platform::browser::window()
            .map(|window| {
                ["hashchange", "popstate"]
                    .into_iter()
                    .map(|event| {
                        let follow = Rc::clone(&follow);
                        EventListener::new(&window, event, move |_| follow())
                    })
                    .collect()
            })
            .unwrap_or_default();
        move || drop(listeners)
    });
}

/// Whether the link names a built-in scenario whose file is not loaded yet.
fn waits_for_its_scenario(fragment: &str) -> bool {
    [
        link::built_in_named(fragment),
        link::compared_built_in(fragment),
    ]
    .into_iter()
    .flatten()
    .any(|id| library::loaded(id).is_none())
}

/// Opens the moment a link describes, once the built-in scenarios it names (the one it shows,
/// and the one it compares with) have loaded.
fn follow_link(fragment: String, dispatch: Callback<Action>) {
    let (shown, compared) = (
        link::built_in_named(&fragment),
        link::compared_built_in(&fragment),
    );
    let restore = move || opened(&fragment, "What was open stays.");
    library::with_files_of_link(shown, compared, dispatch, restore);
}

/// The action that opens a link: its moment as far as it can be read, saying what was left
/// out; or, when not even its scenario can be read, why, and what is shown `instead`.
fn opened(fragment: &str, instead: &str) -> Action {
    match link::decode_kept(fragment) {
        Ok(kept) => {
            let words = kept.words();
            Action::OpenLink(Box::new(kept.moment), words)
        }
        Err(unread) => Action::ReportLink(format!("{} {instead}", unread.words())),
    }
}

/// The playground a visit starts with: the moment in the URL, or the default scenario with a
/// message saying what is wrong with the link.
pub fn initial_playground(address: &str) -> Playground {
    let playground = Playground(initial(&playground_arrival(address)));
    // A lesson step's page shows the step's moment from the first render, not after
    // `use_stand_at`'s effect: as the build renders it (decision 43).
    #[cfg(feature = "full")]
    if let Some(Route::Lesson { id, step }) = Route::parse(address)
        && let Some(action) = crate::pages::lessons::first_stand(&playground, &id, step)
    {
        return Playground(Rc::clone(&playground.0).reduce(action));
    }
    playground
}

thread_local! {
    /// [`playground_arrival`] for the address it was asked about: the handover's note is taken
    /// when read, so a second ask for the same address must get the first answer. (The build
    /// renders many addresses on one thread, one after another.)
    static ARRIVAL: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

/// The playground's address at the start of the visit: the `address`, or on another page the
/// playground the story binary left when it handed the page to this binary (`platform::handoff`).
fn playground_arrival(address: &str) -> String {
    ARRIVAL.with(|arrival| {
        let mut arrival = arrival.borrow_mut();
        if let Some((asked, answer)) = arrival.as_ref()
            && asked == address
        {
            return answer.clone();
        }
        let answer = match (Route::parse(address), handoff::take_playground()) {
            (Some(_), Some(left)) => left,
            _ => address.to_owned(),
        };
        *arrival = Some((address.to_owned(), answer.clone()));
        answer
    })
}

fn initial(fragment: &str) -> Rc<lockstep_view::state::Playground> {
    use lockstep_view::state::Playground;
    let default = || Rc::new(Playground::default_scenario());
    if fragment.is_empty() || Route::parse(fragment).is_some() {
        return default();
    }
    if waits_for_its_scenario(fragment) {
        // `use_url_sync` loads it and opens the link; meanwhile the default scenario shows, and
        // the loading notice keeps the URL as the link until then.
        return default().reduce(Action::Loading(
            "Loading the scenario this link names…".to_string(),
        ));
    }
    default().reduce(opened(fragment, "The default scenario is shown."))
}
