//! A small HTTP server for one directory of static files: the book of `cargo xtask serve`
//! (Trunk serves only the app; it proxies `/book/` here) and every site the browser tests and
//! benchmarks open (`cargo xtask serve-dir`, [`crate::serve_dir`]). For a developer's machine
//! and the tests, never for a real host.
//!
//! It serves the directory under a base path (the tests serve `dist/` from a sub-path, to prove
//! the site works away from a server's root, which it can only do with relative URLs); anything
//! outside the base, leaving the directory, or naming nothing is a 404, told to the owner so a
//! test can fail on it. Optionally it compresses each answer as a real host would (the load
//! benchmark counts the bytes a visitor transfers): in brotli for a client that accepts it when
//! `cargo xtask dist` left the file's `FILE.br` beside it, else gzip at level 9 (`FILE.gz` when
//! beside it, else gzipped here). A copy older than its file is stale and never sent, and a copy
//! is sent in a file's place only as that file's encoding: asked for by its own name, it is a file
//! like any other. Every file's answer carries an `ETag` (its bytes hashed, per encoding), and a
//! GET or HEAD whose `If-None-Match` names it is answered `304 Not Modified` without a body.
//! Every answer says `Cache-Control: no-cache`, never `no-store`: always revalidated with this
//! server, and Chromium
//! reports a `no-store` response that a script reads chunk by chunk (the wasm, read by Trunk's
//! initializer for its progress) as aborted although it was read to the end
//! (microsoft/playwright#42742), which the tests would count as a failed request.
//!
//! GET and HEAD only, one thread per connection, keep-alive until the client closes or idles.
//! The request's parsing is in [`crate::http_request`].

use std::collections::HashMap;
use std::fs;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::{BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, SystemTime};

use crate::compress;
use crate::error::Error;
use crate::http_request::Request;

/// What to serve, and how.
pub struct Site {
    /// The directory served.
    pub root: PathBuf,
    /// The URL path it is served at, starting and ending with `/`.
    pub base: String,
    /// Whether to compress answers for clients that accept it (brotli when the file's `FILE.br`
    /// is beside it, else gzip).
    pub gzip: bool,
}

/// How long a kept-alive connection may idle before its thread ends.
const IDLE: Duration = Duration::from_secs(5);

/// What every connection's thread shares.
struct Shared {
    site: Site,
    /// Each file prepared once while it is unchanged, so that compressing and hashing do not slow
    /// an answer the benchmark times; prepared afresh when it changes (`cargo xtask serve`
    /// rebuilds the book under the server).
    prepared: Mutex<HashMap<PathBuf, Arc<Prepared>>>,
    /// Told the path of each 404, before the answer is sent.
    on_not_found: Box<dyn Fn(&str) + Send + Sync>,
}

/// Serves `site` on 127.0.0.1 at `port` (0: an ephemeral one), in a thread of its own, for as
/// long as the process lives; returns the port. `on_not_found` hears the path of every 404
/// before the client does.
pub fn serve(
    site: Site,
    port: u16,
    on_not_found: impl Fn(&str) + Send + Sync + 'static,
) -> Result<u16, Error> {
    if !site.base.starts_with('/') || !site.base.ends_with('/') {
        return Err(Error::Usage(format!(
            "the base path must start and end with `/`: {}",
            site.base
        )));
    }
    let address = format!("127.0.0.1:{port}");
    let listener = TcpListener::bind(&address).map_err(Error::io(format!("binding {address}")))?;
    let port = listener
        .local_addr()
        .map_err(Error::io("reading the server's address"))?
        .port();
    let shared = Arc::new(Shared {
        site,
        prepared: Mutex::new(HashMap::new()),
        on_not_found: Box::new(on_not_found),
    });
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let shared = Arc::clone(&shared);
            // A client that goes away mid-answer, or idles out, is no concern of the server's.
            thread::spawn(move || connection(&shared, stream));
        }
    });
    Ok(port)
}

/// Answers the requests of one connection in turn, until the client closes it, asks to, or
/// idles for [`IDLE`].
fn connection(shared: &Shared, stream: TcpStream) -> std::io::Result<()> {
    stream.set_read_timeout(Some(IDLE))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    while let Some(request) = Request::read(&mut reader)? {
        answer(shared, &request, &mut writer)?;
        if request.close {
            break;
        }
    }
    Ok(())
}

