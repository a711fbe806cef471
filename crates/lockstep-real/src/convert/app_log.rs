//! An application log of the resource's requests, one logfmt line each (`key=value` pairs):
//! `ts=1764756000123 client=client-a op=write value=1 token=33 took_ms=2 result=accepted`.
//! `ts` is when the request was sent, in Unix milliseconds; `took_ms` how long its answer took
//! (left out when none came); a read has the `value` it read, a write the `value` it wrote, its
//! `token` if it carried one, and its `result` (`accepted` or `refused`).

use super::monitor::LineError;

/// One request the application logged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppLine {
    pub at_ms: u64,
    pub client: String,
    pub op: AppOp,
    pub took_ms: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppOp {
    Read {
        value: Option<i64>,
    },
    Write {
        value: i64,
        token: Option<u64>,
        accepted: Option<bool>,
    },
}

pub fn parse(text: &str) -> Result<Vec<AppLine>, LineError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            line(l).map_err(|reason| LineError {
                line: i + 1,
                reason,
            })
        })
        .collect()
}

fn line(text: &str) -> Result<AppLine, String> {
    let pairs: Vec<(&str, &str)> = text
        .split_whitespace()
        .map(|pair| {
            pair.split_once('=')
                .ok_or(format!("\"{pair}\" is not key=value"))
        })
        .collect::<Result<_, _>>()?;
    let get = |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let number = |key: &str| -> Result<Option<i64>, String> {
        get(key)
            .map(|v| {
                v.parse::<i64>()
                    .map_err(|_| format!("{key}={v} is not a whole number"))
            })
            .transpose()
    };
    let unsigned = |key: &str| -> Result<Option<u64>, String> {
        number(key)?
            .map(|v| u64::try_from(v).map_err(|_| format!("{key} is negative")))
            .transpose()
    };
    let at_ms = unsigned("ts")?.ok_or("no ts=")?;
    let client = get("client").ok_or("no client=")?.to_owned();
    let op = match get("op") {
        Some("read") => AppOp::Read {
            value: number("value")?,
        },
        Some("write") => AppOp::Write {
            value: number("value")?.ok_or("a write needs value=")?,
            token: unsigned("token")?,
            accepted: match get("result") {
                Some("accepted") => Some(true),
                Some("refused") => Some(false),
                None => None,
                Some(other) => return Err(format!("result={other}: accepted or refused")),
            },
        },
        Some(other) => return Err(format!("op={other}: this log has read and write")),
        None => return Err("no op=".to_owned()),
    };
    Ok(AppLine {
        at_ms,
        client,
        op,
        took_ms: unsigned("took_ms")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logfmt_lines_read_as_requests() {
        let lines = parse(
            "ts=1000 client=client-a op=read value=0 took_ms=1\n\
             ts=1500 client=client-a op=write value=1 token=33 took_ms=2 result=refused\n",
        )
        .expect("reads");
        assert_eq!(lines[0].op, AppOp::Read { value: Some(0) });
        assert_eq!(
            lines[1].op,
            AppOp::Write {
                value: 1,
                token: Some(33),
                accepted: Some(false)
            }
        );
        assert_eq!(
            parse("ts=1 client=a op=write").map_err(|e| e.to_string()),
            Err("line 1: a write needs value=".to_owned())
        );
    }
}
