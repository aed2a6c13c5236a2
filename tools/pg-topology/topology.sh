#!/usr/bin/env bash
# A production-shaped PostgreSQL on this machine, for the topology tests and the bench:
#   a PostgreSQL 15 primary, one hot-standby replica streaming from it (made with pg_basebackup),
#   and Debian's PgBouncer in transaction mode in front of the primary.
# Usage: topology.sh up | down | status | env | stop-replica | start-replica
#   up      creates and starts all three (idempotent: a running topology is left as it is)
#   down    stops all three and removes their files
#   stop-replica / start-replica   stops the replica at once (as a crash would) / starts it again
#   status  exit 0 when all three answer
#   env     prints the URLs, as shell assignments
# The clusters run as the postgres user (initdb refuses root), on their own ports, in $PG_TOPOLOGY_DIR.
set -euo pipefail

DIR=${PG_TOPOLOGY_DIR:-/tmp/colapi-pg-topology}
PRIMARY_PORT=${PG_PRIMARY_PORT:-5433}
REPLICA_PORT=${PG_REPLICA_PORT:-5434}
BOUNCER_PORT=${PG_BOUNCER_PORT:-6432}
BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
AS_PG=(runuser -u postgres --)

primary_url() { echo "postgres://root@127.0.0.1:$PRIMARY_PORT/test"; }
replica_url() { echo "postgres://root@127.0.0.1:$REPLICA_PORT/test"; }
bouncer_url() { echo "postgres://root@127.0.0.1:$BOUNCER_PORT/test"; }

# A pooler answers pg_isready only for a database its server has: ask for test.
answers() { "$BIN/pg_isready" -q -h 127.0.0.1 -p "$1" -d test -U root; }

cluster_conf() { # data directory, port
  cat >>"$1/postgresql.conf" <<CONF
port = $2
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR'
max_connections = 200
wal_level = replica
max_wal_senders = 5
hot_standby = on
hot_standby_feedback = on
# The replica tests count the statements each server ran.
shared_preload_libraries = 'pg_stat_statements'
# Test clusters: durability buys nothing here, speed does.
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
  cat >"$1/pg_hba.conf" <<HBA
local all all trust
host all all 127.0.0.1/32 trust
host replication all 127.0.0.1/32 trust
HBA
}

up_primary() {
  if answers "$PRIMARY_PORT"; then return; fi
  if [ ! -f "$DIR/primary/PG_VERSION" ]; then
    "${AS_PG[@]}" "$BIN/initdb" -D "$DIR/primary" --auth=trust --username=postgres --encoding=UTF8 --locale=C.UTF-8 >"$DIR/initdb.log"
    cluster_conf "$DIR/primary" "$PRIMARY_PORT"
  fi
  "${AS_PG[@]}" "$BIN/pg_ctl" -D "$DIR/primary" -l "$DIR/primary.log" -w start >/dev/null
  "${AS_PG[@]}" "$BIN/psql" -q -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 <<SQL
select 'create role root superuser login' where not exists (select from pg_roles where rolname = 'root')\gexec
select 'create database test owner root' where not exists (select from pg_database where datname = 'test')\gexec
SQL
}

up_replica() {
  if answers "$REPLICA_PORT"; then return; fi
  if [ ! -f "$DIR/replica/PG_VERSION" ]; then
    "${AS_PG[@]}" "$BIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -D "$DIR/replica" -R -X stream -c fast
    sed -i "s/^port = .*/port = $REPLICA_PORT/" "$DIR/replica/postgresql.conf"
  fi
  "${AS_PG[@]}" "$BIN/pg_ctl" -D "$DIR/replica" -l "$DIR/replica.log" -w start >/dev/null
}

up_bouncer() {
  if answers "$BOUNCER_PORT"; then return; fi
  if ! command -v pgbouncer >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null
  fi
  # Debian's package may run its own pgbouncer on 6432; this topology runs its own there.
  service pgbouncer stop >/dev/null 2>&1 || true
  cat >"$DIR/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=$PRIMARY_PORT

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $BOUNCER_PORT
unix_socket_dir = $DIR
auth_type = trust
auth_file = $DIR/userlist.txt
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
max_db_connections = 60
pidfile = $DIR/pgbouncer.pid
logfile = $DIR/pgbouncer.log
admin_users = postgres
INI
  printf '"root" ""\n"postgres" ""\n' >"$DIR/userlist.txt"
  chown postgres: "$DIR/pgbouncer.ini" "$DIR/userlist.txt"
  "${AS_PG[@]}" pgbouncer -d -q "$DIR/pgbouncer.ini"
  for _ in $(seq 1 50); do answers "$BOUNCER_PORT" && return; sleep 0.1; done
  echo "pgbouncer did not start; see $DIR/pgbouncer.log" >&2
  return 1
}

down() {
  if [ -f "$DIR/pgbouncer.pid" ]; then kill "$(cat "$DIR/pgbouncer.pid")" 2>/dev/null || true; fi
  for c in replica primary; do
    if [ -f "$DIR/$c/postmaster.pid" ]; then "${AS_PG[@]}" "$BIN/pg_ctl" -D "$DIR/$c" -m immediate -w stop >/dev/null 2>&1 || true; fi
  done
  rm -rf "$DIR"
}

case "${1:-}" in
  up)
    mkdir -p "$DIR" && chown postgres: "$DIR"
    up_primary
    up_replica
    up_bouncer
    ;;
  down) down ;;
  stop-replica) "${AS_PG[@]}" "$BIN/pg_ctl" -D "$DIR/replica" -m immediate -w stop >/dev/null ;;
  start-replica) "${AS_PG[@]}" "$BIN/pg_ctl" -D "$DIR/replica" -l "$DIR/replica.log" -w start >/dev/null ;;
  status) answers "$PRIMARY_PORT" && answers "$REPLICA_PORT" && answers "$BOUNCER_PORT" ;;
  env)
    echo "PG_PRIMARY_URL=$(primary_url)"
    echo "PG_REPLICA_URL=$(replica_url)"
    echo "PG_BOUNCER_URL=$(bouncer_url)"
    echo "PG_TOPOLOGY_DIR=$DIR"
    ;;
  *)
    echo "usage: $0 up | down | status | env | stop-replica | start-replica" >&2
    exit 2
    ;;
esac
