#!/bin/bash
# Runs the sharded job, waits for every index, merges, and prints the report.
#   docker build -f examples/kubernetes/Dockerfile -t tahur:latest .   # once, pushed where
#   bash examples/kubernetes/run.sh                                      # the cluster pulls
set -euo pipefail
here=$(dirname "$0")
kubectl apply -f "$here/indexed-job.yaml"
# A failed index still leaves the others' files: merge --partial says what is missing.
kubectl wait --for=condition=complete --timeout=24h job/tahur-shards ||
  echo "tahur-shards did not complete: merging what is there" >&2
kubectl apply -f "$here/merge-job.yaml"
kubectl wait --for=condition=complete --timeout=1h job/tahur-merge
kubectl logs job/tahur-merge
