//! Checking a scenario: everything serde cannot, in one place, and naming its nodes. The engine
//! runs only a scenario that passed it; `parse` calls it on every file it reads.

use crate::models::client::{Access, Protocol};
use crate::models::resource::Fencing;
use crate::scenario::cast::{Cast, ExpiryNotice};
use crate::scenario::checked::CheckedScenario;
use crate::scenario::error::{ScenarioError, invalid};
use crate::scenario::estimate;
use crate::scenario::ranges;
use crate::scenario::source::ScenarioSource;
use crate::scenario::sources::check_citations;
use crate::scenario::types::{
    LockServiceSpec, MAX_CLIENTS, MAX_END_MS, RESOURCE_NAME, ResourceSpec, Scenario,
};
use crate::scenario::version::readable;
use crate::vocabulary::happening::Request;
use crate::world::intervention::Action;

impl Scenario {
    /// Checks everything serde cannot and names the nodes: the one validation, which `parse`
    /// runs on every file it reads and `Sim::new` on every scenario it is given. What passes is
    /// the only thing the engine runs (`Sim::from_checked`).
    pub fn check(&self) -> Result<CheckedScenario<'_>, ScenarioError> {
        self.check_settings()?;
        let cast = self.name_nodes()?;
        self.check_references(&cast)?;
        estimate::check(self)?;
        Ok(CheckedScenario::new(self, cast))
    }

    /// The values that need no names: ranges, counts, the service's and the resource's settings.
    fn check_settings(&self) -> Result<(), ScenarioError> {
        check_slug("id", &self.id, "an id", 64)?;
        if !readable(self.format) {
            return Err(ScenarioError::UnsupportedFormat { found: self.format });
        }
        if self.end_ms.0 == 0 || self.end_ms.0 > MAX_END_MS {
            return Err(invalid(
                "end_ms",
                format!("must be between 1 and {MAX_END_MS}"),
            ));
        }
        ranges::check(self)?;
        if self.clients.is_empty() {
            return Err(invalid("clients", "a scenario needs at least one client"));
        }
        if self.clients.len() > MAX_CLIENTS {
            return Err(invalid(
                "clients",
                format!(
                    "{} clients; at most {MAX_CLIENTS} are supported",
                    self.clients.len()
                ),
            ));
        }
        check_latency("network.latency_ms", self.network.latency_ms)?;
        check_sources(&self.sources)?;
        if let LockServiceSpec::Redlock { nodes, .. } = self.lock_service
            && !(1..=7).contains(&nodes)
        {
            return Err(invalid(
                "lock_service.nodes",
                "Redlock needs between 1 and 7 nodes",
            ));
        }
        if let LockServiceSpec::Consensus {
            replicas,
            heartbeat_ms,
            election_timeout_ms,
            ..
        } = self.lock_service
        {
            if !(1..=7).contains(&replicas) {
                return Err(invalid(
                    "lock_service.replicas",
                    "a consensus service needs between 1 and 7 replicas",
                ));
            }
            // Both are at least 1 ms (see `ranges`).
            if election_timeout_ms <= heartbeat_ms {
                return Err(invalid(
                    "lock_service.election_timeout_ms",
                    "must be longer than a heartbeat",
                ));
            }
        }
        if let ResourceSpec::Inventory {
            fencing: Fencing::CheckAndSet | Fencing::Sequencer,
            ..
        } = self.resource
        {
            return Err(invalid(
                "resource.fencing",
                "an inventory checks tokens itself (on) or not at all (off); check_and_set and \
                 sequencer apply to a register",
            ));
        }
        if let LockServiceSpec::DataGrid { members } = self.lock_service
            && !(1..=7).contains(&members)
        {
            return Err(invalid(
                "lock_service.members",
                "a grid needs between 1 and 7 members",
            ));
        }
        check_loss("network.loss_per_million", self.network.loss_per_million)?;
        Ok(())
    }

    /// Names the nodes (the services, the resource, then the clients) and checks each client's
    /// name and access.
    fn name_nodes(&self) -> Result<Cast, ScenarioError> {
        let service_names = self.lock_service.node_names();
        let services = u16::try_from(service_names.len()).unwrap_or(u16::MAX);
        let mut names = service_names;
        names.push(RESOURCE_NAME.to_owned());
        for (i, client) in self.clients.iter().enumerate() {
            let path = format!("clients[{i}].name");
            check_slug(&path, &client.name, "a name", 24)?;
            if names.contains(&client.name) {
                return Err(invalid(
                    path,
                    format!("the name \"{}\" is already taken", client.name),
                ));
            }
            names.push(client.name.clone());
            if let Some(reason) = mismatch(client.access, &self.resource) {
                return Err(invalid(format!("clients[{i}].access"), reason));
            }
        }
        let request = match self.resource {
            ResourceSpec::Register { .. } => Request::Write,
            ResourceSpec::Inventory { .. } => Request::Order,
            ResourceSpec::Payments { .. } => Request::Charge,
        };
        let expiry_notice = match self.lock_service.protocol() {
            Protocol::Session => ExpiryNotice::NextKeepalive,
            Protocol::Single | Protocol::Redlock(_) => ExpiryNotice::Silent,
        };
        Ok(Cast::new(
            names,
            services,
            request,
            expiry_notice,
            self.lock_service.reading(),
        ))
    }

    /// Every name the links, clocks, interventions and expectations use is a node of the cast.
    fn check_references(&self, cast: &Cast) -> Result<(), ScenarioError> {
        for (i, link) in self.network.links.iter().enumerate() {
            cast.resolve(&link.from, &format!("network.links[{i}].from"))?;
            cast.resolve(&link.to, &format!("network.links[{i}].to"))?;
            check_latency(&format!("network.links[{i}].latency_ms"), link.latency_ms)?;
            check_loss(
                &format!("network.links[{i}].loss_per_million"),
                link.loss_per_million,
            )?;
        }
        for (i, clock) in self.clocks.iter().enumerate() {
            cast.resolve(&clock.node, &format!("clocks[{i}].node"))?;
        }
        for (i, intervention) in self.interventions.iter().enumerate() {
            let path = format!("interventions[{i}].do");
            let action = intervention
                .action
                .clone()
                .try_map(|name| cast.resolve(&name, &path))?;
            match action {
                Action::Partition { from, to, .. } | Action::Heal { a: from, b: to }
                    if from == to =>
                {
                    return Err(invalid(path, "a node cannot be cut off from itself"));
                }
                _ => {}
            }
            if intervention.at_ms.0 > self.end_ms.0 {
                return Err(invalid(
                    format!("interventions[{i}].at_ms"),
                    format!(
                        "{} is after the end of the run ({})",
                        intervention.at_ms.0, self.end_ms.0
                    ),
                ));
            }
        }
        for (i, expectation) in self.expectations.iter().enumerate() {
            expectation.validate(cast, &format!("expectations[{i}]"))?;
        }
        Ok(())
    }
}

