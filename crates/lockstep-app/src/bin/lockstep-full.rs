//! The full app (decision 33): every page and dialog. The page's loader (`assets/boot.js`)
//! starts it for an address the story binary lacks, or when the story hands the page over.

fn main() {
    // The app runs for the page's life; dropping its handle leaves it running.
    lockstep::start::start(|_: yew::AppHandle<lockstep::App>| ());
}