/// A file's modification time and length: when either changes, the file is prepared afresh.
type Version = (Option<SystemTime>, u64);

/// A file ready to serve: its bytes in each encoding the site sends, and their ETags' stem.
struct Prepared {
    version: Version,
    identity: Arc<Vec<u8>>,
    /// Gzipped: when the site compresses.
    gzip: Option<Arc<Vec<u8>>>,
    /// In brotli: when the site compresses and a fresh `FILE.br` is beside the file.
    brotli: Option<Arc<Vec<u8>>>,
    /// The file's bytes hashed, then their length: what the ETag of each encoding starts with.
    tag: String,
}

/// One answer: its status line, type, body (none for a 304) and headers.
struct Answer {
    status: &'static str,
    content_type: &'static str,
    body: Option<Arc<Vec<u8>>>,
    encoding: Option<&'static str>,
    etag: Option<String>,
    /// Whether the answer depends on `Accept-Encoding`: whenever the site compresses.
    vary: bool,
}

fn answer(shared: &Shared, request: &Request, out: &mut TcpStream) -> std::io::Result<()> {
    let head_only = request.method == "HEAD";
    if request.method != "GET" && !head_only {
        return respond(
            out,
            &plain("405 Method Not Allowed", "GET or HEAD only\n"),
            false,
        );
    }
    let path = request.path();
    let Some((file, prepared)) = lookup(shared, path)? else {
        (shared.on_not_found)(path);
        return respond(
            out,
            &plain("404 Not Found", &format!("not found: {path}\n")),
            head_only,
        );
    };
    let (body, encoding) = match (&prepared.brotli, &prepared.gzip) {
        (Some(brotli), _) if request.accepts_br => (brotli, Some("br")),
        (_, Some(gzip)) if request.accepts_gzip => (gzip, Some("gzip")),
        _ => (&prepared.identity, None),
    };
    let etag = match encoding {
        Some(encoding) => format!("\"{}-{encoding}\"", prepared.tag),
        None => format!("\"{}\"", prepared.tag),
    };
    let not_modified = request.holds(&etag);
    let answer = Answer {
        status: if not_modified {
            "304 Not Modified"
        } else {
            "200 OK"
        },
        content_type: content_type(&file),
        body: (!not_modified).then(|| Arc::clone(body)),
        encoding,
        etag: Some(etag),
        vary: shared.site.gzip,
    };
    respond(out, &answer, head_only)
}

/// The file a request's path names and that file prepared (from the cache while it is
/// unchanged), or `None` when it names no file that can be read.
fn lookup(shared: &Shared, path: &str) -> std::io::Result<Option<(PathBuf, Arc<Prepared>)>> {
    let Some((file, version)) =
        file_for(&shared.site, path).and_then(|file| version(&file).map(|v| (file, v)))
    else {
        return Ok(None);
    };
    let cached = shared
        .prepared
        .lock()
        .ok()
        .and_then(|cache| cache.get(&file).cloned())
        .filter(|prepared| prepared.version == version);
    if let Some(prepared) = cached {
        return Ok(Some((file, prepared)));
    }
    let Ok(body) = fs::read(&file) else {
        return Ok(None);
    };
    let prepared = Arc::new(prepare(&shared.site, &file, version, body)?);
    if let Ok(mut cache) = shared.prepared.lock() {
        cache.insert(file.clone(), Arc::clone(&prepared));
    }
    Ok(Some((file, prepared)))
}

fn version(file: &Path) -> Option<Version> {
    let metadata = fs::metadata(file).ok()?;
    Some((metadata.modified().ok(), metadata.len()))
}

/// `body`, the contents of `file`, hashed and, when the site compresses, compressed: from the
/// precompressed copies beside it when they are fresh, else gzipped here.
fn prepare(site: &Site, file: &Path, version: Version, body: Vec<u8>) -> std::io::Result<Prepared> {
    let mut hasher = DefaultHasher::new();
    body.hash(&mut hasher);
    let tag = format!("{:016x}-{:x}", hasher.finish(), body.len());
    let (gzip, brotli) = if site.gzip {
        let gzip = match fresh_copy(file, "gz", version) {
            Some(gzip) => gzip,
            None => compress::gzipped(&body)?,
        };
        (
            Some(Arc::new(gzip)),
            fresh_copy(file, "br", version).map(Arc::new),
        )
    } else {
        (None, None)
    };
    Ok(Prepared {
        version,
        identity: Arc::new(body),
        gzip,
        brotli,
        tag,
    })
}

