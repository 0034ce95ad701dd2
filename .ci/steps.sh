# Sourced by .ci/run and .ci/test: `step NAME COMMAND...` runs one step of CI and prints how long
# it took; `steps_summary` prints every step's time and the total at the end, so that a slow step
# shows in any log.
ci_steps=()
ci_started=$SECONDS

step() {
    local name=$1
    shift
    local started=$SECONDS
    echo "ci: ${name}: $*"
    "$@"
    local took=$((SECONDS - started))
    ci_steps+=("$(printf '%5d s  %s' "$took" "$name")")
    echo "ci: ${name}: ${took} s"
}

steps_summary() {
    echo "ci: ${1:-steps} took:"
    printf '  %s\n' "${ci_steps[@]}"
    printf '  %5d s  in all\n' "$((SECONDS - ci_started))"
}
