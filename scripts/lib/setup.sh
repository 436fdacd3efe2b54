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
