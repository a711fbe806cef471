//! A small HTTP server for one directory of static files, for `cargo xtask serve`'s book (Trunk
//! serves only the app; it proxies `/book/` here). GET and HEAD only, one thread per
//! connection, no keep-alive; a path that leaves the directory, or names nothing, is a 404. For
//! a developer's machine, never for a real host.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::thread;

use crate::error::Error;

/// Serves `root` on 127.0.0.1 at an ephemeral port, in a thread of its own, for as long as the
/// process lives; returns the port.
pub fn serve(root: PathBuf) -> Result<u16, Error> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(Error::io("binding 127.0.0.1:0"))?;
    let port = listener
        .local_addr()
        .map_err(Error::io("reading the server's address"))?
        .port();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let root = root.clone();
            thread::spawn(move || {
                // A client that goes away mid-answer is no concern of the server's.
                let _ = answer(&root, stream);
            });
        }
    });
    Ok(port)
}

fn answer(root: &Path, mut stream: TcpStream) -> std::io::Result<()> {
    let mut request_line = String::new();
    BufReader::new(&stream).read_line(&mut request_line)?;
    let mut words = request_line.split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or("/"));
    if method != "GET" && method != "HEAD" {
        return respond(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET only\n",
            true,
        );
    }
    match file_for(root, target).and_then(|file| std::fs::read(&file).ok().map(|b| (file, b))) {
        Some((file, body)) => respond(
            &mut stream,
            "200 OK",
            content_type(&file),
            &body,
            method == "GET",
        ),
        None => respond(
            &mut stream,
            "404 Not Found",
            "text/plain",
            b"not found\n",
            true,
        ),
    }
}

fn respond(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
    with_body: bool,
) -> std::io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n\
         cache-control: no-cache\r\nconnection: close\r\n\r\n",
        body.len()
    )?;
    if with_body {
        stream.write_all(body)?;
    }
    stream.flush()
}

/// The file a request's target names under `root` (a directory gives its `index.html`), or
/// `None` when it names nothing or tries to leave `root`.
fn file_for(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    let mut file = root.to_path_buf();
    for part in path.split('/').filter(|p| !p.is_empty()) {
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

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
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

    #[test]
    fn maps_targets_to_files_inside_the_root_only() -> Result<(), Error> {
        let root = std::env::temp_dir().join(format!("xtask-static-{}", std::process::id()));
        fs::create_dir_all(root.join("a b")).map_err(Error::io("mkdir"))?;
        fs::write(root.join("index.html"), "i").map_err(Error::io("write"))?;
        fs::write(root.join("a b").join("p.html"), "p").map_err(Error::io("write"))?;
        let found = |target: &str| file_for(&root, target);
        assert_eq!(found("/"), Some(root.join("index.html")));
        assert_eq!(
            found("/a%20b/p.html?x=1#y"),
            Some(root.join("a b").join("p.html"))
        );
        assert_eq!(found("/a%20b/missing.html"), None);
        assert_eq!(found("/../etc/passwd"), None);
        assert_eq!(found("/a%20b/%2e%2e/index.html"), None);
        assert_eq!(
            content_type(Path::new("x.js")),
            "text/javascript; charset=utf-8"
        );
        let _ = fs::remove_dir_all(&root);
        Ok(())
    }
}
