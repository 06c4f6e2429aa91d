#pragma once
// What the library knows of a Device that its users do not: the Vulkan context behind it.
#include <memory>

#include "fastblur/device.hpp"

namespace fastblur {

namespace vk {
class Context;
}

struct Device::Impl {
  std::shared_ptr<vk::Context> context;
};

struct DeviceAccess {
  /// A device over a Vulkan context (Device::vulkan, and the interop layer's adopt).
  static Device make(std::shared_ptr<vk::Context> context) {
    Device d;
    d.impl_ = std::make_shared<const Device::Impl>(Device::Impl{std::move(context)});
    return d;
  }
  /// The device's Vulkan context; null for the CPU.
  static std::shared_ptr<vk::Context> context(const Device& device) {
    return device.impl_ ? device.impl_->context : nullptr;
  }
};

}  // namespace fastblur
