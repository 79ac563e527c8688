#!/bin/bash
# The GPU checks in one call, for a session lent a device machine (CuPy and
# a GPU, no network): our GPU tests, the GPU benchmark, and Chainer's own
# GPU tests.  Run from the repository root; results go to $OUT (or ./out).
#
#   WHEELS=DIR      wheels to install first (pip download them here:
#                   nvidia-cudnn-frontend==1.16.0 for cp312 manylinux, which
#                   needs nothing else, and mock for Chainer's suite)
#   UPSTREAM=DIR    a checkout of Chainer's tests (a folder holding tests/
#                   and setup.cfg); without it that part is skipped
#   T_OURS, T_BENCH, T_UPSTREAM   time limits of the three parts, seconds
#
# Seen on an H200 (2026-11-26): our tests take about 60 s with 14 workers,
# the benchmark about 100 s, Chainer's GPU tests of 7 folders over 150 s.
set -u
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
if [ -n "${WHEELS:-}" ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile \
        --no-cache-dir --target /tmp/site "$WHEELS"/*.whl || exit 1
    export PYTHONPATH=$PWD:/tmp/site
else
    export PYTHONPATH=$PWD
fi
start=$(date +%s)
nvidia-smi -L
python3 -c "import cupy, numpy, chainer
from chainer.backends import cuda
print('CuPy', cupy.__version__, 'NumPy', numpy.__version__, 'chainer',
      chainer.__version__, 'GPU', cuda.available, 'cuDNN', cuda.cudnn_enabled)"

timeout "${T_OURS:-150}" python3 -m pytest -m gpu -n 14 -q -rfE \
    -p no:benchmark -p no:cacheprovider tests \
    --junitxml="$OUT/gpu.xml" > "$OUT/gpu.log" 2>&1
echo "our GPU tests: rc $? after $(( $(date +%s) - start )) s"
grep -E '^(FAILED|ERROR)' "$OUT/gpu.log" | cut -c1-200 | head -20
tail -1 "$OUT/gpu.log"

timeout "${T_BENCH:-150}" python3 benchmarks/gpu.py --repeat 3 \
    > "$OUT/bench.log" 2>&1
echo "GPU benchmark: rc $? after $(( $(date +%s) - start )) s"
tail -9 "$OUT/bench.log"

if [ -n "${UPSTREAM:-}" ]; then
    # by file, not pytest-xdist (some ids are random: workers would differ)
    timeout "${T_UPSTREAM:-240}" python3 tools/run_upstream_tests.py \
        "$UPSTREAM" --gpu --by-folder -n 14 --out "$OUT/upstream" \
        > "$OUT/upstream.log" 2>&1
    echo "Chainer's GPU tests: rc $? after $(( $(date +%s) - start )) s"
    tail -40 "$OUT/upstream.log"
    gzip -f "$OUT/upstream/outcomes.tsv" 2>/dev/null
    rm -f "$OUT"/upstream/junit.xml "$OUT"/upstream/pytest-*.log \
        "$OUT"/upstream/outcomes.raw.*
fi
