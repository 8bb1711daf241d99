//! Output paths are checked before any work, `--output -` is standard output, and written files
//! get the permissions a plain `File::create` gives (or keep those of the file they replace).

use crate::common;
use common::*;

use std::path::Path;
use std::time::Duration;

/// A count no run finishes in a test's lifetime (10^12 games or hands): a command given it that
/// fails at all has failed before the work.
const NEVER_FINISHES: &str = "1e12";

/// Runs `tahur ARGS`, which must fail at once as a user mistake does (see [`fails`]) with a
/// message naming `path` and no temporary file. The time limit only turns a regression (the work
/// started) into a failure instead of a hung test.
fn fails_before_work(args: &[&str], path: &str) -> String {
    let out = output_within(tahur().args(args), Duration::from_secs(300));
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?}: should fail with 2 before any work (a signal means the work ran until the time limit); stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Exactly what `fails` checks: one line, nothing on stdout.
    let err = fails(args);
    assert!(err.contains(&format!("'{path}'")), "{args:?}: {err}");
    assert!(
        !err.contains(".tahur-"),
        "{args:?}: a temporary name: {err}"
    );
    err
}

#[test]
fn bad_output_paths_fail_before_any_work_in_every_command_family() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().display().to_string();
    let file = dir.path().join("a-file.txt");
    std::fs::write(&file, "x").unwrap();
    let file = file.display().to_string();
    let missing = dir.path().join("missing/out.txt").display().to_string();
    let missing_svg = dir.path().join("missing/chart.svg").display().to_string();
    let n = NEVER_FINISHES;
    let cases: Vec<(Vec<&str>, &str, &str)> = vec![
        (
            vec![
                "dudo",
                "sim",
                "--players",
                "6",
                "--games",
                n,
                "--output",
                &missing,
            ],
            &missing,
            "does not exist",
        ),
        (
            vec![
                "dudo",
                "sim",
                "--players",
                "6",
                "--games",
                n,
                "--output",
                &folder,
            ],
            &folder,
            "is a folder",
        ),
        (
            vec![
                "dudo",
                "sim",
                "--players",
                "3",
                "--games",
                n,
                "--length-chart",
                &missing_svg,
            ],
            &missing_svg,
            "does not exist",
        ),
        (
            vec![
                "dudo",
                "prob",
                "15",
                "cuadras",
                "--dice",
                "30",
                "--samples",
                n,
                "--output",
                &missing,
            ],
            &missing,
            "does not exist",
        ),
        (
            vec!["dudo", "table", "--players", "6", "--output", &missing],
            &missing,
            "does not exist",
        ),
        (
            vec!["dudo", "table", "--players", "6", "--chart", &folder],
            &folder,
            "is a folder",
        ),
        (
            vec![
                "durak",
                "flags",
                "--players",
                "4",
                "--games",
                n,
                "--chart",
                &missing_svg,
            ],
            &missing_svg,
            "does not exist",
        ),
        (
            vec![
                "durak",
                "sim",
                "--players",
                "3",
                "--games",
                n,
                "--strategy-chart",
                &missing_svg,
            ],
            &missing_svg,
            "does not exist",
        ),
        (
            // The most samples strategy takes: hours of work if it started.
            vec![
                "veintiuno",
                "strategy",
                "--samples",
                "1e7",
                "--write",
                &missing,
            ],
            &missing,
            "does not exist",
        ),
        (
            vec![
                "veintiuno",
                "sim",
                "--players",
                "4",
                "--hands",
                n,
                "--output",
                &folder,
            ],
            &folder,
            "is a folder",
        ),
        (
            vec!["dudo", "sheets", "--out-dir", &file],
            &file,
            "is a file, not a folder",
        ),
        (
            vec![
                "dudo",
                "tune",
                "--players",
                "2",
                "--games",
                n,
                "--out-dir",
                &file,
            ],
            &file,
            "is a file, not a folder",
        ),
        (
            vec![
                "dudo",
                "sim",
                "--players",
                "4",
                "--games",
                n,
                "--shard",
                "1/4",
                "--output",
                &missing,
            ],
            &missing,
            "does not exist",
        ),
        (
            // The output is checked before the shard files are read.
            vec!["merge", "/nonexistent/part1.json", "--output", &missing],
            &missing,
            "does not exist",
        ),
    ];
    for (args, path, says) in &cases {
        let err = fails_before_work(args, path);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        left,
        ["a-file.txt"],
        "nothing written, no probe left behind"
    );
}

