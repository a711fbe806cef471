//! A three-member etcd cluster for one run: Debian's `etcd` of the release the plan says, each
//! member on two free loopback
//! ports (clients, peers), in a data directory of its own under the system's temporary
//! directory, all stopped and the directories removed when the value is dropped.
//!
//! The members beat every 10 ms and call an election after 100 ms of silence, so that a lease
//! of one second (the scenarios' shortest) is granted: etcd refuses TTLs under 1.5 election
//! timeouts. A lease that runs out is revoked by the leader's check, every 500 ms in etcd 3.4.

use super::EtcdRelease;
use super::gateway::{Gateway, encoded};
use crate::server::{ServerError, Stopped, free_port, io, signal, version_said};
use serde_json::json;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

const READY_WITHIN: Duration = Duration::from_secs(15);
/// Numbers the clusters of this process, for their directories' names.
static STARTED: AtomicU32 = AtomicU32::new(0);

struct Member {
    name: String,
    client_port: u16,
    process: Child,
}

pub struct EtcdCluster {
    members: Vec<Member>,
    program: PathBuf,
    dir: PathBuf,
    /// "etcd 3.4.23, a cluster of 3 members", from `etcd --version`.
    pub version: String,
}

impl EtcdCluster {
    /// A cluster of one member per name (the scenario's replicas), ready when a linearizable
    /// read through the first member's gateway is answered (a leader is elected).
    pub fn start(names: &[String], release: EtcdRelease) -> Result<EtcdCluster, ServerError> {
        let program = release.installed()?;
        let dir = std::env::temp_dir().join(format!(
            "lockstep-etcd-{}-{}",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        ));
        fs::create_dir_all(&dir).map_err(|e| io("create the cluster's directory", &e))?;
        let ports = names
            .iter()
            .map(|_| Ok((free_port()?, free_port()?)))
            .collect::<Result<Vec<_>, ServerError>>()?;
        let initial: Vec<String> = names
            .iter()
            .zip(&ports)
            .map(|(name, (_, peer))| format!("{name}=http://127.0.0.1:{peer}"))
            .collect();
        let mut cluster = EtcdCluster {
            members: Vec::new(),
            version: format!(
                "{}, a cluster of {} members",
                version(&program),
                names.len()
            ),
            program,
            dir,
        };
        for (name, &(client_port, peer_port)) in names.iter().zip(&ports) {
            let process = cluster.spawn(name, client_port, peer_port, &initial.join(","))?;
            cluster.members.push(Member {
                name: name.clone(),
                client_port,
                process,
            });
        }
        cluster.wait_until_ready()?;
        Ok(cluster)
    }

    fn spawn(
        &self,
        name: &str,
        client_port: u16,
        peer_port: u16,
        initial_cluster: &str,
    ) -> Result<Child, ServerError> {
        let client_url = format!("http://127.0.0.1:{client_port}");
        let peer_url = format!("http://127.0.0.1:{peer_port}");
        let log = fs::File::create(self.dir.join(format!("{name}.log")))
            .map_err(|e| io("create a member's log", &e))?;
        Command::new(&self.program)
            .arg("--name")
            .arg(name)
            .arg("--data-dir")
            .arg(self.dir.join(name))
            .args(["--listen-client-urls", &client_url])
            .args(["--advertise-client-urls", &client_url])
            .args(["--listen-peer-urls", &peer_url])
            .args(["--initial-advertise-peer-urls", &peer_url])
            .args(["--initial-cluster", initial_cluster])
            .args(["--initial-cluster-state", "new"])
            .args(["--heartbeat-interval", "10", "--election-timeout", "100"])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| io("start etcd", &e))
    }

    /// Stops member `name`'s process, or lets it go on.
    pub fn stop(&self, name: &str, stopped: Stopped) -> Result<(), ServerError> {
        let member = self
            .members
            .iter()
            .find(|m| m.name == name)
            .ok_or_else(|| ServerError::NoNode(name.to_owned()))?;
        signal(&member.process, stopped)
    }

    /// Each member's name and client port, the first member first.
    pub fn members(&self) -> impl Iterator<Item = (&str, u16)> {
        self.members
            .iter()
            .map(|m| (m.name.as_str(), m.client_port))
    }

    fn wait_until_ready(&self) -> Result<(), ServerError> {
        let first = Gateway::at(self.members.first().map_or(0, |m| m.client_port));
        let deadline = Instant::now() + READY_WITHIN;
        let ask = json!({ "key": encoded(b"lockstep-ready") });
        let mut ready = false;
        while !ready && Instant::now() < deadline {
            ready = first
                .post("/v3/kv/range", &ask, Some(Duration::from_secs(1)))
                .is_ok();
            if !ready {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        if ready {
            return Ok(());
        }
        let log = fs::read_to_string(self.dir.join(format!(
            "{}.log",
            self.members.first().map_or("", |m| m.name.as_str())
        )))
        .unwrap_or_default();
        let tail: Vec<&str> = log.lines().rev().take(3).collect();
        Err(ServerError::NotReady {
            server: "etcd",
            log: tail.join(" / "),
        })
    }
}

impl Drop for EtcdCluster {
    fn drop(&mut self) {
        for member in &mut self.members {
            let _ = member.process.kill();
            let _ = member.process.wait();
        }
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// "etcd 3.4.23", from "etcd Version: 3.4.23".
fn version(program: &Path) -> String {
    let said = version_said(program);
    let number = said
        .lines()
        .find_map(|line| line.strip_prefix("etcd Version: "))
        .unwrap_or("(version unknown)");
    format!("etcd {}", number.trim())
}
