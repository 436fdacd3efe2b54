# Used by scripts/start: background children that stop when the script stops, however it
# ends (the gateway exiting, Ctrl-C, SIGTERM, an error). Sourced, not run.
CHILD_PIDS=()

# Stops the children newest first, each with SIGTERM, waiting for each before the next: the
# gateway finishes its in-flight calls (which may still need the mock) and flushes before
# the mock it calls goes away.
stop_children() {
  local status=$? i pid
  trap - EXIT INT TERM
  for ((i = ${#CHILD_PIDS[@]} - 1; i >= 0; i--)); do
    pid="${CHILD_PIDS[$i]}"
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  exit "$status"
}

# Waits for one child and exits with its status; a trapped signal interrupts the wait.
wait_for() {
  local status=0
  wait "$1" || status=$?
  exit "$status"
}
