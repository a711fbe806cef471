//! Chaos settings in words, for a reader: the one wording of the CLI's table heading and the
//! chaos lab's form and results (they used to word them each their own way). The text form for
//! links and flags is `settings`'s; this module only says settings, it never reads them.

use super::faults::FaultKind;
use super::settings::{ChaosSettings, fencing_id};
use crate::models::resource::Fencing;

/// A fencing mode as a form offers it: "on (tokens checked)".
pub fn fencing_label(fencing: Fencing) -> &'static str {
    match fencing {
        Fencing::On => "on (tokens checked)",
        Fencing::Off => "off",
        Fencing::CheckAndSet => "check-and-set",
        Fencing::Sequencer => "sequencer",
    }
}

/// A span of virtual time in seconds, as `7.5 s` or `15 s`.
pub fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1_000) {
        format!("{} s", ms / 1_000)
    } else {
        format!("{:.1} s", ms as f64 / 1_000.0)
    }
}

impl ChaosSettings {
    /// The settings in one line: "SQL row, fencing on, 8 clients, faults: pauses, partitions,
    /// 180 s of virtual time a run".
    pub fn words(&self) -> String {
        self.parts().join(", ")
    }

    /// The same words a setting at a time — the lock service, the fencing, the clients, the
    /// faults, the run's length — so that two runs can be told apart by what differs.
    pub fn parts(&self) -> [String; 5] {
        let faults: Vec<String> = self
            .faults
            .iter()
            .map(|kind| FaultKind::label(kind).to_lowercase())
            .collect();
        [
            self.backend.label().to_owned(),
            format!("fencing {}", fencing_id(self.fencing)),
            format!("{} clients", self.clients.get()),
            format!(
                "faults: {}",
                if faults.is_empty() {
                    "none".to_owned()
                } else {
                    faults.join(", ")
                }
            ),
            format!("{} of virtual time a run", seconds(self.duration.0)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::chaos::FaultSet;

    #[test]
    fn the_articles_test_in_words() {
        let settings = ChaosSettings::verification_test(Fencing::On);
        assert_eq!(
            settings.words(),
            "SQL row, fencing on, 8 clients, faults: pauses, partitions, lock-service crashes, \
             180 s of virtual time a run"
        );
        let calm = ChaosSettings {
            faults: FaultSet::NONE,
            ..settings
        };
        assert!(
            calm.words().contains(", faults: none, "),
            "{}",
            calm.words()
        );
    }

    #[test]
    fn seconds_keep_a_decimal_only_when_needed() {
        assert_eq!(seconds(15_000), "15 s");
        assert_eq!(seconds(7_500), "7.5 s");
    }
}
