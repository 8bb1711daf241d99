#!/bin/bash
# Queues the shards as a job array, then the merge to start when every task has ended
# (afterany: a task stopped at its time limit still wrote its partial file).
#   bash examples/slurm/submit.sh            # 2 CPUs a task
#   CPUS=8 bash examples/slurm/submit.sh     # on nodes with 8 CPUs or more to spare
# The report lands in ./tahur-shards-<array job id>/report.md (and .json) with its chart
# flags.svg beside it. A task asking more CPUs than any node has waits forever
# (squeue: Reason=PartitionConfig): ask fewer.
set -euo pipefail
here=$(dirname "$0")
cpus=${CPUS:-2}
array=$(sbatch --parsable --cpus-per-task="$cpus" "$here/shards.sbatch")
array=${array%%;*}
dir=$PWD/tahur-shards-$array
sbatch --dependency="afterany:$array" --export="ALL,SHARDS_DIR=$dir" "$here/merge.sbatch"
echo "array job $array: shards and report in $dir"
