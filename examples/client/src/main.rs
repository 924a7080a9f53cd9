//! `mcp-spec-example-client [--legacy] [--without CAPABILITY]... COMMAND [ARGS...]`:
//! runs an MCP server over stdio and prints what a session with it found. Exit
//! code 1 when anything fails.

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1).peekable();
    // `--without CAPABILITY` (repeatable): not declared, to see what a server refuses.
    // `--legacy`: the 2025-11-25 handshake, with no `server/discover` first.
    let (mut without, mut legacy) = (Vec::new(), false);
    loop {
        match args.peek().map(String::as_str) {
            Some("--without") => {
                args.next();
                without.extend(args.next());
            }
            Some("--legacy") => {
                args.next();
                legacy = true;
            }
            _ => break,
        }
    }
    let Some(command) = args.next() else {
        eprintln!(
            "usage: mcp-spec-example-client [--legacy] [--without sampling|elicitation|roots|tasks]... COMMAND [ARGS...]   (a server speaking MCP on stdio)"
        );
        return std::process::ExitCode::from(2);
    };
    let rest: Vec<String> = args.collect();
    let session = if legacy {
        mcp_spec_example_client::run_legacy(&command, &rest)
    } else {
        mcp_spec_example_client::run_without(&command, &rest, &without)
    };
    match session {
        Ok(summary) => {
            println!("{summary}");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::from(1)
        }
    }
}
