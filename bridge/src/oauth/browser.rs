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
            Browser::Default => {
                // A machine with no display would get a text browser, which webbrowser runs in
                // the foreground on the bridge's own stdin and stdout: the protocol's.
                #[cfg(all(unix, not(target_os = "macos")))]
                if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
                    return Err("no display to open a browser on (--oauth-browser CMD hands the URL to one)".into());
                }
                // Off the runtime's thread: opening a browser may take its time.
                let url = url.to_string();
                std::thread::spawn(move || {
                    if let Err(e) = webbrowser::open(&url) {
                        eprintln!("mcp-era-bridge: cannot open a browser: {e}; open the URL above by hand");
                    }
                });
                Ok(())
            }
            Browser::Command(command) => {
                // The command's output goes to stderr: stdout carries the protocol.
                let mut child = std::process::Command::new("sh")
                    .arg("-c")
                    .arg(format!("{command} \"$1\""))
                    .arg("mcp-era-bridge")
                    .arg(url)
                    .stdin(std::process::Stdio::null())
                    .stdout(std::io::stderr())
                    .spawn()
                    .map_err(|e| format!("--oauth-browser {command:?}: {e}"))?;
                // Reaped when it ends, whenever that is.
                std::thread::spawn(move || child.wait());
                Ok(())
            }
        }
    }
}