/// Why a client's access cannot work against the resource, if it cannot.
fn mismatch(access: Access, resource: &ResourceSpec) -> Option<String> {
    if resource.fencing() == Some(Fencing::CheckAndSet)
        && !matches!(
            access,
            Access::ReadModifyWrite {} | Access::OptimisticUpdate { .. }
        )
    {
        return Some(
            "a check_and_set resource is claimed by a read: use read_modify_write".to_owned(),
        );
    }
    let fits = match access {
        Access::ReadModifyWrite {}
        | Access::BlindWrite { .. }
        | Access::OptimisticUpdate { .. } => {
            matches!(resource, ResourceSpec::Register { .. })
        }
        Access::Decrement { .. } => matches!(resource, ResourceSpec::Inventory { .. }),
        Access::Charge { .. } => matches!(resource, ResourceSpec::Payments { .. }),
    };
    let needs = match access {
        Access::ReadModifyWrite {}
        | Access::BlindWrite { .. }
        | Access::OptimisticUpdate { .. } => "register",
        Access::Decrement { .. } => "inventory",
        Access::Charge { .. } => "payments",
    };
    (!fits).then(|| format!("this access needs a resource of kind \"{needs}\""))
}

/// Every citation resolves in the bibliography; no note is blank.
fn check_sources(sources: &[ScenarioSource]) -> Result<(), ScenarioError> {
    for (i, entry) in sources.iter().enumerate() {
        let path = format!("sources[{i}]");
        match entry {
            ScenarioSource::Cited(citation) => check_citations(std::slice::from_ref(citation))
                .map_err(|(_, reason)| invalid(&path, reason.to_string()))?,
            ScenarioSource::Note(text) if text.trim().is_empty() => {
                return Err(invalid(path, "a note must say something"));
            }
            ScenarioSource::Note(_) => {}
        }
    }
    Ok(())
}

/// Ids and names are slugs: 1 to `max_len` lowercase letters, digits or '-' (they appear in
/// links and node lists).
fn check_slug(path: &str, text: &str, what: &str, max_len: usize) -> Result<(), ScenarioError> {
    let fine = !text.is_empty()
        && text.len() <= max_len
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if fine {
        Ok(())
    } else {
        Err(invalid(
            path,
            format!(
                "\"{text}\" is not {what}: use 1 to {max_len} lowercase letters, digits or '-'"
            ),
        ))
    }
}

fn check_latency(path: &str, [min, max]: [u64; 2]) -> Result<(), ScenarioError> {
    if min > max {
        return Err(invalid(
            path,
            format!("the minimum ({min}) is above the maximum ({max})"),
        ));
    }
    if max > MAX_END_MS {
        return Err(invalid(path, format!("{max} ms is longer than any run")));
    }
    Ok(())
}

fn check_loss(path: &str, loss: u32) -> Result<(), ScenarioError> {
    if loss > 1_000_000 {
        return Err(invalid(
            path,
            format!("{loss} is not a probability in parts per million"),
        ));
    }
    Ok(())
}
