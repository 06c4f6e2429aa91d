// gtest main that prints the run's random seed first, so any failure can be replayed.
#include <gtest/gtest.h>

#include "support/test_support.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  fastblur::test::seed();
  return RUN_ALL_TESTS();
}
