//! A rendered page put into the site's HTML: the page Trunk built (`dist/index.html`, the
//! shell) with the page's own title, description, canonical address and the depth back to the
//! site's root, and the app's markup in its root element. Text in, text out: it reads no files.

/// Where the app mounts, in `index.html`: the build writes a page's markup inside it, and the
/// wasm renders over it (`platform::mount`).
pub const ROOT: &str = r#"<div id="lockstep-root"></div>"#;

/// Whether a page is one of the site's, or an embed's document, which a frame on another page
/// shows (`<html data-embed>`: no site chrome, its wasm loaded only when the reader acts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    Page,
    Embed,
}

/// What [`fill`] needs to know about one page.
pub struct Filled<'a> {
    /// The page's path from the site's root (`s/s1-gc-pause-unfenced/`; empty for the root).
    pub path: &'a str,
    /// The path of the page a search engine should send readers to (an embed's: its scenario's).
    pub canonical: &'a str,
    pub shown: Shown,
    /// The way back to the root from the page (`../../`; `./` at the root).
    pub base: &'a str,
    /// The site's public address, ending in `/`, for the canonical link.
    pub site_url: &'a str,
    pub title: &'a str,
    pub description: &'a str,
    /// The app's markup at the page's address.
    pub markup: &'a str,
    /// The site's files the app fetches before it draws over the page (site-relative), asked
    /// for at once beside the wasm (`<link rel="preload">`).
    pub files: &'a [String],
    /// The binary the page starts at once (`lockstep`, `lockstep-full`), whose `NAME_bg.wasm`
    /// the page's head asks for rather than once the loader has run;
    /// `None` for a page whose wasm waits (an embed's document).
    pub binary: Option<&'a str>,
}

/// Why the shell could not take a page.
#[derive(Debug, PartialEq, Eq)]
pub struct ShellError(pub &'static str);

impl std::fmt::Display for ShellError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the site's index.html has no {}", self.0)
    }
}

impl std::error::Error for ShellError {}

