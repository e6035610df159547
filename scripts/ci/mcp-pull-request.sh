#!/usr/bin/env bash
# The CI recipe for MCP server authors (docs/ci-recipe.md): a pull request's tool descriptions against the last
# release's, on one experiment, gated. Exit 0: every gate held; 1: a gate failed or the run did not complete;
# 2: invalid input (a server that does not list, a tool the experiment sends that a server no longer lists, a
# bad experiment or gate). Everything it writes is in $OUT.
#
#   EXPERIMENT           the experiment spec (JSON) whose conditions $RELEASED_CONDITION and $PR_CONDITION the
#                        servers' tools fill in
#   RELEASED_SERVER      the released server as a stdio command ("CMD ARGS…"), e.g. "npx -y my-server@latest"
#   PR_SERVER            the pull request's build, e.g. "node dist/index.js"
#   RELEASED_CONDITION   default: released      PR_CONDITION   default: pull-request
#   PROVIDER, MODEL      default: simulated / simulated-lexical-v1 (offline); a real one reads its key from the environment
#   GATES                one gate expression a line (docs/gates.md); default "selection.regressed <= 0"
#   OUT                  default: tclab-out
#   TCLAB                the tclab command, default: node "<this checkout>/cli/tclab.mjs"
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tclab=${TCLAB:-"node $here/cli/tclab.mjs"}
out=${OUT:-tclab-out}
released_condition=${RELEASED_CONDITION:-released}
pr_condition=${PR_CONDITION:-pull-request}
gates=${GATES:-"selection.regressed <= 0"}
: "${EXPERIMENT:?the experiment spec, a JSON file}" "${RELEASED_SERVER:?the stdio command of the released server}" "${PR_SERVER:?the stdio command of the server built from the pull request}"
mkdir -p "$out"
# tclab runs from its checkout (it applies its migrations from there): paths are made absolute first
out=$(cd "$out" && pwd)
experiment=$(cd "$(dirname "$EXPERIMENT")" && pwd)/$(basename "$EXPERIMENT")
cd "$here" || exit 2

step() { echo "[tclab-ci] $*" >&2; }

step "listing the released server's tools"
$tclab mcp list --stdio "$RELEASED_SERVER" --json >"$out/released-tools.json" || exit 2
step "listing the pull request's tools"
$tclab mcp list --stdio "$PR_SERVER" --json >"$out/pr-tools.json" || exit 2
step "putting them into the experiment"
$tclab mcp apply "$experiment" --set "$released_condition=$out/released-tools.json" --set "$pr_condition=$out/pr-tools.json" --out "$out/experiment.json" || exit 2

gate_args=()
while IFS= read -r g; do [ -n "$g" ] && gate_args+=(--gate "$g"); done <<<"$gates"
step "running: ${PROVIDER:-simulated} / ${MODEL:-simulated-lexical-v1}"
$tclab run --experiment "$out/experiment.json" --provider "${PROVIDER:-simulated}" --model "${MODEL:-simulated-lexical-v1}" \
  "${gate_args[@]}" --junit "$out/junit.xml" --summary-md "$out/summary.md" --out "$out/run.json"
status=$?
[ "$status" -eq 2 ] && exit 2

run_id=$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).run.id)' "$out/run.json" 2>/dev/null) || exit 1
step "the one-file report of run $run_id"
$tclab report "$run_id" --out "$out/report.html" || exit 1
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY"; fi
exit "$status"
