//! An HTTP/1.1 request as [`crate::static_files`] reads it: the request line and the two
//! headers it acts on. Only what a static server of GET and HEAD needs: a body, should one come,
//! is not read (and the connection ends with the answer).

use std::io::{self, BufRead};

pub struct Request {
    pub method: String,
    /// The request target as sent, query included.
    pub target: String,
    /// The client accepts a gzipped answer.
    pub accepts_gzip: bool,
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
        let value = value.trim().to_ascii_lowercase();
        match name.trim().to_ascii_lowercase().as_str() {
            "accept-encoding" => {
                self.accepts_gzip = value
                    .split(',')
                    .any(|coding| coding.split(';').next().map(str::trim) == Some("gzip"));
            }
            "connection" => self.close |= value == "close",
            "content-length" => self.close |= value != "0",
            "transfer-encoding" => self.close = true,
            _ => {}
        }
    }

    /// The target's path: without its query or fragment.
    pub fn path(&self) -> &str {
        self.target.split(['?', '#']).next().unwrap_or("")
    }
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
        assert!(Request::read(&mut wire)?.is_none());
        let old = Request::read(&mut io::Cursor::new("GET / HTTP/1.0\r\n\r\n"))?;
        assert!(old.is_some_and(|request| request.close));
        Ok(())
    }
}
