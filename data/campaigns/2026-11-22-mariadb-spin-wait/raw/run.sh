#!/usr/bin/env bash
# Reproduces the raw outputs beside this script: MariaDB 10.11 from Debian's packages, started on
# 127.0.0.1 with a throw-away datadir, measured with sysbench for innodb_spin_wait_delay 0, 4 and 24
# at 1 and 2 client threads, with vmstat, iostat and perf stat running beside every test and one
# perf record profile per config.
#
#   apt-get install -y sysbench mariadb-server linux-perf sysstat procps
#   bash run.sh                     # about 22 minutes on a 2-vCPU VM; needs root for perf -p
#
# Every test runs REPS times; each repetition restarts the server once per config and visits the
# configs in a rotated order, so that drift over time does not pass for an effect of the config.
# Environment knobs (the defaults are what the committed outputs used):
#   REPS=2 DURATION=20 TABLES=2 ROWS=100000 WARMUP=10 PROFILE_S=10 PORT=3399 OUT=<this folder>
# Everything talks to 127.0.0.1 only; every loop is bounded; the server and its datadir are removed
# on exit, whatever happens.
set -euo pipefail
export LC_ALL=C   # plain numbers in vmstat/iostat/perf (no locale thousands separators)

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$HERE}
REPS=${REPS:-2}
DURATION=${DURATION:-20}
TABLES=${TABLES:-2}
ROWS=${ROWS:-100000}
WARMUP=${WARMUP:-10}
PROFILE_S=${PROFILE_S:-10}
PORT=${PORT:-3399}
BUILD=ma101119_deb12                     # mytools-style build name: MariaDB 10.11.19, Debian 12 package
CONFIGS=(spin0 spin4 spin24)             # innodb_spin_wait_delay = 0, 4 (the default), 24
THREADS=(1 2)
# mytools test name -> sysbench Lua script and arguments (as in mdcallag/mytools run.sh)
TESTS=(point-query read-only update-index update-nonindex)
declare -A LUA=([point-query]=oltp_point_select [read-only]=oltp_read_only
                [update-index]=oltp_update_index [update-nonindex]=oltp_update_non_index)
declare -A ARGS=([point-query]="--skip-trx" [read-only]="--range-size=100"
                 [update-index]="" [update-nonindex]="")
PERF_EVENTS=task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,bus-cycles

for tool in mariadbd mariadb-install-db mariadb mariadb-admin sysbench vmstat iostat perf lsblk; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool not found (see the apt-get line above)" >&2; exit 1; }
done

WORK=$(mktemp -d /tmp/papercuts-spin.XXXXXX)
SOCK=$WORK/mysql.sock
MYPID=""

stop_server() {
  if [[ -n "$MYPID" ]] && kill -0 "$MYPID" 2>/dev/null; then
    mariadb-admin --no-defaults -S "$SOCK" -uroot shutdown 2>/dev/null || kill "$MYPID"
    for _ in $(seq 1 120); do kill -0 "$MYPID" 2>/dev/null || break; sleep 0.5; done
  fi
  MYPID=""
}
cleanup() { stop_server; rm -rf "$WORK"; }
trap cleanup EXIT

write_cnf() {  # $1 = config id, $2 = innodb_spin_wait_delay
  cat > "$WORK/my.$1.cnf" <<EOF
[mariadbd]
datadir=$WORK/data
socket=$SOCK
pid-file=$WORK/mysql.pid
bind-address=127.0.0.1
port=$PORT
user=root
skip-name-resolve
innodb_buffer_pool_size=2G
innodb_log_file_size=1G
innodb_flush_log_at_trx_commit=2
max_connections=100
innodb_spin_wait_delay=$2
EOF
}

start_server() {  # $1 = config id
  mariadbd --defaults-file="$WORK/my.$1.cnf" > "$WORK/error.$1.log" 2>&1 &
  MYPID=$!
  for _ in $(seq 1 120); do
    mariadb --no-defaults -S "$SOCK" -uroot -e "SELECT 1" >/dev/null 2>&1 && return 0
    kill -0 "$MYPID" 2>/dev/null || break
    sleep 0.5
  done
  echo "run.sh: mariadbd did not start; see $WORK/error.$1.log" >&2
  cat "$WORK/error.$1.log" >&2
  exit 1
}

