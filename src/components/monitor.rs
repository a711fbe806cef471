//! The operator's figures as small plots that follow the run: lock wait and hold times (one dot
//! per acquisition), and leases expired while held, renewals refused and writes fenced off (a
//! running count). The numbers come from [`crate::metrics`]; this only draws them.

use crate::metrics::{Metrics, Sample, metrics};
use crate::state::Playground;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct MonitorProps {
    pub playground: UseReducerHandle<Playground>,
}

const WIDTH: f64 = 120.0;
const HEIGHT: f64 = 28.0;

#[component]
pub fn Monitor(props: &MonitorProps) -> Html {
    let playground = &props.playground;
    let m: Metrics = metrics(playground.run(), playground.position());
    let end = playground.now().0.max(1);
    html! {
        <section class="card monitor" data-testid="monitor" aria-label="What an operator would watch">
            <h2>{ "monitoring" }</h2>
            <ul class="metrics">
                { durations("wait", "Lock wait time", &m.waits, end) }
                { durations("hold", "Hold time", &m.holds, end) }
                { counts("expired-while-held", "Leases expired while held", &m.expired_while_held, end) }
                { counts("renewals-refused", "Renewals refused", &m.renewals_refused, end) }
                { counts("fenced-writes", "Writes fenced off", &m.fenced_writes, end) }
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
                { for samples.iter().map(|s| html! {
                    <circle cx={x(s.time, end).to_string()}
                        cy={(HEIGHT - 2.0 - (HEIGHT - 4.0) * s.value as f64 / max as f64).to_string()} r="2" />
                }) }
            </svg>
            <span class="metric-value">{ summary }</span>
        </li>
    }
}

fn counts(id: &'static str, label: &'static str, times: &[u64], end: u64) -> Html {
    let total = times.len();
    let step_to =
        |n: usize| (HEIGHT - 2.0 - (HEIGHT - 4.0) * n as f64 / total.max(1) as f64).to_string();
    let mut points = vec![format!("0,{}", step_to(0))];
    for (i, &t) in times.iter().enumerate() {
        points.push(format!("{},{}", x(t, end), step_to(i)));
        points.push(format!("{},{}", x(t, end), step_to(i + 1)));
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
