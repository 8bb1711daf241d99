#!/bin/bash
# Runs the sharded job, waits for it to complete or fail, merges, and prints the report.
#   docker build -f examples/kubernetes/Dockerfile -t tahur:latest .   # once, pushed where
#   bash examples/kubernetes/run.sh                                      # the cluster pulls
# Needs Kubernetes 1.29 or later (see indexed-job.yaml).
set -euo pipefail
here=$(dirname "$0")
# Each run in a folder of its own on the volume; Jobs of an earlier run are replaced.
run=run-$(date -u +%Y%m%d-%H%M%S)
kubectl delete job tahur-shards tahur-merge --ignore-not-found
sed "s/RUN_FOLDER/$run/" "$here/indexed-job.yaml" | kubectl apply -f -

# Wait for either end: `kubectl wait --for=condition=complete` alone waits out its whole timeout
# when the Job fails. A failed index still leaves the others' files: merge --partial says what
# is missing.
job_end() {
  kubectl get "job/$1" -o jsonpath='{range .status.conditions[?(@.status=="True")]}{.type} {end}'
}
until [[ $(job_end tahur-shards) =~ (Complete|Failed) ]]; do sleep 30; done
[[ $(job_end tahur-shards) == *Complete* ]] ||
  echo "tahur-shards failed: merging what is there" >&2

sed "s/RUN_FOLDER/$run/" "$here/merge-job.yaml" | kubectl apply -f -
until [[ $(job_end tahur-merge) =~ (Complete|Failed) ]]; do sleep 5; done
kubectl logs job/tahur-merge
echo "report: /shards/$run/report.md and report.json on the tahur-shards volume"