#[test]
fn charts_and_sheets_cannot_go_to_standard_output() {
    let err = fails(&["dudo", "table", "--players", "4", "--chart", "-"]);
    assert!(
        err.contains("--chart -") && err.contains("only --output"),
        "{err}"
    );
}

#[test]
fn output_dash_is_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "dudo", "prob", "15", "cuadras", "--dice", "30", "--format", "json",
    ];
    let plain = stdout(&args);
    let out = tahur()
        .current_dir(dir.path())
        .args(args)
        .args(["--output", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), plain);
    // A shard's partial result too.
    let shard = tahur()
        .current_dir(dir.path())
        .args([
            "dudo",
            "prob",
            "15",
            "cuadras",
            "--dice",
            "30",
            "--samples",
            "1000",
        ])
        .args(["--shard", "1/2", "--output", "-"])
        .output()
        .unwrap();
    assert!(shard.status.success());
    let partial: serde_json::Value = serde_json::from_slice(&shard.stdout).unwrap();
    assert!(partial.is_object());
    assert!(
        !dir.path().join("-").exists(),
        "no file named '-' was created"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn unwritable_folders_are_refused_before_any_work() {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let locked = dir.path().join("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
        if std::fs::write(locked.join("probe"), "x").is_ok() {
            // Running as root: every folder is writable; nothing to test.
            return;
        }
        let target = locked.join("out.txt").display().to_string();
        let err = fails_before_work(
            &[
                "dudo",
                "sim",
                "--players",
                "4",
                "--games",
                NEVER_FINISHES,
                "--output",
                &target,
            ],
            &target,
        );
        assert!(err.contains("cannot create files"), "{err}");
        let sub = locked.join("sheets").display().to_string();
        let err = fails_before_work(&["dudo", "sheets", "--out-dir", &sub], &sub);
        assert!(err.contains("cannot create it"), "{err}");
        // `--out`, the folder flag's old name, is the same flag and checked the same way.
        let err = fails_before_work(&["dudo", "sheets", "--out", &sub], &sub);
        assert!(
            err.contains("--out-dir") && err.contains("cannot create it"),
            "{err}"
        );
    }
}

/// Runs `tahur ARGS` under `umask MASK` (in a shell, so the test process keeps its own).
#[cfg(unix)]
fn with_umask(mask: &str, args: &[&str]) {
    let bin = common::TAHUR;
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("umask {mask}; exec \"$0\" \"$@\""))
        .arg(bin)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[cfg(unix)]
#[test]
fn written_files_follow_the_umask_and_keep_the_mode_they_replace() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("table.csv");
    let chart = dir.path().join("table.svg");
    let part = dir.path().join("part1.json");
    let (r, c, p) = (
        report.display().to_string(),
        chart.display().to_string(),
        part.display().to_string(),
    );
    let table = [
        "dudo",
        "table",
        "--players",
        "3",
        "--format",
        "csv",
        "--output",
        &r,
        "--chart",
        &c,
    ];
    let shard = [
        "dudo",
        "prob",
        "5",
        "cuadras",
        "--dice",
        "15",
        "--samples",
        "1000",
        "--shard",
        "1/2",
        "--output",
        &p,
    ];
    with_umask("022", &table);
    with_umask("022", &shard);
    for f in [&report, &chart, &part] {
        assert_eq!(mode(f), 0o644, "{}", f.display());
    }
    with_umask(
        "027",
        &[
            "dudo",
            "sheets",
            "--out-dir",
            &dir.path().join("sheets").display().to_string(),
        ],
    );
    let sheet = dir.path().join("sheets/chimbo9/table-2p.csv");
    assert_eq!(mode(&sheet), 0o640, "{}", sheet.display());
    // Replacing a file keeps its mode, whatever the umask.
    std::fs::set_permissions(&report, std::fs::Permissions::from_mode(0o640)).unwrap();
    std::fs::set_permissions(&chart, std::fs::Permissions::from_mode(0o664)).unwrap();
    with_umask("022", &table);
    assert_eq!(mode(&report), 0o640);
    assert_eq!(mode(&chart), 0o664);
    assert!(std::fs::read_to_string(&report)
        .unwrap()
        .starts_with("table,row,figure,value\n"));
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().all(|n| !n.starts_with(".tahur-")),
        "no temporary file left: {names:?}"
    );
}

