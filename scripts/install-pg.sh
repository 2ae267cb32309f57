#!/usr/bin/env bash
# Installs Debian's PostgreSQL 15 server and its PGXS headers for `hotloops pg` and
# tests/pg_server.rs, when pg_config, the server headers or the server binary are missing.
# Quick and idempotent when they are present. Records the server version in
# target/hotloops-data/postgres-version.txt (installing the dev package can move the server to
# the dev package's minor version, so the version is read after installing).
set -euo pipefail
cd "$(dirname "$0")/.."
PG_MAJOR=15
PKGS="postgresql-$PG_MAJOR postgresql-server-dev-$PG_MAJOR make"

have_pg() {
  local pgc=/usr/lib/postgresql/$PG_MAJOR/bin/pg_config
  [ -x "$pgc" ] || pgc=$(command -v pg_config || true)
  [ -n "$pgc" ] || return 1
  command -v make >/dev/null || return 1   # PGXS builds the extension with make
  local bindir incdir
  bindir=$("$pgc" --bindir) || return 1
  incdir=$("$pgc" --includedir-server) || return 1
  [ -x "$bindir/postgres" ] && [ -x "$bindir/initdb" ] && [ -f "$incdir/postgres.h" ] \
    && [ -f "$("$pgc" --pgxs)" ]
}

if ! have_pg; then
  if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
    echo "PostgreSQL $PG_MAJOR is missing: install the Debian packages $PKGS (as root)" >&2
    exit 1
  fi
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "installing $PKGS" >&2
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
  # The cluster that the package's postinst would create is not used: hotloops makes its own.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq $PKGS >&2
fi
have_pg || { echo "PostgreSQL $PG_MAJOR still incomplete after installing $PKGS" >&2; exit 1; }
PGC=/usr/lib/postgresql/$PG_MAJOR/bin/pg_config
mkdir -p target/hotloops-data
"$("$PGC" --bindir)/postgres" --version | tee target/hotloops-data/postgres-version.txt >&2