/// `shell` with `page` in it. Asset addresses, which Trunk writes relative to the root
/// (`./boot.js`), are made relative to the page's folder; `<html data-rendered>` tells the
/// stylesheet and the loader that the page is already drawn.
pub fn fill(shell: &str, page: &Filled) -> Result<String, ShellError> {
    let (head, rest) = shell.split_once("<title>").ok_or(ShellError("<title>"))?;
    let (_, rest) = rest.split_once("</title>").ok_or(ShellError("</title>"))?;
    if !rest.contains(ROOT) {
        return Err(ShellError(ROOT));
    }
    // Only the shell's own addresses move: the markup's links are the page's already.
    let relative = |part: &str| part.replace("=\"./", &format!("=\"{}", page.base));
    let marks = match page.shown {
        Shown::Page => "data-rendered",
        Shown::Embed => "data-rendered data-embed",
    };
    let head = relative(head).replacen(
        "<html lang=\"en\">",
        &format!("<html lang=\"en\" {marks}>"),
        1,
    );
    let base = escape(page.base);
    // `crossorigin`: the app's `fetch` asks in CORS mode; the preload must match.
    let mut preloads: String = page
        .files
        .iter()
        .map(|file| {
            format!(
                "\n    <link rel=\"preload\" href=\"{base}{}\" as=\"fetch\" crossorigin=\"anonymous\" />",
                escape(file)
            )
        })
        .collect();
    if let Some(binary) = page.binary {
        // index.html's head script asks for `NAME_bg.wasm` at once, unless the address names
        // another page (an old `#…` link), whose binary may be another (decision 43).
        preloads.push_str(&format!(
            "\n    <meta name=\"lockstep-binary\" content=\"{}\" />",
            escape(binary)
        ));
    }
    let meta = format!(
        "<title>{title}</title>\n    <meta name=\"description\" content=\"{description}\" />\n    \
         <link rel=\"canonical\" href=\"{site}{path}\" />\n    \
         <meta name=\"lockstep-base\" content=\"{base}\" />{preloads}",
        title = escape(page.title),
        description = escape(page.description),
        site = escape(page.site_url),
        path = escape(page.canonical),
    );
    let root = format!(r#"<div id="lockstep-root">{}</div>"#, page.markup);
    Ok(format!(
        "{head}{meta}{}",
        relative(rest).replacen(ROOT, &root, 1)
    ))
}

/// `shell` with its icon's `<link>` (`./favicon.svg`, as Trunk writes it) carrying the icon
/// itself, `svg`, as a `data:` address. The app writes its address as a page's path while the
/// browser has yet to ask for the icon (it asks late), and a relative address would then be
/// looked for under that path; a `data:` address is looked for nowhere.
pub fn inline_icon(shell: &str, svg: &str) -> String {
    let Some(start) = shell.find("<link rel=\"icon\" href=\"./favicon.svg\"") else {
        return shell.to_owned();
    };
    let Some(length) = shell[start..].find('>') else {
        return shell.to_owned();
    };
    let mut encoded = String::with_capacity(svg.len());
    for c in svg.trim().chars() {
        match c {
            '%' => encoded.push_str("%25"),
            '#' => encoded.push_str("%23"),
            '"' => encoded.push_str("%22"),
            '<' => encoded.push_str("%3C"),
            '>' => encoded.push_str("%3E"),
            '\n' | '\r' => encoded.push(' '),
            c => encoded.push(c),
        }
    }
    format!(
        "{}<link rel=\"icon\" href=\"data:image/svg+xml,{encoded}\" />{}",
        &shell[..start],
        &shell[start + length + 1..]
    )
}

/// `text` safe inside an attribute's double quotes or an element's text.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHELL: &str = concat!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n  <head>\n    <title>Lockstep</title>\n",
        "    <link rel=\"icon\" href=\"./favicon.svg\" />\n  </head>\n  <body>\n    ",
        r#"<div id="lockstep-root"></div>"#,
        "\n    <script type=\"module\" src=\"./boot.js\"></script>\n  </body>\n</html>\n"
    );

    fn filled(path: &str, base: &str) -> String {
        fill(
            SHELL,
            &Filled {
                path,
                canonical: path,
                shown: Shown::Page,
                base,
                site_url: "https://example.org/lockstep/",
                title: "S1 · A \"pause\" & <loss> — Lockstep",
                description: "client-a pauses",
                markup: "<main class=\"app\">story</main>",
                files: &["scenarios/s1.json".to_owned()],
                binary: Some("lockstep"),
            },
        )
        .expect("filled")
    }

    #[test]
    fn a_page_carries_its_words_its_address_and_its_markup() {
        let html = filled("s/s1/", "../../");
        assert!(
            html.contains("<title>S1 · A &quot;pause&quot; &amp; &lt;loss&gt; — Lockstep</title>")
        );
        assert!(html.contains(r#"<meta name="description" content="client-a pauses" />"#));
        assert!(
            html.contains(r#"<link rel="canonical" href="https://example.org/lockstep/s/s1/" />"#)
        );
        assert!(html.contains(r#"<div id="lockstep-root"><main class="app">story</main></div>"#));
        assert!(html.contains("<html lang=\"en\" data-rendered>"));
        assert!(html.contains(
            r#"<link rel="preload" href="../../scenarios/s1.json" as="fetch" crossorigin="anonymous" />"#
        ));
        assert!(html.contains(r#"<meta name="lockstep-binary" content="lockstep" />"#));
    }

    #[test]
    fn assets_are_reached_from_the_pages_folder() {
        let html = filled("learn/not-a-mutex/3/", "../../../");
        assert!(html.contains(r#"href="../../../favicon.svg""#));
        assert!(html.contains(r#"src="../../../boot.js""#));
        assert!(!html.contains("=\"./"));
        assert!(filled("", "./").contains(r#"src="./boot.js""#));
    }

    #[test]
    fn the_icon_travels_in_the_page() {
        let shell = SHELL.replace(
            "href=\"./favicon.svg\" />",
            "href=\"./favicon.svg\" integrity=\"sha384-x\"/>",
        );
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\">\n<rect fill=\"#123\"/></svg>\n";
        let html = inline_icon(&shell, svg);
        assert!(html.contains(
            "<link rel=\"icon\" href=\"data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22%3E %3Crect fill=%22%23123%22/%3E%3C/svg%3E\" />"
        ));
        assert!(!html.contains("favicon.svg"));
        assert!(html.contains("</head>"));
    }

    #[test]
    fn a_shell_without_the_root_is_refused() {
        let shell = SHELL.replace(ROOT, "");
        let page = Filled {
            path: "",
            canonical: "",
            shown: Shown::Page,
            base: "./",
            site_url: "/",
            title: "t",
            description: "d",
            markup: "",
            files: &[],
            binary: None,
        };
        assert_eq!(fill(&shell, &page), Err(ShellError(ROOT)));
        assert_eq!(
            fill("<html>", &page).map_err(|e| e.to_string()),
            Err("the site's index.html has no <title>".to_owned())
        );
    }
}
