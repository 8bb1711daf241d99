//! Output paths checked before any work: a run of minutes must not end in "cannot write".
//!
//! [`check_file`] accepts a file whose folder exists and takes new files (tried by creating and
//! removing a temporary file there), which is not itself a folder and which this user may replace
//! (not immutable, not another user's in a sticky folder); a device, FIFO or terminal must be
//! writable, since it is written directly ([`target_of`]). [`check_folder`] accepts a folder that
//! exists and takes new files, or that can be created under one that does. Messages name the flag
//! and the user's path, never a temporary file, and say what is accepted.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::{Error, Result};

/// Whether `path` means standard output (`--output -`).
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Checks that `flag`'s `path` can be written as a file (atomically: a temporary file in the same
/// folder, then a rename). With `stdout_ok`, `-` (standard output) is accepted too.
pub fn check_file(flag: &str, path: &Path, stdout_ok: bool) -> Result<()> {
    let shown = path.display();
    let accepted = if stdout_ok {
        "give a file in an existing, writable folder, or - for standard output"
    } else {
        "give a file in an existing, writable folder"
    };
    if is_stdout(path) {
        return if stdout_ok {
            Ok(())
        } else {
            Err(Error::usage(format!(
                "{flag} -: only --output can go to standard output; {accepted}"
            )))
        };
    }
    if path.as_os_str().is_empty() {
        return Err(Error::usage(format!("{flag} is empty; {accepted}")));
    }
    if path.is_dir() || ends_with_separator(path) {
        return Err(Error::usage(format!(
            "{flag} '{shown}' is a folder; give a file path, e.g. '{}'{}",
            path.join("out.txt").display(),
            if stdout_ok {
                ", or - for standard output"
            } else {
                ""
            }
        )));
    }
    let real = match target_of(path) {
        Target::Direct(p) => {
            return writable(&p).map_err(|e| {
                Error::usage(format!(
                    "{flag} '{shown}': cannot write to it ({e}); {accepted}"
                ))
            })
        }
        Target::Replace(real) => real,
    };
    let dir = folder_of(&real);
    if !dir.exists() {
        return Err(Error::usage(format!(
            "{flag} '{shown}': the folder '{}' does not exist; {accepted}",
            dir.display()
        )));
    }
    if !dir.is_dir() {
        return Err(Error::usage(format!(
            "{flag} '{shown}': '{}' is not a folder; {accepted}",
            dir.display()
        )));
    }
    takes_files(&dir).map_err(|e| {
        Error::usage(format!(
            "{flag} '{shown}': cannot create files in the folder '{}' ({e}); {accepted}",
            dir.display()
        ))
    })?;
    replaceable(&real, &dir).map_err(|why| {
        Error::usage(format!(
            "{flag} '{shown}' cannot be replaced: {why}; {accepted} and a file this user may replace"
        ))
    })
}

/// How a result reaches an output path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A device, FIFO, terminal or other special file: opened and written in place (a rename
    /// would replace the special file by a regular one).
    Direct(PathBuf),
    /// A regular file, or nothing yet: written to a temporary file in the same folder and renamed
    /// over this path, the end of the path's symlinks (the link stays, its target is replaced).
    Replace(PathBuf),
}

/// How writing to `path` proceeds: see [`Target`]. A path that cannot be examined is treated as
/// a file to replace, so the write reports the system's error.
pub fn target_of(path: &Path) -> Target {
    match std::fs::metadata(path) {
        // `metadata` follows links: `/proc/self/fd/1` to a pipe or terminal is special too, and
        // opening the link itself (not its target's name, which may be `pipe:[…]`) reaches it.
        Ok(m) if !m.is_file() && !m.is_dir() => Target::Direct(path.to_path_buf()),
        _ => Target::Replace(resolve_links(path).unwrap_or_else(|_| path.to_path_buf())),
    }
}

