//! "Embed code…": a dialog over the playground where an author chooses where the embed starts
//! (this moment, or the beginning), its controls and its form (the host script, or a plain
//! iframe), sees it live in a preview, and copies the code. The snippets come from
//! [`lockstep_view::embed::code`]; the moment is the one the dialog was opened at.
//!
//! What this module must not do: change the playground (it dispatches nothing), or make a
//! snippet of its own.

use crate::platform::browser;
use crate::state::Moment;
use lockstep_view::embed::code::{self, AppAddress, Options, Start};
use lockstep_view::link::embed::ControlSet;
use std::rc::Rc;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// The height the preview keeps (the iframe snippet's placeholder): the embed's own height
/// message is for a host page, which this is not.
const PREVIEW_HEIGHT: &str = "420";

#[derive(Properties, PartialEq)]
pub struct EmbedDialogProps {
    /// The moment to embed, read when the dialog opened.
    pub moment: Rc<Moment>,
    pub on_close: Callback<()>,
}

/// The snippet's form.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    HostScript,
    Iframe,
}

#[component]
pub fn EmbedDialog(props: &EmbedDialogProps) -> Html {
    let options = use_state(|| Options::AS_SHOWN);
    let form = use_state(|| Form::HostScript);
    let copied = use_state(|| false);
    let made = code::for_moment(
        &AppAddress::of_page(&browser::link_with("")),
        &props.moment,
        &crate::platform::library::loaded,
        *options,
    );
    let text = match *form {
        Form::HostScript => made.host_script.clone(),
        Form::Iframe => made.iframe.clone(),
    };
    let on_copy = {
        let (text, copied) = (text.clone(), copied.clone());
        Callback::from(move |_: MouseEvent| {
            browser::copy(&text);
            copied.set(true);
        })
    };
    let close = props.on_close.reform(|_: MouseEvent| ());
    let on_key = props.on_close.reform(|_: KeyboardEvent| ());
    let onkeydown = Callback::from(move |event: KeyboardEvent| {
        if event.key() == "Escape" {
            on_key.emit(event);
        }
    });
    let at = props.moment.position.unwrap_or(0);
    html! {
        <div class="dialog-backdrop">
            <div class="dialog embed-dialog" role="dialog" aria-modal="true" aria-labelledby="embed-title"
                data-testid="embed-dialog" {onkeydown}>
                <h2 id="embed-title">{ "Embed this story in a page" }</h2>
                <div class="embed-options">
                    { choice("Starts", "embed-start", start_choices(at), start_word(options.start),
                        set_option(&options, &copied, |o, v| o.start = if v == "beginning" { Start::Beginning } else { Start::ThisMoment })) }
                    { choice("Controls", "embed-controls", owned(&CONTROL_CHOICES), options.controls.word(),
                        set_option(&options, &copied, |o, v| o.controls = control_set(v))) }
                    { choice("Form", "embed-form", owned(&FORM_CHOICES), form_word(*form), set_form(&form, &copied)) }
                </div>
                <iframe class="embed-preview" data-testid="embed-preview" src={made.address.clone()}
                    title="Preview of the embed" height={PREVIEW_HEIGHT}></iframe>
                <label class="embed-code-label">
                    <span>{ form_said(*form) }</span>
                    <textarea readonly=true rows="4" data-testid="embed-code" value={text} />
                </label>
                <div class="dialog-buttons">
                    <span class="muted" role="status">{ if *copied { "Copied." } else { "" } }</span>
                    <button type="button" class="control" data-testid="embed-close" onclick={close}>{ "Close" }</button>
                    <button type="button" class="control primary" data-testid="embed-copy" onclick={on_copy} autofocus=true>{ "Copy code" }</button>
                </div>
            </div>
        </div>
    }
}

const CONTROL_CHOICES: [(&str, &str); 3] = [
    ("transport", "Back, Step, Play and the scrubber"),
    ("full", "All: also fencing, compare and the violation jumps"),
    ("none", "None: a still picture"),
];

const FORM_CHOICES: [(&str, &str); 2] = [
    ("script", "A script and a div (sizes itself)"),
    ("iframe", "A plain iframe (for a page without scripts)"),
];

fn start_choices(at: usize) -> Vec<(&'static str, String)> {
    vec![
        ("moment", format!("At this moment (event {at})")),
        ("beginning", "At the beginning".to_owned()),
    ]
}

/// `choices` with their words owned, as [`choice`] takes them.
fn owned(choices: &[(&'static str, &'static str)]) -> Vec<(&'static str, String)> {
    choices
        .iter()
        .map(|(value, words)| (*value, (*words).to_owned()))
        .collect()
}

fn start_word(start: Start) -> &'static str {
    match start {
        Start::ThisMoment => "moment",
        Start::Beginning => "beginning",
    }
}

fn control_set(word: &str) -> ControlSet {
    match word {
        "full" => ControlSet::Full,
        "none" => ControlSet::None,
        _ => ControlSet::Transport,
    }
}

fn form_word(form: Form) -> &'static str {
    match form {
        Form::HostScript => "script",
        Form::Iframe => "iframe",
    }
}

fn form_said(form: Form) -> &'static str {
    match form {
        Form::HostScript => {
            "Paste it into a page's HTML: the script turns the div into a live embed."
        }
        Form::Iframe => {
            "For a page that cannot run scripts: 420 px tall where the browser cannot size it to its content."
        }
    }
}

/// A labelled `<select>` of `choices` (value, words), `chosen` selected.
fn choice(
    label: &'static str,
    testid: &'static str,
    choices: Vec<(&'static str, String)>,
    chosen: &'static str,
    onchange: Callback<Event>,
) -> Html {
    html! {
        <label class="field">
            <span>{ label }</span>
            <select data-testid={testid} {onchange}>
                { for choices.into_iter().map(|(value, words)| html! {
                    <option {value} selected={value == chosen}>{ words }</option>
                }) }
            </select>
        </label>
    }
}

/// A select's change, applied to the options; what was copied is then out of date.
fn set_option(
    options: &UseStateHandle<Options>,
    copied: &UseStateHandle<bool>,
    apply: fn(&mut Options, &str),
) -> Callback<Event> {
    let (options, copied) = (options.clone(), copied.clone());
    Callback::from(move |event: Event| {
        let select: HtmlSelectElement = event.target_unchecked_into();
        let mut next = *options;
        apply(&mut next, &select.value());
        options.set(next);
        copied.set(false);
    })
}

fn set_form(form: &UseStateHandle<Form>, copied: &UseStateHandle<bool>) -> Callback<Event> {
    let (form, copied) = (form.clone(), copied.clone());
    Callback::from(move |event: Event| {
        let select: HtmlSelectElement = event.target_unchecked_into();
        form.set(if select.value() == "iframe" {
            Form::Iframe
        } else {
            Form::HostScript
        });
        copied.set(false);
    })
}
