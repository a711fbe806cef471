//! Where the popover goes: beside its anchor (the lane name or stage node the user chose), inside
//! the window and above the transport bar.
//! On a phone the stylesheet makes it a bottom sheet, and nothing is placed here.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// The widest window that gets the bottom sheet (the stylesheet's breakpoint).
pub const SHEET_MAX_WIDTH: f64 = 640.0;
/// Kept free at the window's edges.
const MARGIN: f64 = 8.0;

/// The element the popover for `node` (a name) hangs from: the lane name or stage node the user
/// just chose (it has the focus), else the main timeline's lane name.
pub fn anchor(node: &str) -> Option<Element> {
    let document = crate::platform::browser::window()?.document()?;
    let chosen = document.active_element().filter(|e| {
        e.get_attribute("data-node").as_deref() == Some(node)
            && matches!(
                e.get_attribute("data-testid").as_deref(),
                Some("lane-label" | "stage-node")
            )
    });
    chosen.or_else(|| {
        document
            .query_selector(&format!(
                "[data-testid=\"timeline-main\"] [data-testid=\"lane-label\"][data-node=\"{node}\"]"
            ))
            .ok()
            .flatten()
    })
}

/// Places `popover` (absolutely positioned in its parent) at `anchor`, inside the window and
/// clear of the transport bar.
pub fn place(popover: &HtmlElement, anchor: Option<Element>) {
    let Some(window) = crate::platform::browser::window() else {
        return;
    };
    let width = window
        .inner_width()
        .ok()
        .and_then(|w| w.as_f64())
        .unwrap_or(0.0);
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let (Some(anchor), Some(parent)) = (anchor, popover.parent_element()) else {
        return;
    };
    if width <= SHEET_MAX_WIDTH {
        let _ = popover.remove_attribute("style");
        return;
    }
    let bar_top = window
        .document()
        .and_then(|d| d.query_selector(".transport-bar").ok().flatten())
        .map_or(height, |bar| bar.get_bounding_client_rect().top());
    let at = anchor.get_bounding_client_rect();
    let frame = parent.get_bounding_client_rect();
    let (w, h) = (
        f64::from(popover.offset_width()),
        f64::from(popover.offset_height()),
    );
    // Beside the anchor (right, else left), so the other lane names stay in reach; kept inside
    // the window and above the transport bar.
    let left = if at.right() + 6.0 + w <= width - MARGIN {
        at.right() + 6.0
    } else {
        (at.left() - 6.0 - w).max(MARGIN)
    };
    let top = at.top().min(bar_top - MARGIN - h).max(MARGIN);
    let _ = popover.set_attribute(
        "style",
        &format!(
            "left: {:.0}px; top: {:.0}px",
            left - frame.left(),
            top - frame.top()
        ),
    );
}

/// The first button in `popover`, focused: the keyboard goes on from where the user chose.
pub fn focus_first(popover: &HtmlElement) {
    if let Some(button) = popover
        .query_selector("button")
        .ok()
        .flatten()
        .and_then(|b| b.dyn_into::<HtmlElement>().ok())
    {
        let _ = button.focus();
    }
}