/// `path` with its own symlinks followed to the end (also when the last target does not exist
/// yet): the file a rename must replace for the link to see the new content.
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    // As the kernel does, give up after 40 links (a loop).
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = if to.is_absolute() {
                    to
                } else {
                    folder_of(&p).join(to)
                };
            }
            // The existing end of the chain, canonical, so that its folder is the real one.
            Ok(_) => return std::fs::canonicalize(&p).or(Ok(p)),
            Err(_) => return Ok(p),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Whether this process may write to the special file `path` (permission bits and ownership;
/// opening a FIFO to try would wait for a reader).
fn writable(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(path.as_os_str().as_bytes())
            .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
        // SAFETY: `c` is a valid NUL-terminated string for the duration of the call.
        if unsafe { libc::access(c.as_ptr(), libc::W_OK) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
    #[cfg(not(unix))]
    {
        OpenOptions::new().write(true).open(path).map(drop)
    }
}

/// Whether a rename in `dir` may replace the existing regular file `real`: not immutable or
/// append-only (opening it for writing then fails with EPERM, even for root), and not another
/// user's file in a sticky folder (`/tmp`) that this user does not own either. `Err` says why.
fn replaceable(real: &Path, dir: &Path) -> std::result::Result<(), String> {
    let Ok(meta) = std::fs::metadata(real) else {
        return Ok(());
    };
    if let Err(e) = OpenOptions::new().write(true).open(real) {
        // EACCES (mode bits) does not stop a rename; EPERM on open is the immutable flag.
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::EPERM) {
            return Err(format!("it is immutable or append-only ({e})"));
        }
        let _ = e;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        if let Ok(d) = std::fs::metadata(dir) {
            if me != 0 && d.mode() & 0o1000 != 0 && meta.uid() != me && d.uid() != me {
                return Err(format!(
                    "it belongs to user {} in the sticky folder '{}', where only a file's owner may replace it",
                    meta.uid(),
                    dir.display()
                ));
            }
        }
    }
    let _ = meta;
    Ok(())
}

/// Checks that `flag`'s `path` is a folder files can be written into: one that exists and takes
/// new files, or one that can be created (its nearest existing ancestor is a writable folder).
pub fn check_folder(flag: &str, path: &Path) -> Result<()> {
    let shown = path.display();
    let accepted = "give a writable folder (created if missing)";
    if path.as_os_str().is_empty() {
        return Err(Error::usage(format!("{flag} is empty; {accepted}")));
    }
    let mut existing = path.to_path_buf();
    while !existing.exists() {
        let up = folder_of(&existing);
        if up == existing {
            break;
        }
        existing = up;
    }
    if !existing.exists() {
        return Err(Error::usage(format!(
            "{flag} '{shown}': no part of it exists; {accepted}"
        )));
    }
    if !existing.is_dir() {
        return Err(Error::usage(if existing == path {
            format!("{flag} '{shown}' is a file, not a folder; {accepted}")
        } else {
            format!(
                "{flag} '{shown}': '{}' is a file, not a folder; {accepted}",
                existing.display()
            )
        }));
    }
    takes_files(&existing).map_err(|e| {
        Error::usage(if existing == path {
            format!("{flag} '{shown}': cannot create files in it ({e}); {accepted}")
        } else {
            format!(
                "{flag} '{shown}': cannot create it in '{}' ({e}); {accepted}",
                existing.display()
            )
        })
    })
}

/// The folder a file `path` goes into (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        Some(_) => PathBuf::from("."),
        // The root, or a path ending in `..`: its own folder is as far as one can go.
        None => path.to_path_buf(),
    }
}

/// `foo/` names a folder even when there is none yet.
fn ends_with_separator(path: &Path) -> bool {
    let s = path.as_os_str().to_string_lossy();
    s.ends_with('/') || (cfg!(windows) && s.ends_with('\\'))
}

/// Creates and removes a temporary file in `dir`, as the atomic write will.
fn takes_files(dir: &Path) -> io::Result<()> {
    let (path, file) = create_temp(dir)?;
    drop(file);
    std::fs::remove_file(path)
}

/// A new, empty temporary file `.tahur-PID-N-SALT-HOST` in `dir` and its path. It is created as
/// `File::create` creates files (on Unix 0666 less the process umask, where `tempfile` would give
/// 0600), and its errors are the system's, with no path in them. The process id and host name let
/// [`remove_stale_temps`] tell a file left by a killed process from one being written.
pub(crate) fn create_temp(dir: &Path) -> io::Result<(PathBuf, File)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let salt = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    for _ in 0..100 {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!(
            ".tahur-{}-{n}-{salt:x}-{}",
            std::process::id(),
            host_name()
        ));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::from(io::ErrorKind::AlreadyExists))
}

/// This machine's name, reduced to letters, digits, `.` and `-` (shared folders on a cluster
/// see the temporary files of every node; only this node's processes can be checked).
fn host_name() -> &'static str {
    static NAME: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    NAME.get_or_init(|| {
        #[cfg(unix)]
        let raw = {
            let mut buf = [0u8; 256];
            // SAFETY: the buffer is writable for its whole length; the name is cut at its NUL.
            let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len() - 1) } == 0;
            let end = buf.iter().position(|&b| b == 0).unwrap_or(0);
            if ok {
                String::from_utf8_lossy(&buf[..end]).into_owned()
            } else {
                String::new()
            }
        };
        #[cfg(not(unix))]
        let raw = std::env::var("COMPUTERNAME").unwrap_or_default();
        let name: String = raw
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-')
            .collect();
        if name.is_empty() {
            "host".into()
        } else {
            name
        }
    })
}

/// Whether process `pid` runs on this machine (it may belong to another user).
fn process_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        if pid <= 0 {
            return false;
        }
        // SAFETY: signal 0 only checks that the process exists and may be signalled.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        // No cheap check: keep every file.
        let _ = pid;
        true
    }
}