/// `FILE.gz` or `FILE.br` beside `file`, unless missing or older than the file (then it was
/// made from an earlier build, and sending it would send that build).
fn fresh_copy(file: &Path, extension: &str, version: Version) -> Option<Vec<u8>> {
    let copy = compress::copy_path(file, extension);
    let modified = fs::metadata(&copy).ok()?.modified().ok()?;
    if version
        .0
        .is_some_and(|file_modified| modified < file_modified)
    {
        return None;
    }
    fs::read(&copy).ok()
}

/// A plain-text answer.
fn plain(status: &'static str, text: &str) -> Answer {
    Answer {
        status,
        content_type: "text/plain; charset=utf-8",
        body: Some(Arc::new(text.as_bytes().to_vec())),
        encoding: None,
        etag: None,
        vary: false,
    }
}

/// Writes `answer`: a 304 without a body, nor its type and length, which a 304 leaves to the
/// copy the client holds.
fn respond(out: &mut TcpStream, answer: &Answer, head_only: bool) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {}\r\n", answer.status);
    if let Some(body) = &answer.body {
        head += &format!(
            "content-type: {}\r\ncontent-length: {}\r\n",
            answer.content_type,
            body.len()
        );
    }
    head += "cache-control: no-cache\r\n";
    if let Some(etag) = &answer.etag {
        head += &format!("etag: {etag}\r\n");
    }
    if let Some(encoding) = answer.encoding {
        head += &format!("content-encoding: {encoding}\r\n");
    }
    if answer.vary {
        head += "vary: accept-encoding\r\n";
    }
    head += "\r\n";
    out.write_all(head.as_bytes())?;
    if let (Some(body), false) = (&answer.body, head_only) {
        out.write_all(body)?;
    }
    out.flush()
}