/// The report `tahur dudo table --players 2 --format json` prints on standard output.
#[cfg(unix)]
const TABLE: [&str; 5] = ["dudo", "table", "--players", "2", "--format"];

#[cfg(unix)]
fn table_to(path: &Path) -> std::process::Output {
    let out = output_within(
        tahur().args(TABLE).args(["json", "--output"]).arg(path),
        Duration::from_secs(120),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[cfg(unix)]
#[test]
fn a_fifo_stays_a_fifo_and_its_reader_gets_the_report() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let expected = stdout(&[TABLE[0], TABLE[1], TABLE[2], TABLE[3], TABLE[4], "json"]);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    table_to(&fifo);
    assert_eq!(reader.join().unwrap(), expected);
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "replaced by {kind:?}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[cfg(unix)]
#[test]
fn a_device_node_stays_a_device() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let null = dir.path().join("null");
    // A copy of /dev/null (major 1, minor 3); making one needs root (CAP_MKNOD).
    let made = std::process::Command::new("mknod")
        .arg(&null)
        .args(["c", "1", "3"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!("skipped: mknod needs root here");
        return;
    }
    std::fs::set_permissions(&null, std::os::unix::fs::PermissionsExt::from_mode(0o666)).unwrap();
    let out = table_to(&null);
    assert!(out.stdout.is_empty());
    let kind = std::fs::symlink_metadata(&null).unwrap().file_type();
    assert!(kind.is_char_device(), "replaced by {kind:?}");
    assert_eq!(std::fs::metadata(&null).unwrap().len(), 0);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[cfg(unix)]
#[test]
fn a_symlink_stays_a_link_and_its_target_gets_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let expected = stdout(&[TABLE[0], TABLE[1], TABLE[2], TABLE[3], TABLE[4], "json"]);
    std::fs::create_dir(dir.path().join("real")).unwrap();
    let target = dir.path().join("real/out.json");
    let link = dir.path().join("out.json");
    std::os::unix::fs::symlink("real/out.json", &link).unwrap();
    // Dangling first (the target is created), then over an existing target (it is replaced).
    for _ in 0..2 {
        table_to(&link);
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), expected);
        assert_eq!(
            std::fs::read_dir(dir.path().join("real")).unwrap().count(),
            1
        );
    }
    // A link to this process's standard output writes there.
    let fd1 = dir.path().join("fd1");
    std::os::unix::fs::symlink("/proc/self/fd/1", &fd1).unwrap();
    if Path::new("/proc/self/fd/1").exists() {
        let out = table_to(&fd1);
        assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    }
}