SB=(--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$PORT" --mysql-user=sbtest
    --mysql-password=sbtest --mysql-db=sbtest --tables="$TABLES" --table-size="$ROWS"
    --rand-type=uniform)

# The device under the datadir, for iostat (vda on the VM the committed outputs come from).
DEV=$(lsblk -no PKNAME "$(findmnt -n -o SOURCE -T "$WORK")" 2>/dev/null || true)
[[ -n "$DEV" ]] || DEV=$(basename "$(findmnt -n -o SOURCE -T "$WORK")")

echo "run.sh: datadir in $WORK, outputs in $OUT, iostat device $DEV"
mkdir -p "$OUT"
mariadb-install-db --no-defaults --datadir="$WORK/data" --user=root \
  --auth-root-authentication-method=normal > "$WORK/install.log" 2>&1

for cfg in "${CONFIGS[@]}"; do write_cnf "$cfg" "${cfg#spin}"; done

# Load once (with the default config); each config then restarts on the same datadir.
start_server spin4
mariadb --no-defaults -S "$SOCK" -uroot -e "CREATE DATABASE sbtest;
  CREATE USER sbtest@'127.0.0.1' IDENTIFIED BY 'sbtest'; GRANT ALL ON sbtest.* TO sbtest@'127.0.0.1';"
sysbench oltp_read_only "${SB[@]}" --threads=2 prepare > "$OUT/prepare.txt" 2>&1
stop_server

profile() {  # $1 = config, $2 = its folder: one perf record profile in a run of its own
  echo "run.sh: $1 profile"
  sysbench oltp_point_select "${SB[@]}" --skip-trx --threads=2 --time=$((PROFILE_S + 2)) run \
    > "$2/point-query.t2.profile.sysbench.txt" 2>&1 &
  local sb=$!
  sleep 1
  perf record -F 199 -g -p "$MYPID" -o "$WORK/perf.data" -- sleep "$PROFILE_S" > /dev/null 2>&1
  wait "$sb" || true
  (cd "$WORK" && perf script report stackcollapse > "$2/point-query.t2.profile.perf.folded" 2>/dev/null)
  perf report -i "$WORK/perf.data" --stdio --no-children -g none --percent-limit 0.5 \
    > "$2/point-query.t2.profile.perf-report.txt" 2>/dev/null
  rm -f "$WORK/perf.data"
}

for rep in $(seq 1 "$REPS"); do
 order=("${CONFIGS[@]}")
 for ((i = 1; i < rep; i++)); do order=("${order[@]:1}" "${order[0]}"); done  # rotate per repetition
 for cfg in "${order[@]}"; do
  dir=$OUT/$BUILD.$cfg
  mkdir -p "$dir"
  start_server "$cfg"
  cp "$WORK/my.$cfg.cnf" "$dir/my.cnf"
  sed -i "s|$WORK|/tmp/papercuts-spin.XXXXXX|g" "$dir/my.cnf"
  mariadb --no-defaults -S "$SOCK" -uroot -e \
    "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('version','innodb_spin_wait_delay',
     'innodb_sync_spin_loops','innodb_buffer_pool_size','innodb_flush_log_at_trx_commit')" \
    > "$dir/variables.txt"
  # Warm the buffer pool so that every measured test reads from memory.
  sysbench oltp_read_only "${SB[@]}" --threads=2 --time="$WARMUP" run > /dev/null 2>&1
  for test in "${TESTS[@]}"; do
    for nt in "${THREADS[@]}"; do
      base=$dir/$test.t$nt.r$rep
      echo "run.sh: repetition $rep $cfg $test threads=$nt"
      vmstat 1 $((DURATION + 2)) > "$base.vmstat.txt" &
      vm=$!
      iostat -y -kx 1 $((DURATION + 1)) "$DEV" > "$base.iostat.txt" &
      io=$!
      perf stat -p "$MYPID" -e "$PERF_EVENTS" -o "$base.perf-stat.txt" -- sleep "$DURATION" &
      ps=$!
      { echo "sysbench ${LUA[$test]} ${SB[*]} ${ARGS[$test]} --threads=$nt --time=$DURATION run"
        echo "$(nproc) CPUs"
        # shellcheck disable=SC2086
        sysbench "${LUA[$test]}" "${SB[@]}" ${ARGS[$test]} --threads="$nt" --time="$DURATION" run 2>&1
      } > "$base.sysbench.txt"
      wait "$ps" "$vm" "$io" || true
    done
  done
  # One profile per config, after its first repetition, so that perf record disturbs no number above.
  [[ "$rep" == 1 ]] && profile "$cfg" "$dir"
  stop_server
 done
