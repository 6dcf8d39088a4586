#!/bin/sh
# What `make test` needs from the system besides Python 3.11 and make:
#   chromium  renders the built pages for the page check (checks/check_html.py)
#   npm       installs the pinned axe-core (package-lock.json) for its accessibility audit
# Installed with Debian's apt-get when this runs as root; otherwise it stops at
# once with the command to run, instead of failing after minutes of tests.
missing=""
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
    || command -v google-chrome >/dev/null 2>&1 || missing="chromium"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
[ -z "$missing" ] && exit 0
missing=${missing# }
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing Debian packages: $missing (apt-get, about a minute)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null \
        && exit 0
    echo "setup: apt-get could not install $missing" >&2
    exit 1
fi
echo "setup: make test needs the Debian packages: $missing" >&2
if command -v apt-get >/dev/null 2>&1; then
    echo "setup: install them as root, then run make test again:" >&2
    echo "    sudo apt-get install -y --no-install-recommends $missing" >&2
else
    echo "setup: this system has no apt-get; install $missing with its package manager" >&2
    echo "       (Chromium: any build on the PATH as chromium, chromium-browser or google-chrome)" >&2
fi
exit 1
