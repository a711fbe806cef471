//! The page the app shows, as the links between its pages are written from it (issue 41): every
//! page has a path of its own (`lockstep_view::link::path`), and a link to another page or to a
//! moment is a relative path from this one (`../../learn/`), so that it leads where it says in
//! the page the build rendered, read without the app (a reader without JavaScript, a search
//! engine), and wherever the site is served from. The running app follows such a click in place
//! (`crate::hooks::use_links_in_place`).
//!
//! [`Here`] is given by the site (`crate::pages::site`) to everything under it, from the state
//! it renders (never from the window: the build's render has none, and the browser's first render
//! must draw what the build drew); a component reads it with [`use_here`], a helper that builds
//! markup takes it as an argument, and [`PageLink`] is a link that reads it itself.
//!
//! An embed (`crate::embed`) has no site around it: its [`Here`] is where its frame's page is
//! (the app's root, or the embed's own document, `embed/<id>/…/`), given by `crate::App`, and
//! the embed opens every link in a new tab (`crate::embed::view`).

use lockstep_view::link::path;
use yew::prelude::*;

/// The path of the page shown (site-relative, as `path::locate(..).path`: `learn/x/3/`, `` for
/// the root): where the links on it are written from. The default is the root.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Here {
    pub path: String,
}

impl Here {
    /// The page at which the app's `address` (a fragment's text) lives.
    pub fn of(address: &str) -> Here {
        Here {
            path: path::locate(address).path,
        }
    }

    /// The relative link from this page to the app's `address` (a fragment's text, with or
    /// without `#`): `learn` from `learn/x/3/` is `../../../learn/`.
    pub fn href(&self, address: &str) -> String {
        path::locate(address).href(&self.path)
    }
}

/// The page shown, as the site (or, for an embed, `crate::App`) gives it; the root without one.
#[hook]
pub fn use_here() -> Here {
    use_context::<Here>().unwrap_or_default()
}

/// The site's [`Here`]: the page of the address the URL shows, `written` (what `use_url_sync`
/// writes: the page's address, or on the playground its moment's). While nothing is to be
/// written (a link's scenario still loading) the URL keeps its address, and so does this.
///
/// The first render is written from the page the visit `opened` at, as the build rendered it:
/// the root's playground writes its moment's path into the URL (`s/<id>/`) only once it runs,
/// but the root's rendered page lives at the root, and its links must lead from there. Where the
/// two differ, the site draws once more, from what the URL shows by then.
#[hook]
pub fn use_site_here(opened: &str, written: Option<&str>) -> Here {
    let shown = use_mut_ref(|| Here::of(opened));
    if let Some(address) = written {
        *shown.borrow_mut() = Here::of(address);
    }
    let first = use_mut_ref(|| true);
    let redraw = use_force_update();
    let opened = Here::of(opened);
    {
        let (shown, first, opened) = (shown.clone(), first.clone(), opened.clone());
        use_effect_with((), move |_| {
            *first.borrow_mut() = false;
            if *shown.borrow() != opened {
                redraw.force_update();
            }
        });
    }
    if *first.borrow() {
        opened
    } else {
        shown.borrow().clone()
    }
}

#[derive(Properties, PartialEq)]
pub struct PageLinkProps {
    /// The app's address it opens (a fragment's text).
    pub to: AttrValue,
    #[prop_or_default]
    pub class: Classes,
    #[prop_or_default]
    pub testid: Option<AttrValue>,
    #[prop_or_default]
    pub children: Html,
}

/// A link to another page or a moment, written from the page shown: for a helper that cannot
/// read [`Here`] itself (one called from many places, or from a struct component).
#[component]
pub fn PageLink(props: &PageLinkProps) -> Html {
    let href = use_here().href(&props.to);
    html! {
        <a {href} class={props.class.clone()} data-testid={props.testid.clone()}>{ props.children.clone() }</a>
    }
}

#[cfg(test)]
mod tests {
    use super::Here;

    #[test]
    fn a_link_leads_back_up_from_the_page_shown() {
        let step = Here::of("learn=not-a-mutex&step=3");
        assert_eq!(step.path, "learn/not-a-mutex/3/");
        assert_eq!(step.href("learn"), "../../../learn/");
        assert_eq!(step.href("#quiz=2"), "../../../quiz/2/");
        assert_eq!(step.href(""), "../../../");
        assert_eq!(Here::default().href("learn=x&step=1"), "./learn/x/1/");
        assert_eq!(Here::of("lab").href("chaos=abc&at=3"), "../#chaos=abc&at=3");
        let document = Here {
            path: "embed/s2-gc-pause-fenced/at=10/".to_owned(),
        };
        assert_eq!(
            document.href("s=s2-gc-pause-fenced&at=10"),
            "../../../s/s2-gc-pause-fenced/#at=10"
        );
    }
}
