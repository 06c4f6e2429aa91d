#pragma once
/// @file
/// Every failure of fastblur is an exception derived from fastblur::Error; the message names the bad
/// value and what was expected.
#include <stdexcept>
#include <string>

namespace fastblur {

/// Base of all fastblur errors.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
/// An argument is out of range or inconsistent (sigma, radius, view shape, strides, ...).
class InvalidArgument : public Error {
 public:
  using Error::Error;
};
/// The request is valid but this build or backend cannot run it (an algorithm or format it lacks).
class Unsupported : public Error {
 public:
  using Error::Error;
};
/// Memory for the result or for scratch space could not be had, or the size cannot be represented.
class OutOfMemory : public Error {
 public:
  using Error::Error;
};
/// A compute device failed (lost, missing, out of device memory).
class DeviceError : public Error {
 public:
  using Error::Error;
};
/// Reading or writing a file failed (missing, unreadable, corrupt, unsupported format).
class IoError : public Error {
 public:
  using Error::Error;
};

}  // namespace fastblur
