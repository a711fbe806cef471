//! An HTTP/1.1 request as [`crate::static_files`] reads it: the request line and the headers
//! it acts on (the encodings accepted, the ETags the client holds, the connection's end). Only what a static server of GET and HEAD needs: a body, should one come,
//! is not read (and the connection ends with the answer).

use std::io::{self, BufRead};

pub struct Request {
    pub method: String,
    /// The request target as sent, query included.
    pub target: String,
    /// The client accepts a gzipped answer.
    pub accepts_gzip: bool,
    /// The client accepts an answer in brotli.
    pub accepts_br: bool,
    /// `If-None-Match` as sent: the ETags of the copies the client holds, or `*`.
    pub if_none_match: Option<String>,
    /// The connection ends after the answer: the client asked so, speaks HTTP/1.0, or sent a body.
    pub close: bool,
}

impl Request {
    /// The next request on a connection, or `None` once the client has closed it.
    pub fn read(reader: &mut impl BufRead) -> io::Result<Option<Request>> {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let mut words = line.split_whitespace();
        let method = words.next().unwrap_or("").to_owned();
        let target = words.next().unwrap_or("/").to_owned();
        let mut request = Request {
            method,
            target,
            accepts_gzip: false,
            accepts_br: false,
            if_none_match: None,
            close: words.next() != Some("HTTP/1.1"),
        };
        loop {
            line.clear();
            if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
                return Ok(Some(request));
            }
            request.header(&line);
        }
    }

    /// Notes what a header line changes.
    fn header(&mut self, line: &str) {
        let Some((name, value)) = line.split_once(':') else {
            return;
        };
        // ETags are compared as sent: only they keep their case.
        let raw = value.trim();
        let value = raw.to_ascii_lowercase();
        match name.trim().to_ascii_lowercase().as_str() {
            "accept-encoding" => {
                self.accepts_gzip = accepts(&value, "gzip");
                self.accepts_br = accepts(&value, "br");
            }
            "if-none-match" => self.if_none_match = Some(raw.to_owned()),
            "connection" => self.close |= value == "close",
            "content-length" => self.close |= value != "0",
            "transfer-encoding" => self.close = true,
            _ => {}
        }
    }

    /// Whether `If-None-Match` names `etag` (weakly, as RFC 9110 compares for it) or is `*`.
    pub fn holds(&self, etag: &str) -> bool {
        let Some(tags) = &self.if_none_match else {
            return false;
        };
        let etag = etag.trim_start_matches("W/");
        tags.split(',')
            .map(str::trim)
            .any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag)
    }

    /// The target's path: without its query or fragment.
    pub fn path(&self) -> &str {
        self.target.split(['?', '#']).next().unwrap_or("")
    }
}

/// Whether a lower-cased `Accept-Encoding` value lists `coding`, and not with `q=0` (refused).
fn accepts(value: &str, coding: &str) -> bool {
    value.split(',').any(|item| {
        let mut parts = item.split(';').map(str::trim);
        parts.next() == Some(coding)
            && !parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_requests_in_turn_and_the_headers_that_matter() -> io::Result<()> {
        let mut wire = io::Cursor::new(
            "GET /a/b.js?x=1 HTTP/1.1\r\nAccept-Encoding: br, GZIP;q=0.5\r\n\r\n\
             HEAD / HTTP/1.1\r\nConnection: close\r\n\r\n",
        );
        let first = Request::read(&mut wire)?.ok_or(io::ErrorKind::UnexpectedEof)?;
        assert_eq!(
            (
                first.method.as_str(),
                first.path(),
                first.accepts_gzip,
                first.close
            ),
            ("GET", "/a/b.js", true, false)
        );
        let second = Request::read(&mut wire)?.ok_or(io::ErrorKind::UnexpectedEof)?;
        assert_eq!(
            (second.method.as_str(), second.accepts_gzip, second.close),
            ("HEAD", false, true)
        );
        assert!(first.accepts_br && !second.accepts_br);
        assert!(Request::read(&mut wire)?.is_none());
        let old = Request::read(&mut io::Cursor::new("GET / HTTP/1.0\r\n\r\n"))?;
        assert!(old.is_some_and(|request| request.close));
        Ok(())
    }

    #[test]
    fn a_refused_encoding_is_not_accepted_and_etags_keep_their_case() -> io::Result<()> {
        let mut wire = io::Cursor::new(
            "GET / HTTP/1.1\r\nAccept-Encoding: gzip;q=0, br;q=0.1\r\n\
             If-None-Match: \"Ab-1\", W/\"cd-2\"\r\n\r\n",
        );
        let request = Request::read(&mut wire)?.ok_or(io::ErrorKind::UnexpectedEof)?;
        assert!(!request.accepts_gzip && request.accepts_br);
        assert!(request.holds("\"Ab-1\"") && request.holds("\"cd-2\""));
        assert!(!request.holds("\"ab-1\"") && !request.holds("\"cd-3\""));
        Ok(())
    }
}
