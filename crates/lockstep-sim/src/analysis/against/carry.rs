//! Carrying one intervention from run A onto service B by role: what each node it names *is* in
//! A at its moment, and which of B's nodes plays that role in B at the same moment. Where B has
//! no node in that role, the result says why in words a learner reads. Pairs stay pairs: a
//! resume, restart, heal or release goes to the node (or link, or message) its pause, crash,
//! partition or hold went to, even if the roles have moved since. This module decides one
//! intervention given both runs' states; it must not run the simulations (see `twin`).

use super::role::{GrantsHolder, ServiceRole, ServiceView, Target, target};
use crate::analysis::chaos::ChaosBackend;
use crate::engine::sim::Sim;
use crate::vocabulary::happening::Direction;
use crate::world::ids::MessageId;
use crate::world::intervention::{Action, Intervention};
use crate::world::time::VirtualTime;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One of A's interventions, with the roles of the nodes it names and what became of it on B.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carried {
    /// The intervention as A's run applies it.
    pub on_a: Intervention<String>,
    /// What each node the intervention names was in A at its moment (for a message: its sender,
    /// then its receiver). Empty for actions that name no node.
    pub roles: Vec<Target>,
    pub onto_b: Carry,
    /// What each node the carried intervention names is in B at the same moment, in the same
    /// order as `roles` (empty when it has no counterpart or names no node).
    pub roles_b: Vec<Target>,
}

/// What an intervention became on service B.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "carry")]
pub enum Carry {
    /// B's run applies this intervention at the same moment.
    Mapped { intervention: Intervention<String> },
    /// B has no counterpart: the twin runs without it, for this reason.
    NoCounterpart { reason: String },
}

impl Carried {
    pub fn is_mapped(&self) -> bool {
        matches!(self.onto_b, Carry::Mapped { .. })
    }
}

/// The two runs at one intervention's moment, and what the earlier interventions became.
pub struct Moment<'a> {
    pub at: VirtualTime,
    pub a: &'a Sim,
    pub a_view: &'a ServiceView,
    pub b: &'a Sim,
    pub b_view: &'a ServiceView,
    pub service_b: ChaosBackend,
}

/// What earlier interventions were carried to, so that their second halves follow them.
#[derive(Default)]
pub struct Pairs {
    paused: BTreeMap<String, Result<String, String>>,
    crashed: BTreeMap<String, Result<String, String>>,
    cut: BTreeMap<(String, String), LinkCarry>,
    held: BTreeMap<MessageId, Result<MessageId, String>>,
    /// Which node of B each of A's minority nodes went to: distinct nodes of A stay distinct in
    /// B while B has nodes to spare, so that "cut off from D and E" stays two nodes.
    assigned: BTreeMap<String, String>,
}

/// A node carried over: its role in A and its name in B, or why B has none.
pub type NodeCarry = (Option<Target>, Result<String, String>);

impl Pairs {
    /// Carries one intervention, remembering what it became for its pair.
    pub fn carry(&mut self, moment: &Moment<'_>, on_a: &Intervention<String>) -> Carried {
        let verb = verb(&on_a.action);
        let (roles, action): Mapped = match &on_a.action {
            Action::Pause { node: n, for_ms } => {
                let (role, b) = node_onto(moment, n, verb, &mut self.assigned);
                self.paused.insert(n.clone(), b.clone());
                (
                    vec![role],
                    b.map(|node| Action::Pause {
                        node,
                        for_ms: *for_ms,
                    }),
                )
            }
            Action::Resume { node: n } => {
                let (role, b) = follow(self.paused.get(n), "pause", || {
                    node_onto(moment, n, verb, &mut self.assigned)
                });
                (vec![role], b.map(|node| Action::Resume { node }))
            }
            Action::Crash { node: n } => {
                let (role, b) = node_onto(moment, n, verb, &mut self.assigned);
                self.crashed.insert(n.clone(), b.clone());
                (vec![role], b.map(|node| Action::Crash { node }))
            }
            Action::Restart { node: n } => {
                let (role, b) = follow(self.crashed.get(n), "crash", || {
                    node_onto(moment, n, verb, &mut self.assigned)
                });
                (vec![role], b.map(|node| Action::Restart { node }))
            }
            Action::ClockJump { node: n, by_ms } => {
                let (role, b) = node_onto(moment, n, verb, &mut self.assigned);
                (
                    vec![role],
                    b.map(|node| Action::ClockJump {
                        node,
                        by_ms: *by_ms,
                    }),
                )
            }
            Action::ClockDrift { node: n, drift_ppm } => {
                let (role, b) = node_onto(moment, n, verb, &mut self.assigned);
                let drift_ppm = *drift_ppm;
                (
                    vec![role],
                    b.map(|node| Action::ClockDrift { node, drift_ppm }),
                )
            }
            Action::Partition {
                from,
                to,
                direction,
            } => self.carry_partition(moment, from, to, *direction, verb),
            Action::Heal { a, b } => self.carry_heal(moment, a, b, verb),
            Action::Hold { message } => {
                let (roles, b) = message_onto(moment, *message, verb, &mut self.assigned);
                self.held.insert(*message, b.clone());
                (roles, b.map(|message| Action::Hold { message }))
            }
            Action::Release { message } | Action::Drop { message } => {
                let release = matches!(on_a.action, Action::Release { .. });
                self.carry_held(moment, *message, release, verb)
            }
            // The service's current lease ends wherever the service keeps it: every design
            // has a current lease, so this carries as it is.
            Action::ForceExpire {} => (Vec::new(), Ok(Action::ForceExpire {})),
            Action::Failover {} => (Vec::new(), failover_onto(moment)),
        };
        carried(moment, on_a, roles, action)
    }

