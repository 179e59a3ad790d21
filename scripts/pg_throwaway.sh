#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the cross-engine tests (`make test-postgres`), on a unix socket only.
#
#   scripts/pg_throwaway.sh start DIR   initdb a cluster in DIR/data, start it listening on the socket folder DIR
#                                        (no TCP), create the database `biasmirror`, and print the environment a
#                                        client needs (PGHOST, PGPORT, PGUSER, PGDATABASE) as shell assignments;
#   scripts/pg_throwaway.sh stop DIR    stop it (fast shutdown); DIR can then be deleted.
#
# PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` user of Debian's package (DIR is
# handed to it); otherwise as the calling user. The server binaries come from PG_BIN, else pg_config --bindir,
# else the newest /usr/lib/postgresql/*/bin (Debian keeps initdb and pg_ctl there, off the PATH).
set -euo pipefail

action=${1:-}
dir=${2:-}
if [ -z "$action" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi
port=${PGPORT_THROWAWAY:-54329}

bin=${PG_BIN:-}
if [ -z "$bin" ]; then
  for candidate in "$(pg_config --bindir 2>/dev/null || true)" $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -n "$candidate" ] && [ -x "$candidate/initdb" ]; then bin=$candidate; break; fi
  done
fi
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "PostgreSQL's server programs (initdb, pg_ctl) were not found: install Debian's postgresql package" \
       "(apt-get install postgresql) or set PG_BIN to the folder holding them" >&2
  exit 1
fi

if [ "$(id -u)" = 0 ]; then
  owner=postgres
  as_owner() { runuser -u postgres -- "$@"; }
else
  owner=$(id -un)
  as_owner() { "$@"; }
fi

case "$action" in
  start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; chmod 700 "$dir"; fi
    as_owner "$bin/initdb" --pgdata="$dir/data" --username="$owner" --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
      >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    # unix socket in DIR only; a small cluster (the tests use little memory)
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait \
      -o "-c listen_addresses='' -c unix_socket_directories='$dir' -p $port -c shared_buffers=128MB -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/createdb" --host="$dir" --port="$port" --username="$owner" biasmirror
    # the socket folder must be reachable by the calling user
    chmod 755 "$dir"
    echo "PGHOST=$dir"
    echo "PGPORT=$port"
    echo "PGUSER=$owner"
    echo "PGDATABASE=biasmirror"
    ;;
  stop)
    dir=$(cd "$dir" && pwd)
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_owner "$bin/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >/dev/null
    fi
    ;;
  *)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
