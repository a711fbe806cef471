//! The embed binary (decision 33): an embed's moment alone, with none of the site around it —
//! about a fifth smaller than the story binary, for readers of other sites' pages. The page's
//! loader (`assets/boot.js`) starts it for an `#embed&…` address that shows a moment; an embed
//! of a whole lesson gets the full binary.

fn main() {
    // The app runs for the page's life; dropping its handle leaves it running.
    lockstep::start::start(|_: yew::AppHandle<lockstep::EmbedApp>| ());
}
