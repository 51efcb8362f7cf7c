pub fn serve(port: u16) {
    let _ = port;
}
