//! The full app (decision 33): every page and dialog. The page's loader (`assets/boot.js`)
//! starts it for an address the story binary lacks, or when the story hands the page over.

fn main() {
    let props = lockstep::AppProps {
        address: lockstep::platform::browser::address().into(),
    };
    match lockstep::platform::mount::root() {
        Some(root) => yew::Renderer::<lockstep::App>::with_root_and_props(root, props).render(),
        None => yew::Renderer::<lockstep::App>::with_props(props).render(),
    };
}
