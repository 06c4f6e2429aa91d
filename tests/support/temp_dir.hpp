#pragma once
// For tests that make files: a fixture base with a fresh directory per test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "support/files.hpp"

namespace fastblur::test {

/// dir_ is <temp>/fastblur-<suite>-<pid>-<test>: empty when each test starts, removed after it.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("fastblur-" + std::string(info->test_suite_name()) + "-" + std::to_string(::getpid()) + "-" + info->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path path(const std::string& name) const { return dir_ / name; }
  std::filesystem::path dir_;
};

}  // namespace fastblur::test
