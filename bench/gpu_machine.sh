#!/usr/bin/env bash
# GPU checks and figures on a machine with a real GPU but none of Debian's packages (a lent cloud
# GPU with only its driver, CUDA, PyTorch and CuPy): what bench/RESULTS.md's GPU rows come from.
#
#   bench/gpu_machine.sh pack [BUILD]   here, on Debian 12 with the README's packages and BUILD
#                                       (default build) built: copies the Vulkan tests, the GPU
#                                       benchmark, libfastblur.a and the shared libraries they
#                                       need, the Khronos validation layer, and the headers the
#                                       Python module compiles against into .gpu/ (git-ignored)
#   bench/gpu_machine.sh run OUTDIR     there, from the repository root with .gpu/ beside it:
#                                       the Vulkan tests under validation, the benchmark's seed
#                                       grid with every named variant (issue 47) and the device's
#                                       measured profile from it (gpu_profile.json), then the Python module compiled against that
#                                       machine's Python, bench/gpu_cuda_arrays.py (issue 30:
#                                       torch and CuPy arrays on the device) and
#                                       bench/gpu_peers.py (CuPy, torchvision); logs in OUTDIR
#                                       At most: tests 170 s, benchmark 240 s, cuda 120 s, peers
#                                       130 s (the module compiles meanwhile): a 10-minute call
#                                       holds tests and bench; FB_RESUME=<its OUTDIR> in a second
#                                       call runs the rest.
# Environment for run: FB_FILTER (benchmark filter; default issue 29's targets), FB_CASE_S (device
# seconds per case, default 0.2), FB_WARM_S (warm-up before the first case, default 2),
# FB_STEPS (default "tests bench cuda peers"; "triage" runs bench/gpu_cuda_triage.py, "handoff"
# bench/gpu_cuda_handoff.py), FB_TEST_FILTER (the Vulkan tests' gtest filter, default
# all), FB_T_TESTS / FB_T_BENCH / FB_T_CUDA / FB_T_PEERS (timeouts, s), FB_CUDA_ARGS, FB_PEERS_ARGS,
# FB_RESUME (a previous run's OUTDIR, carried back: its passed tests and measured cases are not run
# again, and with FB_STEPS naming the rest only those run).
# Output: run.log, vulkan_tests.log, gpu_bench.log, gpu_bench.json (Google Benchmark's, counters
# included), gpu_bench.jsonl (one line a case as it finishes), gpu_profile.json (the device's measured
# profile: commit it as data/gpu-profiles/<device>.json), cuda_arrays.log (its figures as JSON
# lines in it), gpu_peers.log, gpu_peers.jsonl, and tests.done once the tests pass.
set -uo pipefail
mode=${1:?usage: gpu_machine.sh pack [BUILD] | run OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
pack=$root/.gpu

if [ "$mode" = pack ]; then
  build=${2:-$root/build}
  rm -rf "$pack" && mkdir -p "$pack"/{bin,lib,layers,include}
  cp "$build"/tests/fastblur_vulkan_tests "$build"/bench/fastblur_gpu_bench "$build"/libfastblur.a "$pack"/bin/
  cp -r "$build"/generated "$pack"/include/generated
  # Shared libraries of Debian that the binaries load, except the C/C++ runtime the target has.
  for f in "$pack"/bin/fastblur_vulkan_tests "$pack"/bin/fastblur_gpu_bench; do
    ldd "$f" | awk '$3 ~ /^\// {print $3}'
  done | sort -u | grep -Ev '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' | xargs -I{} cp -L {} "$pack"/lib/
  cp -L /usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so "$pack"/lib/
  cp /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json "$pack"/layers/
  cp -r /usr/include/hwy /usr/include/vulkan /usr/include/vk_video /usr/include/dlpack "$pack"/include/
  cp /usr/include/fftw3.h "$pack"/include/
  # The Vulkan loader and glvnd, which NVIDIA's Vulkan driver (libGLX_nvidia) needs, as Debian
  # packages unpacked into / there (the lent images have the driver but not these).
  mkdir -p "$pack"/debs /tmp/amd64/partial
  o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
  apt-get $o update >/dev/null && (cd "$pack"/debs && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
  grep -qx '/.gpu/' "$root"/.git/info/exclude 2>/dev/null || echo /.gpu/ >>"$root"/.git/info/exclude
  du -sh "$pack"
  exit 0
fi

out=${2:?usage: gpu_machine.sh run OUTDIR}
mkdir -p "$out"
cd "$root"
for f in "$pack"/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export VK_LAYER_PATH=$pack/layers
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd; fi
export XDG_CACHE_HOME=/tmp/fastblur-cache
steps=${FB_STEPS:-tests bench cuda peers}
resume=${FB_RESUME:-}
log=$out/run.log
say() { echo "$*" | tee -a "$log"; }
say "commit ${FB_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)} $(date -u +%FT%TZ) steps: $steps${resume:+ (resuming $resume)}"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv 2>&1 | tee -a "$log"

# The Python module for the peers step, compiled in the background while the GPU works (that
# machine's Python 3.12 and numpy 2, pybind11 from its pip, linking the carried libfastblur.a).
mod=/tmp/fastblur-py/fastblur
if [[ " $steps " == *" peers "* || " $steps " == *" cuda "* || " $steps " == *" triage "* || " $steps " == *" handoff "* ]]; then
  mkdir -p "$mod" && cp python/fastblur/*.py "$mod"/
  ext=$(python3 -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
  ( ls python/src/*.cpp | xargs -P 8 -I{} sh -c 'g++ -O2 -DNDEBUG -std=c++20 -fPIC -fvisibility=hidden -fopenmp \
      -Ipython/src -Isrc -Iinclude -I"$0"/include -I"$0"/include/generated $(python3 -m pybind11 --includes) \
      -c {} -o /tmp/fastblur-py/$(basename {}).o' "$pack" &&
    g++ -shared -fopenmp /tmp/fastblur-py/*.o "$pack"/bin/libfastblur.a \
      "$pack"/lib/libhwy.so.1 "$pack"/lib/libfftw3.so.3 "$pack"/lib/libvulkan.so.1 -o "$mod/_core$ext" ) \
    >/tmp/fastblur-py/module_build.log 2>&1 &
  module_build=$!
fi

# The module's build, waited for once (the cuda and peers steps both need it).
module_ready() {
  if [ -z "${module_rc:-}" ]; then wait "$module_build"; module_rc=$?; fi
  return "$module_rc"
}

for step in $steps; do
  case $step in
    tests)
      if [ -n "$resume" ] && [ -f "$resume/tests.done" ]; then say "tests: done in $resume"; cp "$resume"/tests.done "$out"/; continue; fi
      # Every Vulkan test under the Khronos validation layer with synchronization validation.
      FASTBLUR_VULKAN_VALIDATION=1 timeout "${FB_T_TESTS:-170}" "$pack"/bin/fastblur_vulkan_tests --gtest_brief=1 \
        --gtest_filter="${FB_TEST_FILTER:-*}" 2>&1 | head -c 15000000 >"$out"/vulkan_tests.log
      rc=${PIPESTATUS[0]}
      say "vulkan tests rc=$rc ($(grep -c '^\[validation' "$out"/vulkan_tests.log) validation messages)"
      grep -E '^\[  (FAILED|PASSED)|tests? ran|Failure|Expected|Which is|actual|^\[validation' "$out"/vulkan_tests.log | head -40 | tee -a "$log"
      [ "$rc" = 0 ] && grep -E '^\[  PASSED' "$out"/vulkan_tests.log >"$out"/tests.done
      ;;
    bench)
      # Issue 29's targets first (the benchmark registers them first); a resumed run skips the cases
      # already in the previous run's JSON lines.
      # Issue 47's grid: every seed algorithm and each named variant (ALGORITHM-VARIANT) on the 2D
      # targets, exact fir on 1080p float, the volumes.
      filter=${FB_FILTER:-'^(fir|fir-out8|fir-linear|box|box-fused|iir|kawase|dual-kawase|downsample|downsample-per-axis)/(RGBA8/1920x1080|RGBA32F/3840x2160)/(k7|k35|k127|s50)/|^(fir|fir-out8)/RGBA32F/1920x1080/(k7|k35|k127|s50)/|^(fir|fir-out8|box|box-fused|iir|downsample|downsample-per-axis)/R32F/(256|512)\^3/|^(fir-linear|kawase|dual-kawase)-float16-images/RGBA8/1920x1080/(k7|k35|k127|s50)/|^(fir-linear|kawase|dual-kawase)-unorm8-images/RGBA8/1920x1080/(k7|k35|k127|s50)/|^kawase-paired-passes/(RGBA8/1920x1080|RGBA32F/3840x2160)/(k7|k35|k127|s50)/|^sliding-dct/(RGBA8/1920x1080|RGBA32F/3840x2160)/(k7|k35|k127|s50)/|^sliding-dct/R32F/(256|512)\^3/|^iir-padded-starts/(RGBA8/1920x1080|RGBA32F/3840x2160)/(k7|k35|k127|s50)/'}
      if [ -n "$resume" ] && [ -f "$resume/gpu_bench.jsonl" ]; then
        cp "$resume"/gpu_bench.jsonl "$out"/gpu_bench.jsonl
        sed -n 's/^{"name":"\([^"]*\)".*/\1/p' "$out"/gpu_bench.jsonl >/tmp/fb_done.txt
        export FB_DONE=/tmp/fb_done.txt
        say "bench: $(wc -l </tmp/fb_done.txt) cases done in $resume"
      fi
      FB_JSONL=$out/gpu_bench.jsonl timeout "${FB_T_BENCH:-240}" "$pack"/bin/fastblur_gpu_bench --benchmark_filter="$filter" \
        --benchmark_out="$out"/gpu_bench.json --benchmark_out_format=json >"$out"/gpu_bench.log 2>&1
      say "gpu bench rc=$? ($(wc -l <"$out"/gpu_bench.jsonl 2>/dev/null || echo 0) cases in gpu_bench.jsonl)"
      # The device's measured profile (issue 47), to be committed as data/gpu-profiles/<device>.json.
      driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
      python3 bench/gpu_profile.py "$out"/gpu_bench.jsonl "$out"/gpu_profile.json --driver "$driver" \
        --commit "${FB_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}" 2>&1 | tee -a "$log"
      sed -n '/^device: .*$/,$p' "$out"/gpu_bench.log | sed -n '/^warm-up/,$p' | tee -a "$log"
      ;;
    cuda)
      # Issue 30: torch and CuPy arrays on the device (checks, then the figures against the peers).
      module_ready || { say "module build failed"; tail -20 /tmp/fastblur-py/module_build.log | tee -a "$log"; continue; }
      PYTHONPATH=/tmp/fastblur-py PYTHONUNBUFFERED=1 timeout "${FB_T_CUDA:-120}" python3 bench/gpu_cuda_arrays.py \
        --bench-jsonl "$([ -f "$out"/gpu_bench.jsonl ] && echo "$out" || echo "${resume:-$out}")"/gpu_bench.jsonl \
        ${FB_CUDA_ARGS:-} >"$out"/cuda_arrays.log 2>&1
      say "cuda arrays rc=$? ($(grep -c '^FAIL' "$out"/cuda_arrays.log) failed checks)"
      grep -E '^FAIL|^\{|^device|checks passed|failed:' "$out"/cuda_arrays.log | head -40 | tee -a "$log"
      ;;
    handoff)
      # What ordering a call with the caller's stream costs, handoff by handoff (bench/gpu_cuda_handoff.py).
      module_ready || { say "module build failed"; tail -20 /tmp/fastblur-py/module_build.log | tee -a "$log"; continue; }
      PYTHONPATH=/tmp/fastblur-py PYTHONUNBUFFERED=1 timeout "${FB_T_HANDOFF:-200}" python3 bench/gpu_cuda_handoff.py \
        >"$out"/cuda_handoff.log 2>&1
      say "cuda handoff rc=$?"
      tee -a "$log" <"$out"/cuda_handoff.log
      ;;
    triage)
      # A CUDA-array call taken apart, each variant in its own process (bench/gpu_cuda_triage.py).
      module_ready || { say "module build failed"; tail -20 /tmp/fastblur-py/module_build.log | tee -a "$log"; continue; }
      PYTHONPATH=/tmp/fastblur-py PYTHONUNBUFFERED=1 timeout "${FB_T_TRIAGE:-300}" python3 bench/gpu_cuda_triage.py \
        >"$out"/cuda_triage.log 2>&1
      say "cuda triage rc=$?"
      tee -a "$log" <"$out"/cuda_triage.log
      ;;
    peers)
      module_ready || { say "module build failed"; tail -20 /tmp/fastblur-py/module_build.log | tee -a "$log"; continue; }
      PYTHONPATH=/tmp/fastblur-py PYTHONUNBUFFERED=1 timeout "${FB_T_PEERS:-130}" python3 bench/gpu_peers.py \
        --jsonl "$out"/gpu_peers.jsonl ${FB_PEERS_ARGS:-} >"$out"/gpu_peers.log 2>&1
      say "gpu peers rc=$?"
      tail -40 "$out"/gpu_peers.log | tee -a "$log"
      ;;
  esac
done