    /// A cut link: carried onto B's nodes for the roles they play in A, and remembered for the
    /// heal.
    fn carry_partition(
        &mut self,
        moment: &Moment<'_>,
        from: &str,
        to: &str,
        direction: Direction,
        verb: &str,
    ) -> Mapped {
        let (roles, link) = link_onto(moment, from, to, verb, &mut self.assigned);
        self.cut.insert(link_key(from, to), link.clone());
        (
            roles,
            link.map(|(from, to)| Action::Partition {
                from,
                to,
                direction,
            }),
        )
    }

    /// A heal: the link its partition was carried onto, or, healing a link never cut here,
    /// carried on its own.
    fn carry_heal(&mut self, moment: &Moment<'_>, a: &str, b: &str, verb: &str) -> Mapped {
        match self.cut.get(&link_key(a, b)) {
            Some(earlier) => (
                vec![target_in_a(moment, a), target_in_a(moment, b)],
                earlier
                    .clone()
                    .map_err(|_| unpaired("partition"))
                    .map(|(x, y)| heal_as(a, b, x, y)),
            ),
            None => {
                let (roles, link) = link_onto(moment, a, b, verb, &mut self.assigned);
                (roles, link.map(|(a, b)| Action::Heal { a, b }))
            }
        }
    }

    /// A release or drop of a held message: the message its hold was carried onto, or, for a
    /// message not held here, carried on its own.
    fn carry_held(
        &mut self,
        moment: &Moment<'_>,
        message: MessageId,
        release: bool,
        verb: &str,
    ) -> Mapped {
        let (roles, b) = match self.held.get(&message) {
            Some(earlier) => (
                message_roles(moment, message),
                earlier.clone().map_err(|_| unpaired("hold")),
            ),
            None => message_onto(moment, message, verb, &mut self.assigned),
        };
        (
            roles,
            b.map(|message| {
                if release {
                    Action::Release { message }
                } else {
                    Action::Drop { message }
                }
            }),
        )
    }
}

/// What one intervention became on B: the roles it touched in A, and B's action or why B has
/// none.
type Mapped = (Vec<Option<Target>>, Result<Action<String>, String>);

/// Promoting a standby by hand only exists where there is a standby: the replicated cache
/// (Redis docs, "Why failover-based implementations are not enough"). A consensus service
/// changes leaders by election (Raft §5.2), not by an operator's promotion.
fn failover_onto(moment: &Moment<'_>) -> Result<Action<String>, String> {
    if moment.service_b == ChaosBackend::ReplicatedCache {
        Ok(Action::Failover {})
    } else {
        Err(format!(
            "{} has no standby replica to promote: the twin runs without it",
            sentence_name(moment.service_b)
        ))
    }
}

/// The record of one carried intervention, with the roles its action touches in B.
fn carried(
    moment: &Moment<'_>,
    on_a: &Intervention<String>,
    roles: Vec<Option<Target>>,
    action: Result<Action<String>, String>,
) -> Carried {
    let roles_b = match &action {
        Ok(action) => roles_in_b(moment, action),
        Err(_) => Vec::new(),
    };
    Carried {
        on_a: on_a.clone(),
        roles: roles.into_iter().flatten().collect(),
        roles_b,
        onto_b: match action {
            Ok(action) => Carry::Mapped {
                intervention: Intervention {
                    at_ms: on_a.at_ms,
                    action,
                },
            },
            Err(reason) => Carry::NoCounterpart { reason },
        },
    }
}

/// What the nodes a carried action names are in B (a message: its sender and receiver).
fn roles_in_b(moment: &Moment<'_>, action: &Action<String>) -> Vec<Target> {
    let b = moment.b;
    let named = |name: &str| target(b, moment.b_view, name);
    match action {
        Action::Hold { message } | Action::Release { message } | Action::Drop { message } => b
            .network()
            .message(*message)
            .map(|m| [b.cast().name(m.from), b.cast().name(m.to)])
            .into_iter()
            .flatten()
            .filter_map(named)
            .collect(),
        _ => {
            let mut roles = Vec::new();
            let _ = action.clone().try_map(|name| {
                roles.extend(named(&name));
                Ok::<(), ()>(())
            });
            roles
        }
    }
}

