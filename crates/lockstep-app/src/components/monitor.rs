//! The operator's figures as small plots that follow the run: lock wait and hold times (one dot
//! per acquisition), and leases expired while held, renewals refused and writes fenced off (a
//! running count). The numbers come from [`lockstep_view::metrics`]; this only draws them, and renders
//! again only when a step adds a sample.

use crate::components::Shared;
use lockstep_view::metrics::{Metrics, Sample, Shown};
use yew::prelude::*;

/// Only what the plots draw: the whole run's figures (once per run), how many of each are
/// shown, and the run's end. A step that adds no sample leaves these equal, and the monitor
/// is not rendered again.
#[derive(Properties, PartialEq)]
pub struct MonitorProps {
    pub whole: Shared<Metrics>,
    pub shown: Shown,
    /// The run's last moment, in virtual ms: the plots' fixed time axis.
    pub end: u64,
}

const WIDTH: f64 = 120.0;
const HEIGHT: f64 = 28.0;

#[component]
pub fn Monitor(props: &MonitorProps) -> Html {
    let (m, n) = (&props.whole, props.shown);
    // A fixed time axis (the whole run) keeps the dots already drawn where they are: a step
    // only adds to the plot's right end.
    let end = props.end.max(1);
    html! {
        <section class="card monitor" data-testid="monitor" aria-label="What an operator would watch">
            <h2>{ "monitoring" }</h2>
            <ul class="metrics">
                { durations("wait", "Lock wait time", &m.waits[..n.waits], end) }
                { durations("hold", "Hold time", &m.holds[..n.holds], end) }
                { counts("expired-while-held", "Leases expired while held", &m.expired_while_held[..n.expired_while_held], end) }
                { counts("renewals-refused", "Renewals refused", &m.renewals_refused[..n.renewals_refused], end) }
                { counts("fenced-writes", "Writes fenced off", &m.fenced_writes[..n.fenced_writes], end) }
            </ul>
        </section>
    }
}

fn x(time: u64, end: u64) -> f64 {
    time as f64 * WIDTH / end as f64
}

fn durations(id: &'static str, label: &'static str, samples: &[Sample], end: u64) -> Html {
    let max = samples.iter().map(|s| s.value).max().unwrap_or(0).max(1);
    let last = samples.last().map(|s| s.value);
    let summary = last.map_or("none yet".to_owned(), |v| {
        format!("last {v} ms, longest {max} ms")
    });
    html! {
        <li class="metric" data-testid="metric" data-metric={id} data-count={samples.len().to_string()}>
            <span class="metric-label">{ label }</span>
            <svg width={WIDTH.to_string()} height={HEIGHT.to_string()} viewBox={format!("0 0 {WIDTH} {HEIGHT}")}
                role="img" aria-label={format!("{label}: {summary}")}>
                <line class="axis" x1="0" x2={WIDTH.to_string()} y1={HEIGHT.to_string()} y2={HEIGHT.to_string()} />
                { for columns(samples, end).into_iter().map(|(column, value)| html! {
                    <circle cx={(column as f64 + 0.5).to_string()}
                        cy={(HEIGHT - 2.0 - (HEIGHT - 4.0) * value as f64 / max as f64).to_string()} r="1.5" />
                }) }
            </svg>
            <span class="metric-value">{ summary }</span>
        </li>
    }
}

/// The samples as at most one dot per pixel column: the longest there.
fn columns(samples: &[Sample], end: u64) -> Vec<(usize, u64)> {
    let mut dots: Vec<(usize, u64)> = Vec::new();
    for sample in samples {
        let column = (x(sample.time, end) as usize).min(WIDTH as usize - 1);
        match dots.last_mut() {
            Some((c, value)) if *c == column => *value = (*value).max(sample.value),
            _ => dots.push((column, sample.value)),
        }
    }
    dots
}

fn counts(id: &'static str, label: &'static str, samples: &[Sample], end: u64) -> Html {
    let total = samples.len();
    let step_to =
        |n: usize| (HEIGHT - 2.0 - (HEIGHT - 4.0) * n as f64 / total.max(1) as f64).to_string();
    // A staircase with one riser per pixel column that has samples: thousands of refusals draw
    // as at most `WIDTH` steps, which look the same.
    let mut points = vec![format!("0,{}", step_to(0))];
    let mut counted = 0;
    for (column, in_column) in columns_of(samples, end) {
        let x = column as f64;
        points.push(format!("{x},{}", step_to(counted)));
        counted += in_column;
        points.push(format!("{x},{}", step_to(counted)));
    }
    points.push(format!("{WIDTH},{}", step_to(total)));
    html! {
        <li class={classes!("metric", (total > 0).then_some("nonzero"))} data-testid="metric" data-metric={id}
            data-count={total.to_string()}>
            <span class="metric-label">{ label }</span>
            <svg width={WIDTH.to_string()} height={HEIGHT.to_string()} viewBox={format!("0 0 {WIDTH} {HEIGHT}")}
                role="img" aria-label={format!("{label}: {total}")}>
                <line class="axis" x1="0" x2={WIDTH.to_string()} y1={HEIGHT.to_string()} y2={HEIGHT.to_string()} />
                <polyline points={points.join(" ")} />
            </svg>
            <span class="metric-value">{ total.to_string() }</span>
        </li>
    }
}

/// The pixel columns that have samples, with how many fall in each, left to right.
fn columns_of(samples: &[Sample], end: u64) -> Vec<(usize, usize)> {
    let mut counts: Vec<(usize, usize)> = Vec::new();
    for sample in samples {
        let column = x(sample.time, end) as usize;
        match counts.last_mut() {
            Some((c, n)) if *c == column => *n += 1,
            _ => counts.push((column, 1)),
        }
    }
    counts
}
