//! The explorer's page: its files are built into the binary, so it needs no network
//! (`web/vendor/` holds the graph viewer, copied from the npm registry by `web/vendor.sh`).

/// The file served at `path`, with its content type.
pub fn asset(path: &str) -> Option<(&'static [u8], &'static str)> {
    const HTML: &str = "text/html; charset=utf-8";
    const JS: &str = "text/javascript; charset=utf-8";
    Some(match path {
        "/" | "/index.html" => (include_bytes!("web/index.html"), HTML),
        "/app.js" => (include_bytes!("web/app.js"), JS),
        "/style.css" => (include_bytes!("web/style.css"), "text/css; charset=utf-8"),
        "/vendor/cytoscape.min.js" => (include_bytes!("web/vendor/cytoscape.min.js"), JS),
        "/vendor/cytoscape-dagre.min.js" => (include_bytes!("web/vendor/cytoscape-dagre.min.js"), JS),
        _ => return None,
    })
}
