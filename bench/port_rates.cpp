// How many 512-bit double operations this CPU issues a cycle, from register-only loops (12 independent
// chains, so latency never binds): the rates behind bench/RESULTS.md's floors of SciPy's order
// (issue 43). x86-64 with AVX-512 only, and not part of the build:
//
//   g++ -O2 -mavx512f bench/port_rates.cpp -o /tmp/port_rates && /tmp/port_rates [GHz]
//
// The clock comes from a chain of dependent integer adds (one a cycle), or is given as GHz.
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

constexpr long kIterations = 100000000;

// One instruction on register k: `op src, k` (a load or a conversion: k written) or `op src, k, k`
// (an add or a multiply: k read and written, a chain of its own); FB_12 makes 12, one per register 0..11.
#define FB_TO(op, src, reg, k) op " " src "%%" reg k "\n"
#define FB_ON(op, src, reg, k) op " " src "%%" reg k ", %%" reg k "\n"
#define FB_12(M, op, src, reg)                                                                               \
  M(op, src, reg, "0") M(op, src, reg, "1") M(op, src, reg, "2") M(op, src, reg, "3") M(op, src, reg, "4")  \
  M(op, src, reg, "5") M(op, src, reg, "6") M(op, src, reg, "7") M(op, src, reg, "8") M(op, src, reg, "9")  \
  M(op, src, reg, "10") M(op, src, reg, "11")
#define FB_CLOBBERS "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11"

template <class F>
void rate(const char* name, int ops, double ghz, F&& loop) {
  const auto t0 = std::chrono::steady_clock::now();
  loop();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%-34s %.2f a cycle\n", name, static_cast<double>(kIterations) * ops / s / (ghz * 1e9));
}

alignas(64) double buffer[64];

}  // namespace

// The clock: a chain of 12 dependent integer adds an iteration, one a cycle.
double measured_ghz() {
  long x = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < kIterations; ++i)
    asm volatile(
        "add $1, %0\n add $1, %0\n add $1, %0\n add $1, %0\n add $1, %0\n add $1, %0\n"
        "add $1, %0\n add $1, %0\n add $1, %0\n add $1, %0\n add $1, %0\n add $1, %0\n"
        : "+r"(x));
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return static_cast<double>(kIterations) * 12 / s / 1e9;
}

int main(int argc, char** argv) {
  const double ghz = argc > 1 ? std::atof(argv[1]) : measured_ghz();
  std::printf("clock %.2f GHz%s\n", ghz, argc > 1 ? " (given)" : " (a chain of dependent adds)");
  const double* p = buffer;
  asm volatile("vxorpd %%zmm12, %%zmm12, %%zmm12" ::: "xmm12");
  rate("vaddpd zmm", 12, ghz, [&] {
    for (long i = 0; i < kIterations; ++i) asm volatile(FB_12(FB_ON, "vaddpd", "%%zmm12, ", "zmm") ::: FB_CLOBBERS);
  });
  rate("vmulpd zmm", 12, ghz, [&] {
    for (long i = 0; i < kIterations; ++i) asm volatile(FB_12(FB_ON, "vmulpd", "%%zmm12, ", "zmm") ::: FB_CLOBBERS);
  });
  rate("vaddpd + vmulpd zmm", 24, ghz, [&] {
    for (long i = 0; i < kIterations; ++i)
      asm volatile(FB_12(FB_ON, "vaddpd", "%%zmm12, ", "zmm") FB_12(FB_ON, "vmulpd", "%%zmm12, ", "zmm") ::: FB_CLOBBERS);
  });
  rate("vmovupd zmm load, aligned", 12, ghz, [&] {
    for (long i = 0; i < kIterations; ++i) asm volatile(FB_12(FB_TO, "vmovupd", "(%0), ", "zmm")::"r"(p) : FB_CLOBBERS);
  });
  rate("vmovupd zmm load, across a line", 12, ghz, [&] {
    for (long i = 0; i < kIterations; ++i) asm volatile(FB_12(FB_TO, "vmovupd", "8(%0), ", "zmm")::"r"(p) : FB_CLOBBERS);
  });
  rate("vcvtps2pd ymm -> zmm", 12, ghz, [&] {
    for (long i = 0; i < kIterations; ++i) asm volatile(FB_12(FB_TO, "vcvtps2pd", "%%ymm12, ", "zmm") ::: FB_CLOBBERS);
  });
  rate("vcvtpd2ps zmm -> ymm", 12, ghz, [&] {
    for (long i = 0; i < kIterations; ++i) asm volatile(FB_12(FB_TO, "vcvtpd2ps", "%%zmm12, ", "ymm") ::: FB_CLOBBERS);
  });
  rate("vrndscalepd zmm (truncation)", 12, ghz, [&] {
    for (long i = 0; i < kIterations; ++i) asm volatile(FB_12(FB_TO, "vrndscalepd", "$11, %%zmm12, ", "zmm") ::: FB_CLOBBERS);
  });
  return 0;
}
