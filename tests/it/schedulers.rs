//! The batch-scheduler examples run as the schedulers would run them: every task of the Slurm
//! array script and every index of the Kubernetes Indexed Job is started here with the variables
//! its scheduler sets (`SLURM_ARRAY_TASK_*`, `JOB_COMPLETION_INDEX`), then the example's merge;
//! the merged report and chart must be exactly the unsharded run's.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// A small run (20 chunks of 1,024 games, so every one of 16 shards gets some) instead of the
/// examples' 1e9 games; the seed stays the example's own.
const GAMES: &str = "20000";

fn example(path: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `PATH` with the tahur under test first, as an installed `tahur` would be.
fn path_with_tahur() -> String {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_tahur"));
    let dir = bin.parent().unwrap().display().to_string();
    format!("{dir}:{}", std::env::var("PATH").unwrap_or_default())
}

/// Runs a shell script (`bash FILE` or `sh -c TEXT`) with these variables; it must succeed.
fn run(mut cmd: Command, vars: &[(&str, String)]) -> String {
    cmd.env("PATH", path_with_tahur());
    for var in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_COUNT",
        "JOB_COMPLETION_INDEX",
    ] {
        cmd.env_remove(var);
    }
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{cmd:?}: {err}");
    err
}

/// The whole run the shards split, unsharded, in `format`, and its chart.
fn unsharded(seed: &str, format: &str, chart: &Path) -> String {
    common::stdout(&[
        "durak",
        "flags",
        "--players",
        "4",
        "--games",
        GAMES,
        "--seed",
        seed,
        "--format",
        format,
        "--chart",
        chart.to_str().unwrap(),
    ])
}

/// `VAR=${VAR:-value}` in a script: the example's default.
fn default_of(script: &str, var: &str) -> String {
    let start = format!("{var}=${{{var}:-");
    let line = script
        .lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("{var}"));
    line[start.len()..].trim_end_matches('}').to_string()
}