done

# Facts about this machine and the software, for manifest.toml.
cpu_model=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//; s/"/\\"/g')
ram_gb=$(awk '/MemTotal/ {printf "%d", $2 / 1024 / 1024 + 0.5}' /proc/meminfo)
storage="$(lsblk -dno NAME,SIZE,ROTA "/dev/$DEV" | awk '{print $1 " " $2 ", rotational=" $3}'), $(findmnt -n -o FSTYPE -T "$OUT")"
virt=$(systemd-detect-virt 2>/dev/null || echo unknown)
mversion=$(mariadbd --version | sed 's/"/\\"/g; s/  */ /g')
mpackage=$(dpkg-query -W -f '${Package} ${Version}' mariadb-server 2>/dev/null || echo unknown)
sbversion=$(sysbench --version | awk '{print $2}')
today=$(date -u +%Y-%m-%d)

cat > "$OUT/manifest.toml" <<EOF
# Written by run.sh; describes the raw outputs in this folder.
title = "MariaDB 10.11 innodb_spin_wait_delay 0, 4 and 24 on a 2-vCPU VM"
date = $today
source = "measured by the Papercuts team on $today with run.sh"
sysbench = "$sbversion"
tables = $TABLES
rows_per_table = $ROWS
duration_s = $DURATION
repetitions = $REPS
warmup_s = $WARMUP
threads = [$(IFS=,; echo "${THREADS[*]}" | sed 's/,/, /g')]
microbenchmarks = [$(printf '"%s", ' "${TESTS[@]}" | sed 's/, $//')]
base_build = "$BUILD"
base_config = "spin4"
layout = "<build>.<config>/<microbenchmark>.t<threads>.r<repetition>.{sysbench,vmstat,iostat,perf-stat}.txt; <build>.<config>/point-query.t2.profile.{sysbench.txt,perf.folded,perf-report.txt} from a separate profiling run after repetition 1"
order = "each repetition restarts mariadbd per config; repetition r visits the configs rotated by r-1 from spin0, spin4, spin24"
tools = "vmstat 1; iostat -y -kx 1 $DEV; perf stat -p <mariadbd> -e $PERF_EVENTS; perf record -F 199 -g -p <mariadbd> for ${PROFILE_S}s, folded with perf script report stackcollapse"

[server]
id = "papercuts-vm2"
cpu_model = "$cpu_model"
cores = $(nproc)
ram_gb = $ram_gb
kernel = "$(uname -r)"
os = "$(. /etc/os-release && echo "$PRETTY_NAME")"
virtualization = "$virt"
storage = "$storage"
iostat_device = "$DEV"

[[builds]]
id = "$BUILD"
dbms = "mariadb"
engine = "innodb"
version = "$(mariadbd --version | sed -E 's/.*Ver ([0-9.]+)-MariaDB.*/\1/')"
version_text = "$mversion"
package = "$mpackage"

[[configs]]
id = "spin0"
settings = "innodb_spin_wait_delay=0"

[[configs]]
id = "spin4"
settings = "innodb_spin_wait_delay=4"
notes = "MariaDB's default"

[[configs]]
id = "spin24"
settings = "innodb_spin_wait_delay=24"

[common]
settings = "innodb_buffer_pool_size=2G;innodb_log_file_size=1G;innodb_flush_log_at_trx_commit=2;max_connections=100;skip-name-resolve;bind-address=127.0.0.1"
EOF
echo "run.sh: done; manifest in $OUT/manifest.toml"
