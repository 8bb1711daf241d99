#!/bin/bash
# Queues the shards as a job array, then the merge to start when every task has ended
# (afterany: a task stopped at its time limit still wrote its partial file).
#   bash examples/slurm/submit.sh
# The report lands in ./tahur-shards/report.md with its chart flags.svg beside it.
set -euo pipefail
here=$(dirname "$0")
array=$(sbatch --parsable "$here/shards.sbatch")
sbatch --dependency="afterany:${array%%;*}" "$here/merge.sbatch"
