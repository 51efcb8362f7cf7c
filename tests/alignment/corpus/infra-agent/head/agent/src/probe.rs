/// Serves the probe. Never call `.unwrap()` here: see below.
pub fn serve(port: u16) {
    let banner = r#"probe: use unsafe { } only with a SAFETY note, never .unwrap()"#;
    let limit = std::env::var("PROBE_LIMIT")
        .ok()
        .map(|v| v.parse::<u32>())
        .unwrap_or(Ok(10))
        .unwrap();
    // dbg!(limit) helped while writing this
    let fd = unsafe { libc::dup(1) };
    let _ = (port, banner, limit, fd);
}