/// The heal of the link that the partition of `x`–`y` cut in B, named in the heal's own order.
fn heal_as(a: &str, b: &str, x: String, y: String) -> Action<String> {
    if link_key(a, b) == (a.to_owned(), b.to_owned()) {
        Action::Heal { a: x, b: y }
    } else {
        Action::Heal { a: y, b: x }
    }
}

fn link_key(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_owned(), b.to_owned())
    } else {
        (b.to_owned(), a.to_owned())
    }
}

/// The second half of a pair goes where the first half went; with no first half, it is carried
/// by its own role.
fn follow(
    earlier: Option<&Result<String, String>>,
    first_half: &str,
    fresh: impl FnOnce() -> NodeCarry,
) -> NodeCarry {
    match earlier {
        Some(Ok(node)) => (fresh().0, Ok(node.clone())),
        Some(Err(_)) => (fresh().0, Err(unpaired(first_half))),
        None => fresh(),
    }
}

fn unpaired(first_half: &str) -> String {
    format!("the {first_half} it ends had no counterpart: the twin runs without it")
}

fn target_in_a(moment: &Moment<'_>, name: &str) -> Option<Target> {
    target(moment.a, moment.a_view, name)
}

/// One node carried over by its role at the moment.
pub fn node_onto(
    moment: &Moment<'_>,
    name: &str,
    verb: &str,
    assigned: &mut BTreeMap<String, String>,
) -> NodeCarry {
    let Some(role) = target_in_a(moment, name) else {
        return (
            None,
            Err(format!("\"{name}\" is not a node of the scenario")),
        );
    };
    let b = match &role {
        Target::Client { name } => Ok(name.clone()),
        Target::Resource => Ok(crate::scenario::types::RESOURCE_NAME.to_owned()),
        Target::Service { role } => pick(moment, *role, verb, name, assigned),
    };
    (Some(role), b)
}

/// A link's two ends in B, or why B has no such link.
type LinkCarry = Result<(String, String), String>;

/// Both ends of a link carried over; a link whose ends land on one node of B has no counterpart.
fn link_onto(
    moment: &Moment<'_>,
    from: &str,
    to: &str,
    verb: &str,
    assigned: &mut BTreeMap<String, String>,
) -> (Vec<Option<Target>>, LinkCarry) {
    let (from_role, from_b) = node_onto(moment, from, verb, assigned);
    let (to_role, to_b) = node_onto(moment, to, verb, assigned);
    let link = from_b.and_then(|from_b| {
        to_b.and_then(|to_b| {
            if from_b == to_b {
                Err(format!(
                    "{} has no link between two of its nodes in these roles to {verb}: the twin \
                     runs without it",
                    sentence_name(moment.service_b)
                ))
            } else {
                Ok((from_b, to_b))
            }
        })
    });
    (vec![from_role, to_role], link)
}

fn message_roles(moment: &Moment<'_>, message: MessageId) -> Vec<Option<Target>> {
    match moment.a.network().message(message) {
        Some(record) => vec![
            target_in_a(moment, moment.a.cast().name(record.from)),
            target_in_a(moment, moment.a.cast().name(record.to)),
        ],
        None => Vec::new(),
    }
}

/// A message is particular to one run: it is carried as the first message of the same kind in
/// flight in B at the moment between the nodes in the same roles.
fn message_onto(
    moment: &Moment<'_>,
    message: MessageId,
    verb: &str,
    assigned: &mut BTreeMap<String, String>,
) -> (Vec<Option<Target>>, Result<MessageId, String>) {
    let Some(record) = moment.a.network().message(message) else {
        return (
            Vec::new(),
            Err(format!(
                "message {} has not been sent at {} ms: the twin runs without it",
                message.0, moment.at.0
            )),
        );
    };
    let from = moment.a.cast().name(record.from).to_owned();
    let to = moment.a.cast().name(record.to).to_owned();
    let label = record.payload.label();
    let (roles, link) = link_onto(moment, &from, &to, verb, assigned);
    let found = link.and_then(|(from_b, to_b)| {
        let cast = moment.b.cast();
        moment
            .b
            .network()
            .in_flight()
            .find(|m| {
                cast.name(m.from) == from_b && cast.name(m.to) == to_b && m.payload.label() == label
            })
            .map(|m| m.id)
            .ok_or_else(|| {
                format!(
                    "{} has no \"{label}\" message from {from_b} to {to_b} in flight at {} ms to \
                     {verb}: the twin runs without it",
                    sentence_name(moment.service_b),
                    moment.at.0
                )
            })
    });
    (roles, found)
}

