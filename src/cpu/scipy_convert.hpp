#pragma once
// The conversions of SciPy's filters between an array's type and double (CpuDriver::scipy_order),
// over packed runs of elements, compiled for every SIMD target Highway dispatches to (the compiler
// vectorises each type's loop for the chosen target; a build's baseline alone is SSE2).
#include <cstddef>
#include <cstdint>

#include "fastblur/view.hpp"

namespace fastblur::cpu {

/// `count` packed elements of `type` at `from` as doubles: exactly (every type SciPy's line buffer
/// reads; bool as unsigned char, float16 through core's conversion).
void to_doubles(ElementType type, const void* from, std::size_t count, double* to);

/// `count` doubles as packed elements of `type` at `to`, converted as C converts them when SciPy's
/// filters store a result: integers truncated toward zero (through int32 for the types of 32 bits
/// and fewer, wrapping; core::c_convert's x86 answer out of range), float32 rounded to nearest.
void from_doubles(ElementType type, const double* from, std::size_t count, void* to);

/// `count` doubles as packed elements of `type` at `to`, the exact result rounded once
/// (Rounding::nearest): integers rounded to nearest, ties to even, and saturated (NaN to 0, as
/// core::store_element); floats rounded to nearest, as from_doubles.
void from_doubles_rounded(ElementType type, const double* from, std::size_t count, void* to);

/// from_doubles into float32, the whole cache lines written past the caches with streaming stores
/// (Schedule::stream_destination): the same values. Weakly ordered: the writing thread calls
/// fence_streamed before another may read them.
void from_doubles_streamed(const double* from, std::size_t count, float* to);
void fence_streamed();

/// `pixels` pixels of `values` elements of `type` each, `stride` bytes apart, as packed doubles:
/// to_doubles where the pixels are packed, else (a channel, a strided or reversed view, an axis of a
/// differently ordered array) gathered into a packed run first (core::gather_pixels).
void to_doubles_strided(ElementType type, const void* from, std::ptrdiff_t stride, std::size_t values,
                        std::size_t pixels, double* to);
/// The reverse: from_doubles (or from_doubles_rounded, `rounded_once`), through a packed run
/// scattered `stride` bytes apart where the pixels are not packed.
void from_doubles_strided(ElementType type, const double* from, std::size_t values, std::size_t pixels, void* to,
                          std::ptrdiff_t stride, bool rounded_once = false);

/// from_doubles then to_doubles, in place: what a value becomes when SciPy's first axis stores it
/// in the output array and its next axis reads it back.
void through_type(ElementType type, double* values, std::size_t count);

}  // namespace fastblur::cpu
