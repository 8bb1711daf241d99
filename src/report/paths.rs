//! Output paths checked before any work: a run of minutes must not end in "cannot write".
//!
//! [`check_file`] accepts a file whose folder exists and takes new files (tried by creating and
//! removing a temporary file there) and which is not itself a folder; [`check_folder`] accepts a
//! folder that exists and takes new files, or that can be created under one that does. Messages
//! name the flag and the user's path, never a temporary file, and say what is accepted.

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
    let dir = folder_of(path);
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
    })
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

/// A new, empty temporary file `.tahur-…` in `dir` and its path. It is created as `File::create`
/// creates files (on Unix 0666 less the process umask, where `tempfile` would give 0600), and its
/// errors are the system's, with no path in them.
pub(crate) fn create_temp(dir: &Path) -> io::Result<(PathBuf, File)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let salt = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    for _ in 0..100 {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!(".tahur-{}-{n}-{salt:x}", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::from(io::ErrorKind::AlreadyExists))
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
}
