#pragma once
// What the stand-in semaphore-export layer (stand_in_semaphore_export_layer.cpp) writes into the
// memory file vkGetSemaphoreFdKHR returns, and the stand-in CUDA driver (fake_cuda_driver.cpp)
// reads back on cuImportExternalSemaphore: the handles through which it signals and waits on the
// semaphore from the host, with the loader's vkSignalSemaphoreKHR and vkWaitSemaphoresKHR.
#include <cstdint>

namespace fastblur::test {

inline constexpr std::uint64_t kStandInSemaphoreMagic = 0x31414d4553424246ull;  // "FBBSEMA1"

struct StandInSemaphore {
  std::uint64_t magic;
  std::uint64_t device;     // VkDevice, as the application sees it
  std::uint64_t semaphore;  // VkSemaphore
};

}  // namespace fastblur::test
