//! `mcp-spec-example-client COMMAND [ARGS...]`: runs an MCP server over stdio
//! and prints what a session with it found. Exit code 1 when anything fails.

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(command) = args.next() else {
        eprintln!("usage: mcp-spec-example-client COMMAND [ARGS...]   (a server speaking MCP on stdio)");
        return std::process::ExitCode::from(2);
    };
    let rest: Vec<String> = args.collect();
    match mcp_spec_example_client::run(&command, &rest) {
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
