#!/usr/bin/env bash
# The widget's browser tests drive Debian's chromium-headless-shell (through
# playwright-core; playwright's own browser download is not used). Installs it
# when missing, as root (CI runs as root); otherwise says why the browser tests
# will skip. Never fails the run: the tests themselves report the skip.
set -uo pipefail
BROWSER=/usr/bin/chromium-headless-shell
if [ -x "$BROWSER" ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "chromium-headless-shell is missing and this is not root: the widget's browser tests will be skipped (apt-get install -y --no-install-recommends chromium-headless-shell fonts-dejavu-core)"
  exit 0
fi
echo "installing chromium-headless-shell (Debian) for the widget's browser tests"
if ! (apt-get install -y --no-install-recommends chromium-headless-shell fonts-dejavu-core >/tmp/chromium-install.log 2>&1 \
  || (apt-get update >>/tmp/chromium-install.log 2>&1 && apt-get install -y --no-install-recommends chromium-headless-shell fonts-dejavu-core >>/tmp/chromium-install.log 2>&1)); then
  echo "could not install chromium-headless-shell (see /tmp/chromium-install.log): the widget's browser tests will be skipped"
fi
exit 0
