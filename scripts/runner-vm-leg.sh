#!/usr/bin/env bash
# The runner-platform leg: the real-engine suites inside a GitHub-runner-like VM (pure cgroup v2,
# AppArmor enforcing docker-default, a current Docker), on a copy of this checkout, CI=true.
#
#   scripts/runner-vm-leg.sh [--store overlay2|containerd] [ci|all|TEST_FILE...]
#
#   ci   (default) the demo, the fault matrix and the realistic matrix: what .ci/run runs
#   all  every real-engine suite (npm run test:runner-vm): docs/platforms.md records its result
#   --store containerd   Docker's containerd image store ("containerd-snapshotter", the default of
#                        new installs of current Docker) instead of the classic overlay2 store
#
# The VM is ../shared/tools/runner-vm/runner-vm.sh (RUNNER_VM_TOOL overrides); its root filesystem
# and disk are built once per machine and kept (RUNNER_VM_DIR), as are, on its disk, the base
# images scripts/engine.sh makes there. The guest has no npm registry: the dependencies go in as
# an npm cache filled here (once per package-lock.json). Results land in out/runner-vm/<store>/:
# the demo's log, vitest's JSON, and summary.txt (one line per test file: result and seconds).
#
# DA_VM_BUDGET_S bounds the whole leg, boot included (.ci/run gives it what is left of its hour):
# the demo and each test file run under what remains of it, a file that no longer fits is written
# "not run: out of budget" in summary.txt, and the VM is stopped if the leg is cut, so nothing of it
# keeps loading the host. Unset: no bound.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
vm="${RUNNER_VM_TOOL:-$(cd "$repo/.." && pwd)/shared/tools/runner-vm/runner-vm.sh}"
cache="${DA_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/docker-acceptance/npm}"
store=overlay2
[ "${1:-}" = --store ] && { store=$2; shift 2; }
case "$store" in overlay2 | containerd) ;; *) echo "runner-vm-leg.sh: --store overlay2|containerd" >&2; exit 2 ;; esac

REAL_ENGINE_SUITES="tests/docker/contract.test.ts tests/docker/lifecycle.test.ts tests/docker/realistic-matrix.test.ts
  tests/docker/containment-matrix.test.ts tests/docker/check.test.ts tests/docker/check-stack.test.ts
  tests/docker/probe-channel.test.ts tests/docker/signals.test.ts tests/docker/sweep.test.ts
  tests/docker/run-bundle.test.ts tests/docker/engine-select.test.ts tests/docker/stop.test.ts
  tests/docker/trust.test.ts tests/docker/build.test.ts tests/docker/failsafe.test.ts"
demo=1
skips=
stop_after=0
case "${1:-ci}" in
  ci) tests="tests/docker/containment-matrix.test.ts tests/docker/realistic-matrix.test.ts"; skips=--no-skips; stop_after=1 ;;
  # One line: the list goes into the guest's script as the words of a `for`, where a newline
  # would end the statement (the `all` set died on that with a syntax error after the demo).
  all) tests=$(echo $REAL_ENGINE_SUITES) ;;
  *) demo=0; tests="$*" ;;
esac

say() { printf 'runner-vm-leg: %s\n' "$*" >&2; }
# A short command in the guest. Its sshd can take longer than the tool's 5 s connect time-out to
# answer while the host is busy (an emulated CPU): ssh's own failure (255) is tried again.
guest() {
  local rc
  for _ in 1 2 3 4 5 6; do
    "$vm" ssh "$@" && return 0
    rc=$?
    [ "$rc" = 255 ] || return "$rc"
    sleep 10
  done
  return 255
}
[ -x "$vm" ] || { say "no runner VM tool at $vm (set RUNNER_VM_TOOL)"; exit 1; }
vm_dir="${RUNNER_VM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/runner-vm}"
# A guest kernel that panicked leaves qemu running and SSH silent: said, and the VM stopped, so the
# next start boots it again instead of waiting on a dead guest.
panicked() {
  grep -q 'Kernel panic' "$vm_dir/console.log" 2>/dev/null || return 1
  say "the guest kernel panicked ($vm_dir/console.log):"
  grep -m1 -A3 -E 'Oops|BUG:' "$vm_dir/console.log" | sed 's/^/  /' >&2 || true
  "$vm" stop
}
t0=$SECONDS
budget=${DA_VM_BUDGET_S:-0}
# Seconds of the budget left now (a large number when there is none).
left() { [ "$budget" -gt 0 ] && echo $((budget - (SECONDS - t0))) || echo 1000000; }
"$vm" build
panicked || true
# A leg that fails on its way (a guest command that did not answer, a panicked guest) stops the
# VM: left up, a dead guest's emulated CPUs kept a host core busy for the next 45 minutes.
trap '[ $? = 0 ] || { panicked || "$vm" stop || true; }' EXIT
"$vm" start
say "VM up after $((SECONDS - t0)) s: $(guest 'docker version --format "Docker {{.Server.Version}} (API {{.Server.APIVersion}})"; stat -fc "cgroup %T" /sys/fs/cgroup' | tr '\n' ' ')"

