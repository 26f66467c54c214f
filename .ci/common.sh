# Shared by the .ci/ reliability steps (sourced): the repository root, build
# folder names, packages a step needs beyond tools/setup-debian.sh, timing.
ci_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Build folders are <prefix><step>; CLRT_CI_BUILD_PREFIX keeps local runs
# apart from other builds in the same tree.
ci_build=${CLRT_CI_BUILD_PREFIX:-build-}

# ci_need <debian package>...: install what is missing (as root, or via sudo).
ci_need() {
    local missing=() p sudo=
    for p in "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    ((${#missing[@]})) || return 0
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    echo "installing ${missing[*]}"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Every step reports its own duration, so that CI time stays visible.
ci_timer_start() { ci_t0=$(date +%s); }
ci_timer_report() { echo "== $1 took $(($(date +%s) - ci_t0)) s"; }
