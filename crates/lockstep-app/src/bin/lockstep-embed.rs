//! The embed binary (decision 33): an embed's moment alone, with none of the site around it —
//! about a fifth smaller than the story binary, for readers of other sites' pages. The page's
//! loader (`assets/boot.js`) starts it for an `#embed&…` address that shows a moment; an embed
//! of a whole lesson gets the full binary.

fn main() {
    let props = lockstep::AppProps {
        address: lockstep::platform::browser::address().into(),
    };
    match lockstep::platform::mount::root() {
        Some(root) => {
            yew::Renderer::<lockstep::EmbedApp>::with_root_and_props(root, props).render()
        }
        None => yew::Renderer::<lockstep::EmbedApp>::with_props(props).render(),
    };
}
