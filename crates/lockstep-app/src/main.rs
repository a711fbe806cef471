//! Mounts the Lockstep app into the page. Everything else lives in the library, so that tests
//! can import it.

fn main() {
    yew::Renderer::<lockstep::App>::new().render();
}
