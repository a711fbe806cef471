//! A check's findings in words: the headline with its numbers, the lessons that explain them
//! (ids of `content/lessons.json`), and what the check cannot see. It must not count runs.

use super::generate::Frame;
use super::judge::DataHarm;
use super::report::{CheckReport, LessonRef, Verdict};
use super::search::Shortest;
use super::setup::{LockSetup, Possible, Release, RenewalSetup, Service, TokenUse};

/// "37 %": a share of runs, to the nearest whole per cent (never 0 % for a share above none).
fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "0 %".to_owned();
    }
    let share = (part * 100 + whole / 2) / whole;
    if share == 0 && part > 0 {
        "under 1 %".to_owned()
    } else {
        format!("{share} %")
    }
}

/// "1,000".
fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "2 s", "750 ms".
fn duration(ms: u64) -> String {
    if ms >= 1_000 && ms.is_multiple_of(100) {
        let tenths = ms / 100;
        if tenths.is_multiple_of(10) {
            format!("{} s", tenths / 10)
        } else {
            format!("{}.{} s", tenths / 10, tenths % 10)
        }
    } else {
        format!("{ms} ms")
    }
}

/// "with pauses up to 2 s, partitions and clock steps".
fn faults(setup: &LockSetup) -> String {
    let mut parts = Vec::new();
    if setup.longest_pause_ms.0 > 0 {
        parts.push(format!(
            "pauses up to {}",
            duration(setup.longest_pause_ms.0)
        ));
    }
    for (possible, words) in [
        (setup.partitions, "partitions"),
        (setup.clock_steps, "clock steps"),
        (setup.crashes, "lock-service crashes"),
    ] {
        if possible == Possible::Yes {
            parts.push(words.to_owned());
        }
    }
    match parts.split_last() {
        None => "with no faults".to_owned(),
        Some((last, [])) => format!("with {last}"),
        Some((last, rest)) => format!("with {} and {last}", rest.join(", ")),
    }
}

pub fn headline(report: &CheckReport) -> String {
    let runs = format!("{} runs {}", count(report.runs), faults(&report.setup));
    let harm = report.harm.happened();
    let data = percent(report.data.runs, report.runs);
    let beliefs = percent(report.beliefs.runs, report.runs);
    let searched = matches!(report.shortest_data, Shortest::Found { .. });
    match report.verdict {
        Verdict::DataLost if report.data.runs == 0 && searched => format!(
            "Your data can be lost: none of {runs} showed it, but the search found a run in \
             which {harm}."
        ),
        Verdict::DataLost => {
            format!("Your data can be lost: in {data} of {runs}, {harm}.")
        }
        Verdict::DataLostInFencingGap => format!(
            "Your data can be lost in the fencing gap: fencing refused every write below a newer \
             token, but in {data} of {runs} a stale write landed before the newer holder's first \
             write, and {harm}."
        ),
        Verdict::BeliefsOverlap => format!(
            "Two clients can believe they hold the lock at once (in {beliefs} of {runs}), but \
             your data survived every run."
        ),
        Verdict::Intact => format!(
            "Your data survived all {runs}, and the search found no run that breaks a promise."
        ),
    }
}

fn lesson(lesson: &str, why: &str) -> LessonRef {
    LessonRef {
        lesson: lesson.to_owned(),
        why: why.to_owned(),
    }
}

/// The lessons that explain the verdict, most relevant first.
pub fn lessons(report: &CheckReport) -> Vec<LessonRef> {
    let setup = &report.setup;
    let mut out = Vec::new();
    match report.verdict {
        Verdict::DataLost if report.harm == DataHarm::DoubleCharge => out.push(lesson(
            "alternatives",
            "A retried payment without an idempotency key is charged twice.",
        )),
        Verdict::DataLost => out.push(lesson(
            "fencing-tokens",
            "A client paused past its lease still writes; a fencing token makes the resource \
             refuse it.",
        )),
        Verdict::DataLostInFencingGap => out.push(lesson(
            "fencing-tokens",
            "Fencing refuses a token below the highest seen, so a stale write that arrives \
             before the newer holder's first write still lands: the fencing gap.",
        )),
        Verdict::BeliefsOverlap => out.push(lesson(
            "no-exclusion",
            "No lease can guarantee that only one client believes it holds the lock.",
        )),
        Verdict::Intact => out.push(lesson(
            "design-checklist",
            "The checklist this check runs, question by question.",
        )),
    }
    if matches!(setup.service, Service::Redlock { .. }) && report.verdict != Verdict::Intact {
        out.push(lesson(
            "redlock-debate",
            "Redlock times leases by each node's clock and issues no fencing token.",
        ));
    }
    if setup.release == Release::Delete {
        out.push(lesson(
            "cache-hazards",
            "A plain DEL can delete another client's lock.",
        ));
    }
    if let RenewalSetup::Watchdog {
        max_renewals: Some(_),
    } = setup.renewal
    {
        out.push(lesson(
            "duration-and-renewal",
            "A capped watchdog stops renewing while the work goes on.",
        ));
    }
    out
}

/// The models' limits that bear on this setup.
pub fn cannot_see(setup: &LockSetup, frame: &Frame) -> Vec<String> {
    let mut out = vec![
        format!(
            "Each run lasts {} of virtual time, with faults at fixed rates (about 8 pauses a \
             run, 6 of each other kind allowed) at random moments; your production's rates \
             differ, so read the percentages as how often these runs broke, not how often yours \
             will.",
            duration(frame.duration.0)
        ),
        "Clocks step only when a clock-step fault strikes; they do not drift.".to_owned(),
        "The network delays each message 1 to 20 ms and loses 0.1 %; a partition cuts one \
         client from one node, both ways, and heals."
            .to_owned(),
        "The resource itself never crashes or fails over in these runs.".to_owned(),
    ];
    match setup.service {
        Service::Zookeeper => out.push(
            "ZooKeeper is modelled by the consensus service (a small Raft with etcd's lock): \
             sessions and their expiry as etcd's leases, zxid order as revisions."
                .to_owned(),
        ),
        Service::Etcd | Service::Consul { .. } => out.push(
            "The consensus service is a small Raft with etcd's lock on top, three replicas, \
             without pre-vote."
                .to_owned(),
        ),
        _ => {}
    }
    if setup.resource == TokenUse::Sequencer {
        out.push(
            "The sequencer check asks the lock service on every write; Chubby answers from a \
             cache."
                .to_owned(),
        );
    }
    out
}