#[test]
fn slurm_array_script_shards_and_merges_to_the_unsharded_run() {
    let shards = example("slurm/shards.sbatch");
    let merge = example("slurm/merge.sbatch");
    // The array as the script asks for it: #SBATCH --array=A-B.
    let array = shards
        .lines()
        .find_map(|l| l.strip_prefix("#SBATCH --array="))
        .expect("the script sets its array");
    let (a, b) = array.split_once('-').unwrap();
    let (first, last): (u32, u32) = (a.parse().unwrap(), b.parse().unwrap());
    let count = last - first + 1;
    assert_eq!(default_of(&shards, "SHARDS"), count.to_string());
    // The CPUs come from submit.sh (CPUS, a small default), never a fixed 8 a node may lack;
    // the time limit's signal reaches tahur, which `exec` made the batch script.
    assert!(!shards.contains("--cpus-per-task"), "{shards}");
    assert!(shards.contains("#SBATCH --signal=B:TERM@"), "{shards}");
    assert!(shards.contains("%A_%a"), "log names per array job and task");
    let seed = default_of(&shards, "SEED");
    let dir = tempfile::tempdir().unwrap();
    // Submitted as submit.sh does: from this folder, the array job 4242.
    let task = |id: u32, extra: &[(&'static str, String)]| {
        let mut cmd = Command::new("bash");
        cmd.arg("-c").arg(&shards).current_dir(dir.path());
        let mut vars = vec![
            ("GAMES", GAMES.to_string()),
            ("SLURM_CPUS_PER_TASK", "1".to_string()),
            ("SLURM_ARRAY_JOB_ID", "4242".to_string()),
            ("SLURM_ARRAY_TASK_ID", id.to_string()),
            ("SLURM_ARRAY_TASK_MIN", first.to_string()),
            ("SLURM_ARRAY_TASK_STEP", "1".to_string()),
            ("SLURM_ARRAY_TASK_COUNT", count.to_string()),
        ];
        vars.extend(extra.iter().cloned());
        cmd.env_remove("SHARDS_DIR")
            .env_remove("SHARD")
            .env_remove("SLURM_ARRAY_TASK_STEP");
        (cmd, vars)
    };
    for id in first..=last {
        let (cmd, vars) = task(id, &[]);
        let err = run(cmd, &vars);
        // The task's log says which block of the run it holds.
        let shard = format!("is shard {}/{count}", id - first + 1);
        assert!(err.contains(&shard), "{err}");
    }
    // The run's own folder, named by the array job: one file per shard, named by the shard.
    let shards_dir = dir.path().join("tahur-shards-4242");
    let mut names: Vec<String> = std::fs::read_dir(&shards_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let mut expected: Vec<String> = (1..=count).map(|k| format!("part-{k}.json")).collect();
    expected.sort();
    assert_eq!(names, expected);

    // Re-running shard 3 as the script's comment says (a lone `--array=2` task, SHARD given)
    // writes the same file again, byte for byte.
    let third = shards_dir.join("part-3.json");
    let before = std::fs::read(&third).unwrap();
    std::fs::remove_file(&third).unwrap();
    let (cmd, vars) = task(
        first + 2,
        &[
            ("SLURM_ARRAY_TASK_MIN", (first + 2).to_string()),
            ("SLURM_ARRAY_TASK_COUNT", "1".to_string()),
            ("SHARD", format!("3/{count}")),
            ("SHARDS_DIR", shards_dir.display().to_string()),
        ],
    );
    run(cmd, &vars);
    assert_eq!(std::fs::read(&third).unwrap(), before);
    // The same lone task without SHARD is refused (exit 2), not run as a whole run of 1 shard.
    let (mut cmd, vars) = task(
        first + 2,
        &[
            ("SLURM_ARRAY_TASK_MIN", (first + 2).to_string()),
            ("SLURM_ARRAY_TASK_COUNT", "1".to_string()),
            ("SHARDS_DIR", shards_dir.display().to_string()),
        ],
    );
    cmd.env("PATH", path_with_tahur());
    let out = cmd.envs(vars).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        std::fs::read(&third).unwrap(),
        before,
        "nothing overwritten"
    );

    let mut cmd = Command::new("bash");
    cmd.arg("-c").arg(&merge);
    run(cmd, &[("SHARDS_DIR", shards_dir.display().to_string())]);

    let whole_chart = dir.path().join("whole.svg");
    let whole = unsharded(&seed, "markdown", &whole_chart);
    let merged = std::fs::read_to_string(shards_dir.join("report.md")).unwrap();
    assert_eq!(
        merged, whole,
        "the merged report differs from the unsharded run"
    );
    let chart = std::fs::read(shards_dir.join("flags.svg")).unwrap();
    assert_eq!(
        chart,
        std::fs::read(&whole_chart).unwrap(),
        "the merged chart differs"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(shards_dir.join("report.json")).unwrap())
            .unwrap();
    assert_eq!(json["games"], 20000);
    assert_eq!(json["seed"].to_string(), seed);
}

#[test]
fn slurm_submit_script_asks_few_cpus_and_gives_the_merge_the_runs_folder() {
    let dir = tempfile::tempdir().unwrap();
    // A stand-in for sbatch: records its arguments, answers as `sbatch --parsable` does.
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let log = dir.path().join("sbatch.log");
    let fake = bin.join("sbatch");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\necho '4242;cluster'\n",
            log.display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/slurm/submit.sh");
    let submit = |cpus: Option<&str>| {
        let _ = std::fs::remove_file(&log);
        let mut cmd = Command::new("bash");
        cmd.arg(&script).current_dir(dir.path()).env(
            "PATH",
            format!(
                "{}:{}",
                bin.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        );
        cmd.env_remove("CPUS");
        if let Some(c) = cpus {
            cmd.env("CPUS", c);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            String::from_utf8(out.stdout).unwrap(),
            std::fs::read_to_string(&log).unwrap(),
        )
    };
    let here = script.parent().unwrap().display().to_string();
    let folder = dir.path().join("tahur-shards-4242").display().to_string();
    let (said, calls) = submit(None);
    let calls: Vec<&str> = calls.lines().collect();
    assert_eq!(
        calls,
        [
            format!("--parsable --cpus-per-task=2 {here}/shards.sbatch"),
            format!(
                "--dependency=afterany:4242 --export=ALL,SHARDS_DIR={folder} {here}/merge.sbatch"
            ),
        ]
    );
    assert!(said.contains(&folder), "{said}");
    let (_, calls) = submit(Some("8"));
    assert!(
        calls.starts_with("--parsable --cpus-per-task=8 "),
        "{calls}"
    );
}

/// The text of the block scalar (`- |`) that follows `after` in a manifest, dedented.
fn block_after(manifest: &str, after: &str) -> String {
    let start = manifest.find(after).unwrap_or_else(|| panic!("{after}"));
    let mut lines = manifest[start..]
        .lines()
        .skip_while(|l| !l.trim_end().ends_with("- |"));
    lines.next().expect("a `- |` block");
    let body: Vec<&str> = lines
        .take_while(|l| l.trim().is_empty() || l.starts_with("              "))
        .collect();
    body.iter()
        .map(|l| l.get(14..).unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The value of `name:` (a number or a quoted string) after `after` in a manifest.
fn field_after(manifest: &str, after: &str, name: &str) -> String {
    let start = manifest.find(after).unwrap_or_else(|| panic!("{after}"));
    let key = format!("{name}:");
    let line = manifest[start..]
        .lines()
        .find(|l| l.trim().starts_with(&key))
        .unwrap();
    line.trim()[key.len()..]
        .trim()
        .trim_matches('"')
        .to_string()
}

#[test]
fn kubernetes_indexed_job_shards_and_merges_to_the_unsharded_run() {
    let job = example("kubernetes/indexed-job.yaml");
    let merge = example("kubernetes/merge-job.yaml");
    let completions: u32 = field_after(&job, "kind: Job", "completions")
        .parse()
        .unwrap();
    let seed = field_after(&job, "name: SEED", "value");
    let script = block_after(&job, "kind: Job");
    assert!(
        script.contains(&format!("--shard auto/{completions}")),
        "the count in --shard auto/N must be the Job's completions: {script}"
    );
    let dir = tempfile::tempdir().unwrap();
    let vars = |index: Option<u32>| {
        let mut v = vec![
            ("GAMES", GAMES.to_string()),
            ("SEED", seed.clone()),
            ("SHARDS_DIR", dir.path().display().to_string()),
        ];
        if let Some(i) = index {
            v.push(("JOB_COMPLETION_INDEX", i.to_string()));
        }
        v
    };
    for index in 0..completions {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(&script);
        let err = run(cmd, &vars(Some(index)));
        assert!(
            err.contains(&format!("is shard {}/{completions}", index + 1)),
            "{err}"
        );
    }
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(block_after(&merge, "containers:"));
    let printed = run_stdout(cmd, &vars(None));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap())
            .unwrap();
    assert_eq!(json["games"], 20000, "the merge job writes JSON too");

    let whole_chart = dir.path().join("whole.svg");
    let whole = unsharded(&seed, "markdown", &whole_chart);
    assert_eq!(
        printed, whole,
        "the merge job's report differs from the unsharded run"
    );
    let chart = std::fs::read(dir.path().join("flags.svg")).unwrap();
    assert_eq!(
        chart,
        std::fs::read(&whole_chart).unwrap(),
        "the merged chart differs"
    );
}

/// [`run`], returning standard output.
fn run_stdout(mut cmd: Command, vars: &[(&str, String)]) -> String {
    cmd.env("PATH", path_with_tahur());
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_lost_task_leaves_a_partial_report_that_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "durak",
        "flags",
        "--players",
        "4",
        "--games",
        GAMES,
        "--seed",
        "7",
    ];
    let files = common::shard_files(dir.path(), &base, 4);
    // Shard 3 of 4 never ran: the merge refuses without --partial, names it with it.
    let kept: Vec<&str> = files
        .iter()
        .map(String::as_str)
        .filter(|f| !f.ends_with("part3.json"))
        .collect();
    let e = common::fails(&[&["merge"], kept.as_slice()].concat());
    assert!(e.contains("3/4"), "{e}");
    let chart = dir.path().join("partial.svg");
    let mut args = vec![
        "merge",
        "--partial",
        "--format",
        "json",
        "--chart",
        chart.to_str().unwrap(),
    ];
    args.extend(&kept);
    let j = common::json(&args);
    // Shard 3 holds chunks 10..15 of 20 (5 × 1,024 games).
    assert_eq!(j["games"], 20000 - 5 * 1024, "{j}");
    assert!(chart.is_file());
    // A chart the run does not draw is named with what it draws.
    let mut args = vec!["merge", "--length-chart", "x.svg"];
    args.extend(files.iter().map(String::as_str));
    let e = common::fails(&args);
    assert!(
        e.contains("--length-chart") && e.contains("durak flags") && e.contains("--chart"),
        "{e}"
    );
}

#[test]
fn kubernetes_run_script_merges_after_a_failed_job_without_waiting_out_its_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let log = dir.path().join("kubectl.log");
    // A stand-in for kubectl: records each call (and the manifests applied), says the shards Job
    // failed and the merge Job completed.
    let fake = bin.join("kubectl");
    std::fs::write(
        &fake,
        format!(
            r#"#!/bin/bash
echo "kubectl $*" >> '{log}'
case "$*" in
  "apply -f -") cat >> '{log}' ;;
  *"get job/tahur-shards"*) printf 'Failed ' ;;
  *"get job/tahur-merge"*) printf 'Complete ' ;;
  "logs job/tahur-merge") echo "the report" ;;
esac
"#,
            log = log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kubernetes/run.sh");
    let out = Command::new("bash")
        .arg(&script)
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("tahur-shards failed: merging what is there"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("the report"));
    let calls = std::fs::read_to_string(&log).unwrap();
    // Both Jobs write into the same folder of this run, named in place of RUN_FOLDER.
    assert!(!calls.contains("RUN_FOLDER"), "{calls}");
    let folders: Vec<&str> = calls
        .lines()
        .filter_map(|l| l.trim().strip_prefix("value: /shards/"))
        .collect();
    assert_eq!(folders.len(), 2, "{calls}");
    assert_eq!(folders[0], folders[1]);
    assert!(folders[0].starts_with("run-"), "{calls}");
    assert!(
        calls.contains("kind: Job\nmetadata:\n  name: tahur-merge"),
        "{calls}"
    );
}
