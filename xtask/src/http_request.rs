//! What a request asks of [`crate::static_files`], read from the request that `tiny_http` has
//! parsed: its method and path, the encodings it accepts and the ETags of the copies it holds.
//! Only the meaning of those few headers is ours; it must not parse HTTP itself (the request
//! line, the headers, the connection and its keep-alive are `tiny_http`'s).

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
}

impl Request {
    /// What `request` asks.
    pub fn of(request: &tiny_http::Request) -> Request {
        let headers = request
            .headers()
            .iter()
            .map(|header| (header.field.as_str().as_str(), header.value.as_str()));
        Request::new(request.method().as_str(), request.url(), headers)
    }

    /// A request for `target` by `method` with `headers` (name, value): the headers it does not
    /// act on are ignored.
    pub fn new<'a>(
        method: &str,
        target: &str,
        headers: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Request {
        let mut request = Request {
            method: method.to_owned(),
            target: target.to_owned(),
            accepts_gzip: false,
            accepts_br: false,
            if_none_match: None,
        };
        for (name, value) in headers {
            // ETags are compared as sent: only they keep their case.
            let raw = value.trim();
            match name.trim().to_ascii_lowercase().as_str() {
                "accept-encoding" => {
                    let value = raw.to_ascii_lowercase();
                    request.accepts_gzip = accepts(&value, "gzip");
                    request.accepts_br = accepts(&value, "br");
                }
                "if-none-match" => request.if_none_match = Some(raw.to_owned()),
                _ => {}
            }
        }
        request
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
    fn reads_the_path_and_the_headers_that_matter() {
        let first = Request::new(
            "GET",
            "/a/b.js?x=1",
            [("Accept-Encoding", "br, GZIP;q=0.5"), ("X-Other", "gzip")],
        );
        assert_eq!(
            (first.method.as_str(), first.path(), first.accepts_gzip),
            ("GET", "/a/b.js", true)
        );
        let second = Request::new("HEAD", "/#top", [("connection", "close")]);
        assert_eq!(
            (second.method.as_str(), second.path(), second.accepts_gzip),
            ("HEAD", "/", false)
        );
        assert!(first.accepts_br && !second.accepts_br);
    }

    #[test]
    fn a_refused_encoding_is_not_accepted_and_etags_keep_their_case() {
        let request = Request::new(
            "GET",
            "/",
            [
                ("accept-encoding", "gzip;q=0, br;q=0.1"),
                ("If-None-Match", " \"Ab-1\", W/\"cd-2\""),
            ],
        );
        assert!(!request.accepts_gzip && request.accepts_br);
        assert!(request.holds("\"Ab-1\"") && request.holds("\"cd-2\""));
        assert!(!request.holds("\"ab-1\"") && !request.holds("\"cd-3\""));
        let any = Request::new("GET", "/", [("If-None-Match", "*")]);
        assert!(any.holds("\"x\"") && !request.holds("\"x\""));
    }
}