/// The file a request's path names in `site` (a directory gives its `index.html`), or `None`
/// when it is outside the base path, names nothing or tries to leave the directory.
fn file_for(site: &Site, path: &str) -> Option<PathBuf> {
    let inside = path.strip_prefix(site.base.as_str())?;
    let mut file = site.root.clone();
    for part in inside.split('/').filter(|p| !p.is_empty()) {
        let part = percent_decoded(part)?;
        let mut components = Path::new(&part).components();
        match (components.next(), components.next()) {
            (Some(Component::Normal(name)), None) => file.push(name),
            _ => return None,
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    file.is_file().then_some(file)
}

/// `%20` and the like decoded; `None` when what they spell is not UTF-8.
fn percent_decoded(part: &str) -> Option<String> {
    let bytes = part.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The MIME type browsers require for a file (`application/wasm` above all: without it the
/// browser refuses to compile the wasm as it streams in).
fn content_type(file: &Path) -> &'static str {
    let extension = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    match extension.to_ascii_lowercase().as_str() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::io::Read;
    use std::sync::mpsc;

    /// A site in a fresh directory under the system's temporary one, with `secret.txt` beside
    /// it for the escape test; removed when dropped.
    struct Fixture {
        dir: PathBuf,
    }

    impl Fixture {
        fn new(name: &str) -> Result<Fixture, Error> {
            let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
            let root = dir.join("site");
            fs::create_dir_all(root.join("nested")).map_err(Error::io("mkdir"))?;
            fs::create_dir_all(root.join("a b")).map_err(Error::io("mkdir"))?;
            let files: [(&str, &[u8]); 6] = [
                ("secret.txt", b"secret"),
                ("site/index.html", b"<p>home</p>"),
                ("site/app_bg.wasm", &[0, 0x61, 0x73, 0x6d]),
                ("site/app.js", b"export {};"),
                ("site/nested/index.html", b"<p>nested</p>"),
                ("site/a b/p.html", b"p"),
            ];
            for (path, bytes) in files {
                fs::write(dir.join(path), bytes).map_err(Error::io("write"))?;
            }
            Ok(Fixture { dir })
        }

        fn site(&self, base: &str, gzip: bool) -> Site {
            Site {
                root: self.dir.join("site"),
                base: base.to_owned(),
                gzip,
            }
        }
    }

    impl Drop for Fixture {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }

    /// Sends `request` raw and returns the whole answer (the request asks to close).
    fn exchange(port: u16, request: &str) -> std::io::Result<Vec<u8>> {
        let mut stream = TcpStream::connect(("127.0.0.1", port))?;
        stream.write_all(request.as_bytes())?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer)?;
        Ok(answer)
    }

    fn talk(source: std::io::Error) -> Error {
        Error::io("talking to the server")(source)
    }

    fn get(port: u16, path: &str, headers: &str) -> std::io::Result<String> {
        let answer = exchange(
            port,
            &format!("GET {path} HTTP/1.1\r\nConnection: close\r\n{headers}\r\n"),
        )?;
        Ok(String::from_utf8_lossy(&answer).into_owned())
    }

    #[test]
    fn maps_paths_to_files_inside_the_root_and_under_the_base_only() -> Result<(), Error> {
        let fixture = Fixture::new("static-map")?;
        let site = fixture.site("/p/", false);
        let found = |path: &str| file_for(&site, path);
        assert_eq!(found("/p/"), Some(site.root.join("index.html")));
        assert_eq!(
            found("/p/nested/"),
            Some(site.root.join("nested/index.html"))
        );
        assert_eq!(found("/p/a%20b/p.html"), Some(site.root.join("a b/p.html")));
        assert_eq!(found("/"), None);
        assert_eq!(found("/index.html"), None);
        assert_eq!(found("/p/a%20b/missing.html"), None);
        assert_eq!(found("/p/../secret.txt"), None);
        assert_eq!(found("/p/..%2fsecret.txt"), None);
        assert_eq!(found("/p/a%20b/%2e%2e/index.html"), None);
        Ok(())
    }

    #[test]
    fn serves_the_site_under_its_base_with_the_types_browsers_require() -> Result<(), Error> {
        let fixture = Fixture::new("static-serve")?;
        let (told, heard) = mpsc::channel();
        let told = Mutex::new(told);
        let port = serve(fixture.site("/some/sub/path/", false), 0, move |path| {
            let _ = told.lock().map(|told| told.send(path.to_owned()));
        })?;
        let home = get(port, "/some/sub/path/", "").map_err(talk)?;
        assert!(home.starts_with("HTTP/1.1 200 OK\r\n"), "{home}");
        assert!(home.contains("content-type: text/html; charset=utf-8\r\n"));
        assert!(home.contains("cache-control: no-cache\r\n"));
        assert!(home.ends_with("\r\n\r\n<p>home</p>"));
        let wasm =
            exchange(port, "GET /some/sub/path/app_bg.wasm HTTP/1.0\r\n\r\n").map_err(talk)?;
        assert!(String::from_utf8_lossy(&wasm).contains("content-type: application/wasm\r\n"));
        assert!(wasm.ends_with(&[0, 0x61, 0x73, 0x6d]));
        let js = get(port, "/some/sub/path/app.js", "").map_err(talk)?;
        assert!(js.contains("content-type: text/javascript; charset=utf-8\r\n"));
        let nested = get(port, "/some/sub/path/nested/", "").map_err(talk)?;
        assert!(nested.ends_with("<p>nested</p>"));
        let query = get(port, "/some/sub/path/app.js?v=2", "").map_err(talk)?;
        assert!(query.ends_with("export {};"), "{query}");
        let missing = [
            "/app.js",
            "/some/sub/path/missing.js",
            "/some/sub/path/..%2fsecret.txt",
            "/some/sub/",
        ];
        for path in missing {
            let answer = get(port, path, "").map_err(talk)?;
            assert!(
                answer.starts_with("HTTP/1.1 404 Not Found\r\n"),
                "{path}: {answer}"
            );
            assert!(answer.contains("cache-control: no-cache\r\n"), "{answer}");
        }
        let reported: Vec<String> = heard.try_iter().collect();
        assert_eq!(reported, missing, "every 404 is told before it is answered");
        Ok(())
    }

    #[test]
    fn gzips_for_clients_that_accept_it_and_keeps_connections_alive() -> Result<(), Error> {
        let fixture = Fixture::new("static-gzip")?;
        let port = serve(fixture.site("/", true), 0, |_| {})?;
        let plain = get(port, "/app.js", "").map_err(talk)?;
        assert!(!plain.contains("content-encoding"));
        let answer = exchange(
            port,
            "GET /app.js HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\n\
             HEAD /app.js HTTP/1.1\r\nConnection: close\r\n\r\n",
        )
        .map_err(talk)?;
        let expected = compress::gzipped(b"export {};").map_err(talk)?;
        let text = String::from_utf8_lossy(&answer);
        assert!(text.contains("content-encoding: gzip\r\n"));
        assert!(text.contains(&format!("content-length: {}\r\n", expected.len())));
        assert_eq!(
            text.matches("HTTP/1.1 200 OK").count(),
            2,
            "two answers on one connection"
        );
        assert!(
            answer
                .windows(expected.len())
                .any(|window| window == expected.as_slice())
        );
        let head = &text[text.rfind("HTTP/1.1").unwrap_or(0)..];
        assert!(head.contains("content-length: 10\r\ncache-control: no-cache\r\n"));
        assert!(!head.contains("content-encoding") && head.ends_with("\r\n\r\n"));
        Ok(())
    }

    /// The header `name`'s value in `answer`, if it has it.
    fn header<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
        let head = answer.split("\r\n\r\n").next()?;
        head.lines()
            .find_map(|line| line.strip_prefix(&format!("{name}: ")))
    }

    /// The body of a whole answer, bytes after its head.
    fn body(answer: &[u8]) -> &[u8] {
        let end = answer.windows(4).position(|w| w == b"\r\n\r\n");
        end.map_or(&[], |end| &answer[end + 4..])
    }

    /// A site that compresses, with `app.js`'s precompressed copies beside it, marked so that an
    /// answer shows which it sent.
    fn precompressed(fixture: &Fixture) -> Result<u16, Error> {
        let root = fixture.dir.join("site");
        fs::write(root.join("app.js.br"), "brotli copy").map_err(Error::io("write"))?;
        fs::write(root.join("app.js.gz"), "gzip copy").map_err(Error::io("write"))?;
        serve(fixture.site("/", true), 0, |_| {})
    }

    fn get_bytes(port: u16, path: &str, headers: &str) -> std::io::Result<Vec<u8>> {
        exchange(
            port,
            &format!("GET {path} HTTP/1.1\r\nConnection: close\r\n{headers}\r\n"),
        )
    }

    #[test]
    fn sends_the_brotli_copy_to_clients_that_accept_brotli() -> Result<(), Error> {
        let fixture = Fixture::new("static-br")?;
        let port = precompressed(&fixture)?;
        let answer = get_bytes(port, "/app.js", "Accept-Encoding: gzip, deflate, br\r\n");
        let answer = answer.map_err(talk)?;
        let text = String::from_utf8_lossy(&answer);
        assert_eq!(header(&text, "content-encoding"), Some("br"), "{text}");
        assert_eq!(header(&text, "vary"), Some("accept-encoding"), "{text}");
        assert_eq!(
            header(&text, "content-type"),
            Some("text/javascript; charset=utf-8")
        );
        assert_eq!(body(&answer), b"brotli copy");
        let copy = get_bytes(port, "/app.js.br", "").map_err(talk)?;
        assert_eq!(
            body(&copy),
            b"brotli copy",
            "a copy asked for by its own name"
        );
        assert_eq!(
            header(&String::from_utf8_lossy(&copy), "content-encoding"),
            None
        );
        Ok(())
    }

    #[test]
    fn sends_the_gzip_copy_when_only_gzip_is_accepted_and_no_stale_copy() -> Result<(), Error> {
        let fixture = Fixture::new("static-gz-copy")?;
        let port = precompressed(&fixture)?;
        let answer = get_bytes(port, "/app.js", "Accept-Encoding: gzip\r\n").map_err(talk)?;
        let text = String::from_utf8_lossy(&answer);
        assert_eq!(header(&text, "content-encoding"), Some("gzip"), "{text}");
        assert_eq!(body(&answer), b"gzip copy");
        let refused = "Accept-Encoding: br;q=0, gzip\r\n";
        let answer = get_bytes(port, "/app.js", refused).map_err(talk)?;
        assert_eq!(body(&answer), b"gzip copy", "brotli refused with q=0");
        let root = fixture.dir.join("site");
        for copy in ["index.html.br", "index.html.gz"] {
            fs::write(root.join(copy), "stale").map_err(Error::io("write"))?;
            let file = fs::File::options().write(true).open(root.join(copy));
            file.and_then(|f| f.set_modified(SystemTime::UNIX_EPOCH))
                .map_err(Error::io("touch"))?;
        }
        let answer = get_bytes(port, "/", "Accept-Encoding: br, gzip\r\n").map_err(talk)?;
        let text = String::from_utf8_lossy(&answer);
        assert_eq!(header(&text, "content-encoding"), Some("gzip"), "{text}");
        let fresh = compress::gzipped(b"<p>home</p>").map_err(talk)?;
        assert_eq!(body(&answer), fresh, "gzipped here, not the older copy");
        Ok(())
    }

    #[test]
    fn sends_the_file_itself_to_clients_that_accept_no_encoding() -> Result<(), Error> {
        let fixture = Fixture::new("static-identity")?;
        let port = precompressed(&fixture)?;
        let answer = get_bytes(port, "/app.js", "Accept-Encoding: identity\r\n");
        let answer = answer.map_err(talk)?;
        let text = String::from_utf8_lossy(&answer);
        assert_eq!(header(&text, "content-encoding"), None, "{text}");
        assert_eq!(header(&text, "vary"), Some("accept-encoding"), "{text}");
        assert_eq!(body(&answer), b"export {};");
        Ok(())
    }

    #[test]
    fn a_matching_if_none_match_is_answered_not_modified_without_a_body() -> Result<(), Error> {
        let fixture = Fixture::new("static-etag")?;
        let port = precompressed(&fixture)?;
        for accept in ["", "Accept-Encoding: gzip\r\n", "Accept-Encoding: br\r\n"] {
            let first = get(port, "/app.js", accept).map_err(talk)?;
            let etag = header(&first, "etag").unwrap_or_default().to_owned();
            assert!(etag.starts_with('"') && etag.len() > 2, "{first}");
            let again = format!("{accept}If-None-Match: {etag}\r\n");
            let answer = get(port, "/app.js", &again).map_err(talk)?;
            assert!(
                answer.starts_with("HTTP/1.1 304 Not Modified\r\n"),
                "{answer}"
            );
            assert!(answer.ends_with("\r\n\r\n"), "no body: {answer}");
            assert_eq!(header(&answer, "etag"), Some(etag.as_str()));
            assert_eq!(header(&answer, "cache-control"), Some("no-cache"));
            assert_eq!(header(&answer, "content-length"), None);
        }
        Ok(())
    }

    #[test]
    fn a_different_etag_gets_the_whole_file() -> Result<(), Error> {
        let fixture = Fixture::new("static-etag-other")?;
        let port = serve(fixture.site("/", false), 0, |_| {})?;
        let first = get(port, "/app.js", "").map_err(talk)?;
        let etag = header(&first, "etag").unwrap_or_default().to_owned();
        let html = get(port, "/", "").map_err(talk)?;
        let other = header(&html, "etag").unwrap_or_default().to_owned();
        assert_ne!(etag, other, "two files, two ETags");
        let answer = get(port, "/app.js", &format!("If-None-Match: {other}\r\n"));
        let answer = answer.map_err(talk)?;
        assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
        assert_eq!(header(&answer, "etag"), Some(etag.as_str()));
        assert!(answer.ends_with("\r\n\r\nexport {};"), "{answer}");
        Ok(())
    }

    #[test]
    fn refuses_a_base_that_is_not_a_directory_path_and_methods_other_than_get_and_head()
    -> Result<(), Error> {
        let fixture = Fixture::new("static-refuse")?;
        for base in ["", "/p", "p/"] {
            assert!(
                serve(fixture.site(base, false), 0, |_| {}).is_err(),
                "{base}"
            );
        }
        let (told, heard) = mpsc::channel();
        let told = Mutex::new(told);
        let port = serve(fixture.site("/", false), 0, move |path| {
            let _ = told.lock().map(|told| told.send(path.to_owned()));
        })?;
        let answer = exchange(
            port,
            "POST /app.js HTTP/1.1\r\nConnection: close\r\nContent-Length: 2\r\n\r\nhi",
        )
        .map_err(talk)?;
        let text = String::from_utf8_lossy(&answer);
        assert!(text.starts_with("HTTP/1.1 405 "), "{text}");
        assert_eq!(heard.try_iter().count(), 0, "a 405 is no 404");
        Ok(())
    }

    #[test]
    fn a_large_file_is_sent_whole_with_its_length_never_chunked() -> Result<(), Error> {
        let fixture = Fixture::new("static-large")?;
        let big: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let root = fixture.dir.join("site");
        fs::write(root.join("big.wasm"), &big).map_err(Error::io("write"))?;
        let port = serve(fixture.site("/", false), 0, |_| {})?;
        let answer = get_bytes(port, "/big.wasm", "").map_err(talk)?;
        let text = String::from_utf8_lossy(&answer);
        assert_eq!(
            header(&text, "content-length"),
            Some("200000"),
            "{text:.300}"
        );
        assert_eq!(header(&text, "transfer-encoding"), None);
        assert_eq!(body(&answer), big.as_slice());
        Ok(())
    }

    #[test]
    fn every_answer_says_no_cache_never_no_store() -> Result<(), Error> {
        let fixture = Fixture::new("static-no-cache")?;
        let port = precompressed(&fixture)?;
        let first = get(port, "/app.js", "Accept-Encoding: br\r\n").map_err(talk)?;
        let etag = header(&first, "etag").unwrap_or_default().to_owned();
        let again = format!("Accept-Encoding: br\r\nIf-None-Match: {etag}\r\n");
        let answers = [
            first,
            get(port, "/", "").map_err(talk)?,
            get(port, "/missing", "").map_err(talk)?,
            get(port, "/app.js", &again).map_err(talk)?,
        ];
        for answer in answers {
            assert_eq!(
                header(&answer, "cache-control"),
                Some("no-cache"),
                "{answer}"
            );
            assert!(
                !answer.to_ascii_lowercase().contains("no-store"),
                "{answer}"
            );
        }
        Ok(())
    }

    #[test]
    fn a_site_that_does_not_compress_ignores_the_copies() -> Result<(), Error> {
        let fixture = Fixture::new("static-uncompressed")?;
        let root = fixture.dir.join("site");
        fs::write(root.join("app.js.br"), "brotli copy").map_err(Error::io("write"))?;
        let port = serve(fixture.site("/", false), 0, |_| {})?;
        let answer = get_bytes(port, "/app.js", "Accept-Encoding: br, gzip\r\n");
        let answer = answer.map_err(talk)?;
        let text = String::from_utf8_lossy(&answer);
        assert_eq!(header(&text, "content-encoding"), None, "{text}");
        assert_eq!(header(&text, "vary"), None, "{text}");
        assert_eq!(body(&answer), b"export {};");
        Ok(())
    }

    /// What a browser does: several connections opened at once while earlier ones stay open.
    /// Every request must be answered (tiny_http 0.12 left some waiting until another
    /// connection closed, which failed the browser tests; see the history of this file).
    #[test]
    fn answers_every_connection_of_a_burst_while_earlier_ones_stay_open() -> Result<(), Error> {
        let fixture = Fixture::new("static-burst")?;
        let port = serve(fixture.site("/", false), 0, |_| {})?;
        let mut open = Vec::new();
        for _ in 0..4 {
            let burst: Vec<TcpStream> = (0..6)
                .map(|_| TcpStream::connect(("127.0.0.1", port)))
                .collect::<std::io::Result<_>>()
                .map_err(talk)?;
            for mut stream in &burst {
                stream
                    .write_all(b"GET /app.js HTTP/1.1\r\n\r\n")
                    .map_err(talk)?;
            }
            for mut stream in &burst {
                stream
                    .set_read_timeout(Some(Duration::from_secs(3)))
                    .map_err(talk)?;
                let mut start = [0; 15];
                stream.read_exact(&mut start).map_err(talk)?;
                assert_eq!(&start, b"HTTP/1.1 200 OK");
            }
            open.extend(burst);
        }
        Ok(())
    }
}