#[cfg(unix)]
#[test]
fn temporary_files_of_killed_processes_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    // Left by a process killed between creating its temporary file and renaming it (no process
    // id reaches 99 999 999), in the name format of an earlier version too.
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default();
    let mut stale = vec![dir.path().join(".tahur-99999999-0-5f")];
    if !host.is_empty() {
        stale.push(dir.path().join(format!(".tahur-99999999-1-5f-{host}")));
    }
    for p in &stale {
        std::fs::write(p, "half a report").unwrap();
    }
    table_to(&dir.path().join("out.json"));
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["out.json"]);
}

/// Whether this test runs as root (who may make devices, set flags and run as another user).
#[cfg(unix)]
fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

#[cfg(unix)]
#[test]
fn files_this_user_cannot_replace_are_refused_before_any_work() {
    use std::os::unix::process::CommandExt;
    if !is_root() {
        eprintln!("skipped: needs root to make a file of another user or an immutable one");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sticky = dir.path().join("sticky");
    std::fs::create_dir(&sticky).unwrap();
    let perm = std::os::unix::fs::PermissionsExt::from_mode;
    std::fs::set_permissions(dir.path(), perm(0o755)).unwrap();
    std::fs::set_permissions(&sticky, perm(0o1777)).unwrap();
    let theirs = sticky.join("out.json");
    std::fs::write(&theirs, "root's").unwrap();
    std::fs::set_permissions(&theirs, perm(0o666)).unwrap();
    let shown = theirs.display().to_string();
    // As user 65534 (nobody): the folder takes new files, the file is writable, but the rename
    // that replaces it would fail (EPERM) after the work.
    let out = output_within(
        tahur()
            .uid(65534)
            .gid(65534)
            .args(["dudo", "sim", "--players", "6", "--games", NEVER_FINISHES])
            .args(["--output", &shown]),
        Duration::from_secs(300),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    if err.contains("Permission denied") && !err.contains(&shown) {
        eprintln!("skipped: user 65534 cannot run the test binary here: {err}");
        return;
    }
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("'{shown}'")) && err.contains("sticky"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&theirs).unwrap(), "root's");

    // An immutable file (chattr +i), which not even root may replace.
    let fixed = dir.path().join("fixed.json");
    std::fs::write(&fixed, "kept").unwrap();
    let flagged = std::process::Command::new("chattr")
        .arg("+i")
        .arg(&fixed)
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !flagged {
        eprintln!("skipped: this file system takes no immutable flag");
        return;
    }
    let shown = fixed.display().to_string();
    let err = fails_before_work(
        &[
            "dudo",
            "sim",
            "--players",
            "6",
            "--games",
            NEVER_FINISHES,
            "--output",
            &shown,
        ],
        &shown,
    );
    let _ = std::process::Command::new("chattr")
        .arg("-i")
        .arg(&fixed)
        .status();
    assert!(err.contains("immutable"), "{err}");
}

/// Commands that write files write them only where asked: with no `--out-dir` they refuse at
/// once (exit 2, naming the flag) and leave the folder they run in empty. They used to write
/// into `./data/<game>` wherever they ran.
#[test]
fn folder_writers_write_only_where_asked() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["dudo", "sheets"][..],
        &["dudo", "tune", "--players", "2", "--games", "10"],
        &["poker", "sheet"],
        &["poker", "tune", "--players", "2", "--games", "10"],
        &["durak", "sheet", "--games", "10"],
        &["domino", "sheet", "--games", "10"],
        &["ocho", "sheet", "--games", "10"],
    ] {
        let out = output_within(
            tahur().args(args).current_dir(dir.path()),
            Duration::from_secs(120),
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("--out-dir"), "{args:?}: {err}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{args:?} wrote {left:?}");
    }
    // Given a folder, they write there and nowhere else (the smallest run that writes).
    let out = output_within(
        tahur()
            .args(["poker", "sheet", "--out-dir", "claims"])
            .current_dir(dir.path()),
        Duration::from_secs(300),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let top: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(top, ["claims"]);
    assert!(dir.path().join("claims/sheet.csv").is_file());
    assert!(dir.path().join("claims/sheet.md").is_file());
}
