//! etcd's JSON gateway, as the clients here speak to it: one `POST` of a JSON body to a
//! `/v3/…` path of one member (or of the link in front of it), answered by one JSON value. The
//! gateway is etcd's own translation of its gRPC API (`/v3/lease/grant`, `/v3/lease/keepalive`,
//! `/v3/lock/lock`, `/v3/lock/unlock`, `/v3/kv/range`), served by both releases the runs use
//! (3.4.23 and 3.5.16): keys and names travel base64-encoded, 64-bit integers as strings.
//!
//! Why the gateway and not gRPC: a gRPC client (`etcd-client`) needs `protoc` to build and an
//! async runtime to run; this needs neither, only a small blocking HTTP client without TLS.
//! What this must not do: retry, or send anything the caller did not ask for (a retried
//! request is a request the client did not make, and the recording would not show it).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;
use thiserror::Error;

/// One member's gateway, at a loopback port (a link's, which partitions cut).
pub struct Gateway {
    agent: ureq::Agent,
    base: String,
}

/// Why a request got no answer that the caller can use.
#[derive(Debug, Error)]
pub enum GatewayError {
    /// Nothing came back within the request's time.
    #[error("no answer within {} ms", within.as_millis())]
    NoAnswer { within: Duration },
    /// The connection failed (refused, reset, closed before the answer).
    #[error("etcd {path}: {why}")]
    Transport {
        path: &'static str,
        why: ureq::Error,
    },
    /// etcd answered with an error: its words as the gateway sent them (the gRPC error's
    /// message among them, such as "mutex: session is expired").
    #[error("etcd {path} answered {status}: {}", body.trim())]
    Refused {
        path: &'static str,
        status: u16,
        body: String,
    },
    /// The answer was not the JSON the API documents.
    #[error("etcd {path} answered what is not its API's JSON: {why}")]
    Unreadable { path: &'static str, why: String },
}

impl Gateway {
    /// The gateway of the member (or link) listening on loopback `port`.
    pub fn at(port: u16) -> Gateway {
        let agent = ureq::Agent::config_builder()
            // etcd's errors come with a status and a JSON body that says why: read them.
            .http_status_as_error(false)
            .build()
            .into();
        Gateway {
            agent,
            base: format!("http://127.0.0.1:{port}"),
        }
    }

    /// POSTs `body` to `path` and reads the answer, waiting `timeout` at most (for ever with
    /// none, as a client without a timeout of its own waits). The wait ends on time: the
    /// request goes out on a thread of its own, given up when `timeout` passes (its own
    /// timeout, ureq's, ends the thread later), because ureq's own timeout can end tens of
    /// milliseconds late, and a keepalive that outlives its TTL/3 by that much sends the
    /// next one late.
    pub fn post(
        &self,
        path: &'static str,
        body: &Value,
        timeout: Option<Duration>,
    ) -> Result<Value, GatewayError> {
        let Some(within) = timeout else {
            return self.exchange(path, body, None);
        };
        let (sender, answer) = mpsc::channel();
        let gateway = self.another();
        let body = body.clone();
        thread::spawn(move || {
            let _ = sender.send(gateway.exchange(path, &body, Some(within)));
        });
        answer
            .recv_timeout(within)
            .unwrap_or(Err(GatewayError::NoAnswer { within }))
    }

    /// One request and its answer, as ureq makes them.
    fn exchange(
        &self,
        path: &'static str,
        body: &Value,
        timeout: Option<Duration>,
    ) -> Result<Value, GatewayError> {
        let mut answer = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .config()
            .timeout_global(timeout)
            .build()
            .send(body.to_string())
            .map_err(|e| failed(path, timeout, e))?;
        let status = answer.status().as_u16();
        let text = answer
            .body_mut()
            .read_to_string()
            .map_err(|e| failed(path, timeout, e))?;
        let value: Value = serde_json::from_str(&text).map_err(|e| GatewayError::Unreadable {
            path,
            why: e.to_string(),
        })?;
        // A streaming call (keepalive) carries an error inside a 200 as `{"error": …}`.
        if !(200..300).contains(&status) || value.get("error").is_some_and(Value::is_object) {
            return Err(GatewayError::Refused {
                path,
                status,
                body: text,
            });
        }
        Ok(value)
    }

    /// The same gateway for another thread (a request that waits while this one goes on).
    pub fn another(&self) -> Gateway {
        Gateway {
            agent: self.agent.clone(),
            base: self.base.clone(),
        }
    }
}

fn failed(path: &'static str, timeout: Option<Duration>, error: ureq::Error) -> GatewayError {
    match (error, timeout) {
        (ureq::Error::Timeout(_), Some(within)) => GatewayError::NoAnswer { within },
        (why, _) => GatewayError::Transport { path, why },
    }
}

/// How the gateway carries a key or a name.
pub fn encoded(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// A key as the gateway carried it (base64), as text.
pub fn decoded(field: &'static str, answer: &Value) -> Result<String, GatewayError> {
    let text = answer
        .get(field)
        .and_then(Value::as_str)
        .unwrap_or_default();
    let bytes = STANDARD
        .decode(text)
        .map_err(|e| GatewayError::Unreadable {
            path: field,
            why: e.to_string(),
        })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A 64-bit integer the gateway sent as a string (or left out, when it is 0).
pub fn integer(value: Option<&Value>) -> Option<i64> {
    match value? {
        Value::String(text) => text.parse().ok(),
        other => other.as_i64(),
    }
}
