//! The person at the other end: the authorization URL shown on stderr and
//! opened in the user's browser, or given to `--oauth-browser CMD` (a
//! headless machine, a test) as its last argument.

/// How the authorization URL reaches the user.
#[derive(Clone, Debug)]
pub enum Browser {
    /// The user's default browser (`webbrowser`).
    Default,
    /// `--oauth-browser CMD`: run by `sh -c` with the URL as its last argument.
    Command(String),
}

impl Browser {
    /// Shows `url` to the user; an error says why it could not be opened (the
    /// URL is on stderr all the same, for the user to open by hand).
    pub fn open(&self, url: &str) -> Result<(), String> {
        eprintln!("mcp-era-bridge: to authorize the server, open {url}");
        match self {
            Browser::Default => webbrowser::open(url).map_err(|e| format!("cannot open a browser: {e}")),
            Browser::Command(command) => {
                // The command's output goes to stderr: stdout carries the protocol.
                std::process::Command::new("sh")
                    .arg("-c")
                    .arg(format!("{command} \"$1\""))
                    .arg("mcp-era-bridge")
                    .arg(url)
                    .stdin(std::process::Stdio::null())
                    .stdout(std::io::stderr())
                    .spawn()
                    .map(drop)
                    .map_err(|e| format!("--oauth-browser {command:?}: {e}"))
            }
        }
    }
}
