#!/bin/sh
# Set up fairy-pnp on this machine: a virtual environment in .venv with pnp installed in it
# (Debian and Ubuntu refuse `pip install` into the system's Python), leaving `.venv/bin/pnp`.
#
#   ./setup.sh         pnp and what it needs
#   ./setup.sh test    also the test tools, and the Debian packages the tests use
#                      (Ghostscript, Poppler, Chromium and its driver)
#
# Debian packages are installed with apt-get, as root or through sudo; where neither can be
# used the script says which packages to install. An existing .venv is reused.
set -eu
cd "$(dirname "$0")"
want_tests=no
case "${1:-}" in
  "") ;;
  test) want_tests=yes ;;
  *) echo "usage: ./setup.sh [test]" >&2; exit 2 ;;
esac

apt_install() {  # apt_install PACKAGE...: the missing ones, with apt-get (as root or through sudo)
  missing=""
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
  done
  [ -z "$missing" ] && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: please install these packages with your system's package manager:$missing" >&2
    return 1
  fi
  if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "setup: as root, run: apt-get install$missing" >&2
    return 1
  fi
  echo "setup: installing Debian packages:$missing" >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  # shellcheck disable=SC2086
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

if ! command -v python3 >/dev/null 2>&1; then
  apt_install python3
fi
if [ ! -x .venv/bin/python ]; then
  if ! python3 -m venv .venv >/dev/null 2>&1; then  # Debian and Ubuntu ship venv's pip apart
    rm -rf .venv
    apt_install python3-venv
    python3 -m venv .venv
  fi
fi
if [ "$want_tests" = yes ]; then
  if command -v apt-get >/dev/null 2>&1; then
    apt_install poppler-utils ghostscript chromium chromium-driver
  fi
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
else
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
fi
echo "setup: pnp is installed in .venv (run .venv/bin/pnp, or '. .venv/bin/activate' first)" >&2
