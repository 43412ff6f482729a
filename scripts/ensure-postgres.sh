#!/usr/bin/env bash
# Makes sure this machine has a PostgreSQL server with the pgvector and pg_trgm
# extensions, installing what is missing from Debian's packages. Idempotent: a
# second run on the same machine returns in milliseconds.
# pgvector is not packaged for bookworm, so it is built from Debian's own source
# package of the next release, against the installed server, through a private
# apt configuration under /tmp that leaves the machine's apt setup untouched.
set -euo pipefail

log() { echo "[ensure-postgres] $*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then as_root apt-get update -qq >&2; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "$@" >&2
}

find_pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$dir" ] && [ -x "$dir/postgres" ] && echo "$dir"
}

PG_BIN=$(find_pg_bin || true)
if [ -z "$PG_BIN" ]; then
  log "installing the PostgreSQL server"
  apt_install postgresql postgresql-contrib
  PG_BIN=$(find_pg_bin)
fi
PG_MAJOR=$(basename "$(dirname "$PG_BIN")")
SHAREDIR="/usr/share/postgresql/$PG_MAJOR"

if [ ! -f "$SHAREDIR/extension/pg_trgm.control" ]; then
  log "installing postgresql-contrib for pg_trgm"
  apt_install postgresql-contrib
fi

if [ ! -f "$SHAREDIR/extension/vector.control" ]; then
  log "building pgvector for PostgreSQL $PG_MAJOR from Debian's source package"
  apt_install "postgresql-server-dev-$PG_MAJOR" make gcc dpkg-dev
  work=$(mktemp -d /tmp/pgvector-build.XXXXXX)
  mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
  mirror=$(grep -h -m1 -E '^URIs: http' /etc/apt/sources.list.d/debian.sources 2>/dev/null | awk '{print $2}' || true)
  [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
  echo "deb-src $mirror trixie main" > "$work/sources.list"
  apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=-"
            -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache")
  apt-get "${apt_opts[@]}" update -qq >&2
  (cd "$work/src" && apt-get "${apt_opts[@]}" source -qq --only-source pgvector >&2)
  srcdir=$(find "$work/src" -maxdepth 1 -mindepth 1 -type d -name 'pgvector-*' | head -n 1)
  make -C "$srcdir" -s PG_CONFIG="$PG_BIN/pg_config" OPTFLAGS="" >&2
  as_root make -C "$srcdir" -s PG_CONFIG="$PG_BIN/pg_config" install >&2
  rm -rf "$work"
fi
echo "$PG_BIN"
