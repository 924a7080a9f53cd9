//! `mcp-spec-example-client [--without CAPABILITY]... COMMAND [ARGS...]`: runs an
//! MCP server over stdio and prints what a session with it found. Exit code 1
//! when anything fails.

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1).peekable();
    // `--without CAPABILITY` (repeatable): not declared, to see what a server refuses.
    let mut without = Vec::new();
    while args.peek().map(String::as_str) == Some("--without") {
        args.next();
        without.extend(args.next());
    }
    let Some(command) = args.next() else {
        eprintln!(
            "usage: mcp-spec-example-client [--without sampling|elicitation|roots|tasks]... COMMAND [ARGS...]   (a server speaking MCP on stdio)"
        );
        return std::process::ExitCode::from(2);
    };
    let rest: Vec<String> = args.collect();
    match mcp_spec_example_client::run_without(&command, &rest, &without) {
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