# The dependencies, as an npm cache the guest installs from offline (refreshed with the lock file).
lock=$(sha256sum "$repo/package-lock.json" | cut -c1-16)
if [ "$(guest "cat /root/npm-cache/.lock 2>/dev/null" || true)" != "$lock" ]; then
  say "filling the npm cache for package-lock.json $lock"
  fill=$(mktemp -d)
  cp "$repo/package.json" "$repo/package-lock.json" "$fill/"
  (cd "$fill" && npm ci --ignore-scripts --no-audit --no-fund --cache "$cache" >/dev/null)
  rm -rf "$fill"
  guest 'rm -rf /root/npm-cache && mkdir -p /root/npm-cache'
  tar -C "$cache" -cf - . | "$vm" ssh 'tar -C /root/npm-cache -xf -'
  guest "echo $lock >/root/npm-cache/.lock"
fi

# The image store: Docker's own overlay2 store, or containerd's (image IDs are manifest digests
# there, listings and intermediate images differ), switched by daemon.json and a restart.
want='{}'
[ "$store" = containerd ] && want='{"features": {"containerd-snapshotter": true}}'
# The base images scripts/engine.sh made go along (saved from the store left, loaded into the other
# where it lacks them): made again with mmdebstrap under the emulated CPU, the Debian one took
# about 40 minutes there, and a leg's budget went on it before its first file.
bases="docker-acceptance/busybox:local docker-acceptance/debian:bookworm"
guest "if [ \"\$(cat /etc/docker/daemon.json 2>/dev/null)\" != '$want' ]; then
  docker image inspect $bases >/dev/null 2>&1 && docker save -o /root/base-images.tar $bases
  echo '$want' >/etc/docker/daemon.json && systemctl restart docker
  for i in \$(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
fi
docker image inspect $bases >/dev/null 2>&1 || [ ! -f /root/base-images.tar ] || docker load -q -i /root/base-images.tar"
say "image store: $(guest 'docker info --format "{{.Driver}}"')"

# The CFS bandwidth static key, held on for the guest's life. Every container with a CPU limit
# turns it on, the last one gone turns it off, and each turn patches the kernel's text; under
# multi-threaded TCG the other vCPU can still run the old bytes and trap on the patch's int3
# ("Oops: int3" in dequeue_entity or __set_next_task_fair, "Kernel panic - not syncing", the leg
# lost). One idle cgroup with a CPU quota that cannot bind (1000 CPUs) keeps the key on, as a
# runner's kernel has it whenever any limited container runs; and that one turn is made with the
# second vCPU offline, so no other CPU runs the text while it is patched (turning it on with both
# online panicked the guest 58 s after boot on 2026-12-07).
guest 'key=/sys/fs/cgroup/runner-vm-leg-cfs-key; [ -d $key ] && exit 0
  cpu1=/sys/devices/system/cpu/cpu1/online; [ -w $cpu1 ] && echo 0 >$cpu1
  echo +cpu >/sys/fs/cgroup/cgroup.subtree_control && mkdir -p $key && echo "100000000 100000" >$key/cpu.max
  s=$?; [ -w $cpu1 ] && echo 1 >$cpu1; exit $s'

# A copy of the working tree as it is (tracked and new files, not node_modules or out/).
# One stable name, so each run replaces the last copy in the guest (/src/docker-acceptance).
work=$(mktemp -d)
trap 'rc=$?; rm -rf "$work"; [ $rc = 0 ] || { panicked || "$vm" stop || true; }' EXIT
stage="$work/docker-acceptance"
mkdir "$stage"
# node_modules by name, whatever it is: a worktree's may be a symlink, which "node_modules/" in
# .gitignore does not match, and the guest's own install must not land on it.
(cd "$repo" && git ls-files -z -co --exclude-standard | grep -zvE '^node_modules(/|$)' |
  tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -C "$stage" -xf -
out="out/runner-vm/$store"
# Nothing of an earlier leg may read as this one's, should this one be cut before its copy-back.
rm -rf "${repo:?}/$out"
status=0
# The guest's share: what is left less a minute to copy the results back. The host's own bound,
# two minutes later, is for a guest that stopped answering.
guest_budget=$(($(left) - 60))
timeout -k 30 $((guest_budget + 120)) "$vm" run -C "$stage" -o "$repo" -f out/runner-vm -- bash -s <<EOF || status=$?
set -u
export CI=true
mkdir -p $out
# A step runs under what is left of the guest's budget (124: it was cut).
bounded() {
  local l=\$(($guest_budget - SECONDS))
  [ \$l -gt 30 ] || return 124
  timeout -k 20 \$l "\$@"
}
t=\$SECONDS
# node_modules installed once per package-lock.json and kept in the guest (hard-linked in).
kept=/root/node_modules-$lock
if [ -d \$kept ]; then cp -al \$kept node_modules; else
  npm ci --offline --no-audit --no-fund --cache /root/npm-cache >$out/npm-ci.log 2>&1 || { tail -20 $out/npm-ci.log; exit 1; }
  rm -rf /root/node_modules-* && cp -al node_modules \$kept
fi
echo "npm \$((SECONDS - t)) s" >$out/summary.txt; t=\$SECONDS
npm run --silent bundle >$out/bundle.log 2>&1 || { tail -20 $out/bundle.log; exit 1; }
bash scripts/engine.sh >$out/engine.log 2>&1 || { tail -20 $out/engine.log; exit 1; }
DA_SECCOMP_DEFAULT=\$(bash scripts/seccomp-default.sh); export DA_SECCOMP_DEFAULT
echo "bundle and engine.sh \$((SECONDS - t)) s; seccomp default: \$DA_SECCOMP_DEFAULT" >>$out/summary.txt
status=0
if [ $demo = 1 ]; then
  t=\$SECONDS
  bounded node scripts/demo.mjs >$out/demo.log 2>&1; s=\$?
  [ \$s = 0 ] || status=\$s
  rm -rf $out/demo && cp -r out/demo $out/demo 2>/dev/null
  [ \$s = 124 ] && echo "demo: cut at the leg's budget after \$((SECONDS - t)) s" >>$out/summary.txt ||
    echo "demo exit \$s (\$(grep -o 'Verdict: [A-Z]*.*' $out/demo.log | head -1)) \$((SECONDS - t)) s" >>$out/summary.txt
fi
# One file at a time (the guest's two emulated CPUs are the bottleneck, not the engine's lock),
# each under what is left of the budget; their reports are merged into one results.json.
rm -f $out/results-*.json $out/vitest.log
n=0
for file in $tests; do
  n=\$((n + 1))
  bounded npx vitest run --maxWorkers=1 \$file --reporter=default --reporter=json --outputFile.json=$out/results-\$n.json >>$out/vitest.log 2>&1; s=\$?
  [ \$s = 0 ] && continue
  status=1
  [ \$s = 124 ] || continue
  rm -f $out/results-\$n.json
  echo "\$file: not graded: cut at the leg's budget (\$((SECONDS - t)) s into the leg)" >>$out/summary.txt
done
# (node -e: the first argument is process.argv[1])
node -e '
  const fs = require("fs");
  const parts = process.argv.slice(1).filter((f) => fs.existsSync(f)).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
  const sum = (k) => parts.reduce((n, r) => n + (r[k] ?? 0), 0);
  const merged = { startTime: parts[0]?.startTime, success: parts.every((r) => r.success), testResults: parts.flatMap((r) => r.testResults) };
  for (const k of ["numTotalTests", "numPassedTests", "numFailedTests", "numPendingTests", "numTodoTests"]) merged[k] = sum(k);
  fs.writeFileSync("$out/results.json", JSON.stringify(merged));
' \$(seq -f "$out/results-%g.json" 1 \$n)
# A file that graded nothing (every test skipped, or a beforeAll that failed and skipped them all)
# fails the leg, with its error; in the ci set a single skip does too (scripts/vitest-summary.mjs).
node scripts/vitest-summary.mjs $skips $out/results.json >>$out/summary.txt || status=1
# The suites that failed outside their tests, with their errors (vitest's JSON has none of them).
sed 's/\x1b\[[0-9;]*m//g' $out/vitest.log | grep -A1 '^ FAIL ' | grep -v '^--' >>$out/summary.txt || true
exit \$status
EOF
[ "$status" != 255 ] || ! panicked || status=3
if [ "$status" = 124 ] || [ "$status" = 137 ]; then
  say "the guest did not finish within the leg's budget ($budget s): the VM is stopped"
  "$vm" stop || true
elif [ "$stop_after" = 1 ]; then
  # CI leaves no VM behind: idle, its emulated CPUs still take a tenth of a host core.
  "$vm" stop || true
fi
say "done in $((SECONDS - t0)) s (exit $status); $out/summary.txt:"
cat "$repo/$out/summary.txt" >&2 || true
exit "$status"