/// B's node in `role` at the moment, or why there is none.
///
/// - The node that answers for the whole service maps to B's: the only node, the primary, the
///   leader. Where B has none (Redlock's and a grid's nodes are equals; a consensus service
///   between leaders), a node that granted the holder stands in when A's node had granted the
///   holder too — "the node the holder was granted by" is what the learner aimed at.
/// - A minority maps to a node of B that is not its front, preferring one that did (or did not)
///   grant the holder as A's did. Kleppmann's clock jump (2016, "Breaking Redlock with bad
///   timings") strikes node C, one of the five, which granted client 1; the issue is that two
///   majorities overlap in one node. On a consensus service the counterpart is a follower: a
///   grant counts once a majority has it in the log (Raft §5.3), so one follower does not decide
///   a lease. On the replicated cache it is the standby (Redis docs, "Why failover-based
///   implementations are not enough": the replica is the node that has not yet seen the grant).
///   A single SQL row or cache node has no such part.
///
/// Among B's candidates for a minority, A's node keeps the B node it was given before if it is
/// still one; otherwise it takes one no other node of A was given, so that "cut off from D and
/// E" stays two nodes where B has two to spare (with none to spare, it shares one).
fn pick(
    moment: &Moment<'_>,
    role: ServiceRole,
    verb: &str,
    a_node: &str,
    assigned: &mut BTreeMap<String, String>,
) -> Result<String, String> {
    let view = moment.b_view;
    let name = |node| moment.b.cast().name(node).to_owned();
    match role {
        ServiceRole::Front { grants_holder } => match (view.front, view.grantors.first()) {
            (Some(front), _) => Ok(name(front)),
            (None, Some(&grantor)) if grants_holder == GrantsHolder::Yes => Ok(name(grantor)),
            (None, _) => Err(format!(
                "{} has no node that answers for the whole service (no primary or leader) at {} \
                 ms to {verb}, and no holder's granting node to stand in: the twin runs without it",
                sentence_name(moment.service_b),
                moment.at.0
            )),
        },
        ServiceRole::Minority { grants_holder } => {
            if view.nodes.len() < 2 {
                return Err(format!(
                    "{} has no minority of nodes to {verb}: the twin runs without it",
                    sentence_name(moment.service_b)
                ));
            }
            // Nodes in the same role first, then the others; the front never.
            let mut candidates: Vec<String> = view
                .nodes
                .iter()
                .copied()
                .filter(|&node| Some(node) != view.front)
                .filter(|&node| view.grants(node) == grants_holder)
                .map(name)
                .collect();
            candidates.extend(
                view.nodes
                    .iter()
                    .copied()
                    .filter(|&node| Some(node) != view.front)
                    .filter(|&node| view.grants(node) != grants_holder)
                    .map(name),
            );
            let kept = assigned
                .get(a_node)
                .filter(|earlier| candidates.contains(earlier))
                .cloned();
            let taken = |c: &String| assigned.iter().any(|(a, b)| b == c && a != a_node);
            let chosen = kept
                .or_else(|| candidates.iter().find(|c| !taken(c)).cloned())
                .or_else(|| candidates.first().cloned())
                .ok_or_else(|| {
                    format!(
                        "{} has no node besides its front to {verb}: the twin runs without it",
                        sentence_name(moment.service_b)
                    )
                })?;
            assigned.insert(a_node.to_owned(), chosen.clone());
            Ok(chosen)
        }
    }
}

/// What the action does to its target, as the end of "has no … to ___".
fn verb(action: &Action<String>) -> &'static str {
    match action {
        Action::Pause { .. } => "pause",
        Action::Resume { .. } => "resume",
        Action::Crash { .. } => "crash",
        Action::Restart { .. } => "restart",
        Action::ClockJump { .. } => "jump a clock on",
        Action::ClockDrift { .. } => "drift a clock on",
        Action::Partition { .. } => "cut off",
        Action::Heal { .. } => "heal",
        Action::Hold { .. } => "hold",
        Action::Release { .. } => "release",
        Action::Drop { .. } => "drop",
        Action::ForceExpire {} => "expire",
        Action::Failover {} => "promote",
    }
}

/// The service as the subject of a sentence.
pub fn sentence_name(service: ChaosBackend) -> &'static str {
    match service {
        ChaosBackend::SqlRow => "a single SQL row",
        ChaosBackend::Cache => "a single cache node",
        ChaosBackend::ReplicatedCache => "a replicated cache",
        ChaosBackend::DataGrid => "a data grid",
        ChaosBackend::Redlock => "Redlock",
        ChaosBackend::Consensus => "a consensus service",
    }
}
