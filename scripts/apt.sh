# Sourced by the install scripts: one way to install Debian packages.
#   apt_install PKG...   apt-get update (once per script run), then install, as root or
#                        through sudo. Both wait for another apt or dpkg (an unattended
#                        upgrade, a second install script) instead of failing at once:
#                        dpkg's lock through DPkg::Lock::Timeout; the package lists' lock,
#                        which that setting does not cover, by retrying the update.
APT_SUDO=""; [ "$(id -u)" = 0 ] || APT_SUDO=sudo
APT_UPDATED=${APT_UPDATED:-}
apt_install() {
  if [ -n "$APT_SUDO" ] && ! command -v sudo >/dev/null; then
    echo "needs root for apt-get install $*" >&2
    return 1
  fi
  command -v apt-get >/dev/null || { echo "apt-get is missing: install $* by other means" >&2; return 1; }
  if [ -z "$APT_UPDATED" ]; then
    local try
    for try in $(seq 1 60); do
      $APT_SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq >&2 && { export APT_UPDATED=1; break; }
      echo "apt-get update failed (try $try of 60; another apt may hold the lists' lock): retrying in 10 s" >&2
      sleep 10
    done
    [ -n "$APT_UPDATED" ] || return 1
  fi
  DEBIAN_FRONTEND=noninteractive $APT_SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" >&2
}
