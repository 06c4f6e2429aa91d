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
#                                       grid, then the Python module compiled against that
#                                       machine's Python and bench/gpu_peers.py (CuPy,
#                                       torchvision); logs in OUTDIR
# Environment for run: FB_FILTER (benchmark filter), FB_MIN_TIME (seconds per case, default 0.2),
# FB_STEPS (default "tests bench peers"), FB_TEST_FILTER (the Vulkan tests' gtest filter, default all), FB_T_TESTS / FB_T_BENCH / FB_T_PEERS (timeouts, s), FB_PEERS_ARGS.
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
  cp -r /usr/include/hwy /usr/include/vulkan /usr/include/vk_video "$pack"/include/
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
steps=${FB_STEPS:-tests bench peers}
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv 2>&1 | tee "$out"/gpu.txt

for step in $steps; do
  case $step in
    tests)
      # Every Vulkan test under the Khronos validation layer with synchronization validation.
      FASTBLUR_VULKAN_VALIDATION=1 timeout "${FB_T_TESTS:-420}" "$pack"/bin/fastblur_vulkan_tests --gtest_brief=1 \
        --gtest_filter="${FB_TEST_FILTER:-*}" \
        >"$out"/vulkan_tests.log 2>&1
      echo "vulkan tests rc=$? ($(grep -c '^\[validation' "$out"/vulkan_tests.log) validation messages)"
      grep -E '^\[  (FAILED|PASSED)|Failure|Expected|Which is|actual|^\[validation' "$out"/vulkan_tests.log | head -40
      ;;
    bench)
      filter=${FB_FILTER:-'^[a-z-]+/(RGBA8|RGBA32F)/(1920x1080|3840x2160)/|/R32F/(256|512)\^3/'}
      timeout "${FB_T_BENCH:-540}" "$pack"/bin/fastblur_gpu_bench --benchmark_filter="$filter" \
        --benchmark_min_time="${FB_MIN_TIME:-0.2}" >"$out"/gpu_bench.log 2>&1
      echo "gpu bench rc=$?"
      ;;
    peers)
      # The Python module compiled there against its Python (3.12 and numpy 2 on the lent images),
      # with pybind11 from pip, linking the carried libfastblur.a.
      mod=/tmp/fastblur-py/fastblur && mkdir -p "$mod" && cp python/fastblur/*.py "$mod"/
      ext=$(python3 -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
      g++ -O3 -DNDEBUG -std=c++20 -fPIC -shared -fvisibility=hidden -fopenmp \
        -Ipython/src -Isrc -Iinclude -I"$pack"/include -I"$pack"/include/generated \
        $(python3 -m pybind11 --includes) python/src/*.cpp "$pack"/bin/libfastblur.a \
        "$pack"/lib/libhwy.so.1 "$pack"/lib/libfftw3.so.3 "$pack"/lib/libvulkan.so.1 \
        -o "$mod/_core$ext" >"$out"/module_build.log 2>&1 || { echo "module build failed"; tail -20 "$out"/module_build.log; continue; }
      PYTHONPATH=/tmp/fastblur-py PYTHONUNBUFFERED=1 timeout "${FB_T_PEERS:-540}" python3 bench/gpu_peers.py ${FB_PEERS_ARGS:-} \
        >"$out"/gpu_peers.log 2>&1
      echo "gpu peers rc=$?"
      tail -40 "$out"/gpu_peers.log
      ;;
  esac
done
