# Used by scripts/start: background children that stop when the script stops, however it
# ends (the gateway exiting, Ctrl-C, SIGTERM, an error). Sourced, not run.
CHILD_PIDS=()

# Asks each child still running to stop (SIGTERM: the gateway drains and flushes) and waits for it.
stop_children() {
  local status=$? pid
  trap - EXIT INT TERM
  for pid in "${CHILD_PIDS[@]+"${CHILD_PIDS[@]}"}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${CHILD_PIDS[@]+"${CHILD_PIDS[@]}"}"; do
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
