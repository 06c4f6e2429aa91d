// gtest main of the Vulkan tests: the run's seed first, and the Khronos validation layer on unless
// FASTBLUR_VULKAN_VALIDATION=0 (ctest sets it to 1), so a hand run checks what CI checks.
#include <gtest/gtest.h>

#include <cstdlib>

#include "support/test_support.hpp"
#include "vulkan/stand_in_layer.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  setenv("FASTBLUR_VULKAN_VALIDATION", "1", 0);  // before the first Vulkan instance
  fastblur::test::enable_stand_in_semaphore_layer();
  fastblur::test::seed();
  return RUN_ALL_TESTS();
}
