//! The web app without the rest of the `latrunculi` binary (which builds burn and every
//! command): `cargo run -p latrunculi-serve --example serve -- [--port P] [--bind ADDR]
//! [--root DIR]`. The same server as `latrunculi serve`, for working on the page.

use latrunculi_serve::Config;

fn main() {
    let mut config = Config::default();
    // `serve` first, as `latrunculi serve` takes it, is optional.
    let args: Vec<String> = std::env::args().skip(1).skip_while(|a| a == "serve").collect();
    if args.iter().any(|a| a == "--help") {
        println!("usage: serve [--port P] [--bind ADDR] [--root DIR]");
        return;
    }
    for pair in args.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or_default();
        match pair[0].as_str() {
            "--port" => config.addr.set_port(value.parse().unwrap_or_else(|_| usage())),
            "--bind" => config.addr.set_ip(value.parse().unwrap_or_else(|_| usage())),
            "--root" => config.root = value.into(),
            _ => usage(),
        }
    }
    if let Err(e) =
        latrunculi_serve::run(config, |addr| println!("latrunculi serve: open http://{addr}/ (Ctrl-C stops it)"))
    {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

fn usage() -> ! {
    eprintln!("usage: serve [--port P] [--bind ADDR] [--root DIR]");
    std::process::exit(2);
}
