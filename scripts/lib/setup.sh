# Shared by scripts/start and scripts/test: make sure Bun (from the npm registry) and
# the project's dependencies are present. Sourced, not run.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUN_VERSION="1.4.5"

bun_ok() {
  command -v bun >/dev/null 2>&1 || return 1
  local v major minor
  v="$(bun --version 2>/dev/null)" || return 1
  major="${v%%.*}"; minor="${v#*.}"; minor="${minor%%.*}"
  [ "$major" -gt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -ge 4 ]; }
}

ensure_bun() {
  export PATH="$ROOT/.tools/node_modules/.bin:$PATH"
  if bun_ok; then return 0; fi
  echo "setup: installing Bun $BUN_VERSION from the npm registry into .tools/" >&2
  npm install --prefix "$ROOT/.tools" --no-save --no-audit --no-fund --loglevel=error "bun@$BUN_VERSION" >&2
  bun_ok || { echo "setup: Bun could not be installed" >&2; exit 1; }
}

ensure_deps() {
  (cd "$ROOT" && bun install --frozen-lockfile >/dev/null) || { echo "setup: bun install failed" >&2; exit 1; }
}

# What the tests need from Debian, installed in one apt-get run when missing (CI runs as
# root on a fresh machine): redis-server and postgresql for the scale-out tests, which
# start private instances (test/support/servers.ts), and chromium for the dashboard's
# browser tests, driven through playwright-core (never a downloaded browser); prometheus
# scrapes /metrics in the observability test.
ensure_test_packages() {
  ensure_packages redis-server postgresql chromium prometheus
}

# Installs those of the named Debian packages (redis-server, postgresql, chromium, prometheus) whose
# programs are missing. Used by scripts/test and scripts/cluster.
ensure_packages() {
  local missing=() p
  for p in "$@"; do
    case "$p" in
      postgresql) pg_bindir >/dev/null 2>&1 || missing+=(postgresql) ;;
      *) command -v "$p" >/dev/null 2>&1 || missing+=("$p") ;;
    esac
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: ${missing[*]} missing; install them (apt-get install -y ${missing[*]}) or run as root" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]} from Debian" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
}

# Debian keeps initdb and postgres outside PATH, under /usr/lib/postgresql/<version>/bin.
pg_bindir() {
  if command -v initdb >/dev/null 2>&1 && command -v postgres >/dev/null 2>&1; then dirname "$(command -v initdb)"; return 0; fi
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [ -x "$d/initdb" ] && [ -x "$d/postgres" ] && { echo "$d"; return 0; }
  done
  return 1
}

# The client-framework suite (test/clients/) has its own pinned packages: the JavaScript
# frameworks from its lockfile, and the Python SDKs (requirements.txt) in a venv. Only when
# pip can reach no index is the reason written to test/clients/.venv-skip-reason, which
# python-sdks.test.ts prints as it skips; any other failure stops the run.
ensure_client_suite() {
  local dir="$ROOT/test/clients" log reason
  (cd "$dir" && bun install --frozen-lockfile >/dev/null) || { echo "setup: bun install in test/clients failed" >&2; exit 1; }
  rm -f "$dir/.venv-skip-reason"
  cmp -s "$dir/requirements.txt" "$dir/.venv/requirements.installed" 2>/dev/null && return 0
  rm -rf "$dir/.venv"
  python3 -m venv "$dir/.venv" || { echo "setup: python3 -m venv failed (on Debian: apt-get install python3-venv)" >&2; exit 1; }
  log="$(mktemp)"
  # --retries 1: an index that cannot be reached is given up quickly (one retry, which pip reports,
  # so its report tells an unreachable index from a real failure) and the next configured one tried.
  if "$dir/.venv/bin/pip" install --retries 1 --disable-pip-version-check -r "$dir/requirements.txt" >"$log" 2>&1; then
    cp "$dir/requirements.txt" "$dir/.venv/requirements.installed"
  elif grep -qiE "NewConnectionError|Name or service not known|name resolution|Network is unreachable|Connection refused|timed out|ProxyError" "$log"; then
    reason="$(grep -iE "No matching distribution|Could not find a version" "$log" | head -1)"
    echo "${reason:-no index answered}" >"$dir/.venv-skip-reason"
    echo "setup: pip could not reach an index; the Python SDK checks will be skipped: $(cat "$dir/.venv-skip-reason")" >&2
    rm -rf "$dir/.venv"
  else
    cat "$log" >&2
    rm -f "$log"
    echo "setup: pip install in test/clients failed" >&2
    exit 1
  fi
  rm -f "$log"
}
