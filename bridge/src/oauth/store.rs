//! What the bridge keeps between runs: for each server, its client
//! registrations and tokens per authorization server (keyed by issuer: a
//! server that moves to another authorization server never gets the old one's
//! token, nor its client), in one JSON file per server readable by the user
//! alone (0600, in a 0700 folder), written whole or not at all.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::discovery::ServerMetadata;

/// How the bridge is known to an authorization server.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Client {
    pub client_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    /// `client_secret_basic`, `client_secret_post` or `none`.
    pub token_endpoint_auth_method: String,
    /// The redirect URI it was registered with (dynamic registration binds
    /// one; the callback listens on its port again when it can).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_uri: Option<String>,
}

/// Tokens from one authorization server.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Tokens {
    pub access_token: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    /// Seconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
    /// The scopes asked for (a step-up asks for these and the new ones).
    #[serde(default)]
    pub scopes: Vec<String>,
}

/// Everything kept for one authorization server of a server.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Grant {
    /// The resource the tokens are for (RFC 8707).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ServerMetadata>,
    /// Registered dynamically (a pre-registered client or a metadata document URL comes from the options each run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<Client>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Tokens>,
}

/// One server's file (one per server and the options that change what a
/// token is for: `--resource`, `--authorize-param`).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Entry {
    /// The server's canonical URL.
    pub server: String,
    /// What else tells this file from the server's others ("" for none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub variant: String,
    /// The issuer last authorized with: the one whose token is sent first next run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<String>,
    /// The issuer a client from the options (`--client-id`) was first used
    /// with: never sent to another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_issuer: Option<String>,
    /// By issuer.
    #[serde(default)]
    pub grants: BTreeMap<String, Grant>,
}

/// The folder of server files.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// `--oauth-store DIR`, else `oauth` in the user's config folder for the bridge.
    pub fn new(dir: Option<PathBuf>) -> Result<Store, String> {
        let dir = match dir {
            Some(dir) => dir,
            None => directories::ProjectDirs::from("", "", "mcp-era-bridge")
                .ok_or("no home folder to keep tokens in: give --oauth-store DIR")?
                .config_dir()
                .join("oauth"),
        };
        Ok(Store { dir })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of `server` (its canonical URL) and `variant`: the server's
    /// host, readable, and a digest of both (a URL may be longer than a file name may).
    fn path(&self, server: &str, variant: &str) -> PathBuf {
        use sha2::Digest;
        let host = url::Url::parse(server).ok().and_then(|u| u.host_str().map(String::from)).unwrap_or_default();
        let host: String = host.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '_' }).collect();
        let digest = sha2::Sha256::digest(format!("{server}\n{variant}").as_bytes());
        let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
        self.dir.join(format!("{host}-{hex}.json"))
    }

    /// What is kept for `server` and `variant`; nothing when there is no file yet.
    pub fn load(&self, server: &str, variant: &str) -> Result<Entry, String> {
        let path = self.path(server, variant);
        match std::fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Ok(Entry { server: server.into(), variant: variant.into(), ..Entry::default() })
            }
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// Writes `entry` whole: a file of the user's alone, renamed over the old one.
    pub fn save(&self, entry: &Entry) -> Result<(), String> {
        let path = self.path(&entry.server, &entry.variant);
        let fail = |e: std::io::Error| format!("{}: {e}", path.display());
        create_private_dir(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let text = serde_json::to_vec_pretty(entry).map_err(|e| e.to_string())?;
        // A name no one can guess, created new: nothing planted there can take the tokens.
        let temp = path.with_extension(format!("json.{}.tmp", uuid::Uuid::new_v4().simple()));
        {
            use std::io::Write;
            let mut file = private_file(&temp).map_err(fail)?;
            file.write_all(&text).and_then(|()| file.sync_all()).map_err(fail)?;
        }
        std::fs::rename(&temp, &path).map_err(|e| {
            let _ = std::fs::remove_file(&temp);
            fail(e)
        })
    }

    /// Holds the file of `server` and `variant` for this process alone (other
    /// bridges reading and writing it wait) until the guard is dropped.
    pub async fn lock(&self, server: &str, variant: &str) -> Result<std::fs::File, String> {
        create_private_dir(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let path = self.path(server, variant).with_extension("lock");
        let file = lock_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        tokio::task::spawn_blocking(move || file.lock().map(|()| file))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| format!("cannot lock {}: {e}", path.display()))
    }

    /// Forgets everything kept for `server`, whatever its variant (`--oauth-logout`); how many files there were.
    pub fn forget(&self, server: &str) -> Result<usize, String> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(format!("{}: {e}", self.dir.display())),
        };
        let mut forgot = 0;
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let Ok(bytes) = std::fs::read(&path) else { continue };
            let Ok(entry) = serde_json::from_slice::<Entry>(&bytes) else { continue };
            if entry.server == server {
                std::fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                forgot += 1;
            }
        }
        Ok(forgot)
    }
}

/// The folder, made the user's alone: created 0700, or, when it exists, refused
/// unless it is the user's, and closed to others if it was open.
#[cfg(unix)]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
    let meta = std::fs::metadata(dir)?;
    // SAFETY: getuid has no preconditions and cannot fail.
    let me = unsafe { libc::getuid() };
    if meta.uid() != me {
        return Err(std::io::Error::other(format!(
            "the folder is user {}'s, not yours: tokens are not kept there",
            meta.uid()
        )));
    }
    if meta.permissions().mode() & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}

#[cfg(unix)]
fn private_file(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)
}

#[cfg(not(unix))]
fn private_file(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().write(true).create_new(true).open(path)
}

#[cfg(unix)]
fn lock_file(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).mode(0o600).open(path)
}

#[cfg(not(unix))]
fn lock_file(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_kept_for_the_user_alone_per_server_and_issuer_and_forgotten_on_logout() {
        let dir = std::env::temp_dir().join(format!("mcp-era-bridge-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::new(Some(dir.join("oauth"))).unwrap();
        let server = "https://mcp.example.com/mcp";
        assert_eq!(store.load(server, "").unwrap(), Entry { server: server.into(), ..Entry::default() });
        let mut entry = store.load(server, "").unwrap();
        entry.current = Some("https://auth.example.com".into());
        entry.grants.entry("https://auth.example.com".into()).or_default().tokens = Some(Tokens {
            access_token: "a".into(),
            refresh_token: Some("r".into()),
            expires_at: Some(1),
            scopes: vec!["read".into()],
        });
        store.save(&entry).unwrap();
        assert_eq!(store.load(server, "").unwrap(), entry);
        assert_eq!(store.load("https://other.example.com/mcp", "").unwrap().grants.len(), 0, "another server's");
        assert_eq!(store.load(server, "resource=https://tenant1").unwrap().grants.len(), 0, "another variant's");
        let mut variant = entry.clone();
        variant.variant = "resource=https://tenant1".into();
        store.save(&variant).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&store.path(server, "")), 0o600);
            assert_eq!(mode(store.dir()), 0o700);
        }
        assert_eq!(std::fs::read_dir(store.dir()).unwrap().count(), 2, "no temporary file left");
        // A folder open to others is closed when tokens are written there.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(store.dir(), std::fs::Permissions::from_mode(0o755)).unwrap();
            store.save(&entry).unwrap();
            assert_eq!(std::fs::metadata(store.dir()).unwrap().permissions().mode() & 0o777, 0o700);
        }
        assert_eq!(store.forget(server).unwrap(), 2, "both variants");
        assert_eq!(store.forget(server).unwrap(), 0);
        assert_eq!(store.load(server, "").unwrap().grants.len(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
