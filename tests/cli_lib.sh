# Shared by the CLI test scripts (sourced): a temporary directory and
# check NAME EXPECTED_RC CMD..., which runs CMD with stdout in $tmp/out and
# stderr in $tmp/err and sets fail=1 on an unexpected exit code.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # check NAME EXPECTED_RC CMD...
    local name=$1 want=$2; shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL $name: exit $rc, expected $want"; sed 's/^/  | /' "$tmp/err" | head -20; fail=1
    else
        echo "ok   $name"
    fi
}