/// The process id in a temporary file's name if the file was made on this machine (or by a
/// version that did not name the host): `.tahur-PID-N-SALT[-HOST]`.
fn temp_owner(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(".tahur-")?;
    let mut parts = rest.splitn(4, '-');
    let pid = parts.next()?.parse().ok()?;
    parts.next()?.parse::<u64>().ok()?;
    u32::from_str_radix(parts.next()?, 16).ok()?;
    match parts.next() {
        None => Some(pid),
        Some(host) if host == host_name() => Some(pid),
        Some(_) => None,
    }
}

/// Removes from `dir` the temporary files of processes of this machine that no longer run (a
/// process killed between creating its temporary file and renaming it leaves one behind).
pub(crate) fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temp_owner) else {
            continue;
        };
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if is_file && !process_alive(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_need_an_existing_writable_folder_and_no_temporary_names_are_shown() {
        let dir = tempfile::tempdir().unwrap();
        let ok = dir.path().join("out.txt");
        check_file("--output", &ok, true).unwrap();
        check_file("--output", Path::new("-"), true).unwrap();
        let e = check_file("--chart", Path::new("-"), false).unwrap_err();
        assert!(e.to_string().contains("only --output"), "{e}");
        let missing = dir.path().join("missing/out.txt");
        let e = check_file("--output", &missing, true)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&missing.display().to_string()) && e.contains("does not exist"),
            "{e}"
        );
        let e = check_file("--output", dir.path(), true)
            .unwrap_err()
            .to_string();
        assert!(e.contains("is a folder"), "{e}");
        let e = check_file("--output", Path::new("newdir/"), true).unwrap_err();
        assert!(e.to_string().contains("is a folder"), "{e}");
        std::fs::write(&ok, "x").unwrap();
        let e = check_file("--output", &ok.join("y.txt"), true)
            .unwrap_err()
            .to_string();
        assert!(e.contains("is not a folder"), "{e}");
        assert!(!e.contains(".tahur-"), "{e}");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "the probe leaves nothing behind"
        );
    }

    #[test]
    fn folders_exist_or_can_be_created() {
        let dir = tempfile::tempdir().unwrap();
        check_folder("--out", dir.path()).unwrap();
        check_folder("--out", &dir.path().join("a/b/c")).unwrap();
        assert!(!dir.path().join("a").exists(), "checking creates nothing");
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let e = check_folder("--out", &file).unwrap_err().to_string();
        assert!(e.contains("is a file, not a folder"), "{e}");
        let e = check_folder("--out", &file.join("sub"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("is a file, not a folder") && e.contains("sub"),
            "{e}"
        );
    }

    #[test]
    fn temporary_files_are_new_and_their_errors_name_no_path() {
        let dir = tempfile::tempdir().unwrap();
        let (a, _) = create_temp(dir.path()).unwrap();
        let (b, _) = create_temp(dir.path()).unwrap();
        assert_ne!(a, b);
        let e = create_temp(&dir.path().join("missing"))
            .unwrap_err()
            .to_string();
        assert!(!e.contains("missing") && !e.contains(".tahur-"), "{e}");
    }

    #[test]
    fn stale_temporary_files_of_dead_processes_go_and_others_stay() {
        let dir = tempfile::tempdir().unwrap();
        let (ours, _) = create_temp(dir.path()).unwrap();
        // A process id above the kernel's maximum (4 194 304) never runs.
        let host = host_name();
        let dead = dir.path().join(format!(".tahur-99999999-0-1f-{host}"));
        let dead_old_format = dir.path().join(".tahur-99999999-3-ab");
        let other_host = dir.path().join(".tahur-99999999-0-1f-elsewhere");
        let not_ours = dir.path().join(".tahur-notes");
        for p in [&dead, &dead_old_format, &other_host, &not_ours] {
            std::fs::write(p, "x").unwrap();
        }
        remove_stale_temps(dir.path());
        assert!(ours.exists(), "this process runs");
        assert!(!dead.exists() && !dead_old_format.exists());
        assert!(
            other_host.exists(),
            "another node's process cannot be checked"
        );
        assert!(not_ours.exists());
        assert_eq!(temp_owner(&format!(".tahur-12-0-1f-{host}")), Some(12));
        assert_eq!(temp_owner(".tahur-12-x-1f"), None);
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_written_in_place_and_links_resolved() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            target_of(Path::new("/dev/null")),
            Target::Direct("/dev/null".into())
        );
        let file = dir.path().join("f.txt");
        let real_dir = std::fs::canonicalize(dir.path()).unwrap();
        assert_eq!(target_of(&file), Target::Replace(file.clone()));
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("f.txt", &link).unwrap();
        // A dangling link: its target is the file to create.
        assert_eq!(target_of(&link), Target::Replace(dir.path().join("f.txt")));
        std::fs::write(&file, "x").unwrap();
        assert_eq!(target_of(&link), Target::Replace(real_dir.join("f.txt")));
        let lp = dir.path().join("loop");
        std::os::unix::fs::symlink("loop", &lp).unwrap();
        assert_eq!(target_of(&lp), Target::Replace(lp.clone()));
    }
}
