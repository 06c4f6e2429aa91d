// Per-target inline code of the element conversions (Highway's -inl.h convention: included after
// hwy/highway.h by each file compiled per target), shared by element_convert.cpp and the kernels that
// convert a row as they write it (cpu/weighted_rows_simd.cpp), so both round the same way.
#if defined(FASTBLUR_CORE_ELEMENT_CONVERT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef FASTBLUR_CORE_ELEMENT_CONVERT_INL_H_
#undef FASTBLUR_CORE_ELEMENT_CONVERT_INL_H_
#else
#define FASTBLUR_CORE_ELEMENT_CONVERT_INL_H_
#endif

#include <cstdint>
#include <limits>

#include "fastblur/view.hpp"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace fastblur::core::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One vector of `type` at src -> floats. D is the float tag.
template <class D>
HWY_INLINE hn::Vec<D> LoadOne(D df, fastblur::ElementType type, const uint8_t* src) {
  const hn::RebindToSigned<D> di;
  switch (type) {
    case fastblur::ElementType::u8: {
      const hn::Rebind<uint8_t, decltype(di)> d8;
      return hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, src)));
    }
    case fastblur::ElementType::b8: {  // any nonzero byte is true: 1
      const hn::Rebind<uint8_t, decltype(di)> d8;
      return hn::ConvertTo(df, hn::Min(hn::PromoteTo(di, hn::LoadU(d8, src)), hn::Set(di, 1)));
    }
    case fastblur::ElementType::u16: {
      const hn::Rebind<uint16_t, decltype(di)> d16;
      return hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d16, reinterpret_cast<const uint16_t*>(src))));
    }
    case fastblur::ElementType::i8: {
      const hn::Rebind<int8_t, decltype(di)> d8;
      return hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, reinterpret_cast<const int8_t*>(src))));
    }
    case fastblur::ElementType::i16: {
      const hn::Rebind<int16_t, decltype(di)> d16;
      return hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d16, reinterpret_cast<const int16_t*>(src))));
    }
    case fastblur::ElementType::f16: {
      const hn::Rebind<hwy::float16_t, D> dh;
      return hn::PromoteTo(df, hn::LoadU(dh, reinterpret_cast<const hwy::float16_t*>(src)));
    }
    default: {
      // Float denormals (|x| < 2^-126) are read as zeros of their sign: arithmetic on them takes a
      // microcode assist on many x86 cores (10-100x slower), and they change a result by less than
      // float can resolve next to any normal value. NaN and Inf pass unchanged.
      const hn::Vec<D> v = hn::LoadU(df, reinterpret_cast<const float*>(src));
      const auto denormal = hn::Lt(hn::Abs(v), hn::Set(df, std::numeric_limits<float>::min()));
      return hn::IfThenElse(denormal, hn::And(v, hn::SignBit(df)), v);
    }
  }
}

template <class D>
HWY_INLINE void StoreOne(D df, fastblur::ElementType type, hn::Vec<D> v, uint8_t* dst) {
  const hn::RebindToSigned<D> di;
  switch (type) {
    case fastblur::ElementType::u8: {
      const hn::Rebind<uint8_t, decltype(di)> d8;
      v = hn::Min(hn::Max(v, hn::Zero(df)), hn::Set(df, 255.0f));
      hn::StoreU(hn::DemoteTo(d8, hn::NearestInt(v)), d8, dst);
      break;
    }
    case fastblur::ElementType::b8: {  // true where rounding to nearest gives nonzero: v > 0.5 (NaN false)
      const hn::Rebind<uint8_t, decltype(di)> d8;
      hn::StoreU(hn::DemoteTo(d8, hn::IfThenElseZero(hn::RebindMask(di, hn::Gt(v, hn::Set(df, 0.5f))), hn::Set(di, 1))), d8, dst);
      break;
    }
    case fastblur::ElementType::u16: {
      const hn::Rebind<uint16_t, decltype(di)> d16;
      v = hn::Min(hn::Max(v, hn::Zero(df)), hn::Set(df, 65535.0f));
      hn::StoreU(hn::DemoteTo(d16, hn::NearestInt(v)), d16, reinterpret_cast<uint16_t*>(dst));
      break;
    }
    case fastblur::ElementType::i8: {  // NaN to 0 first: Max and Min on NaN keep an operand, not 0
      const hn::Rebind<int8_t, decltype(di)> d8;
      v = hn::Min(hn::Max(hn::IfThenZeroElse(hn::IsNaN(v), v), hn::Set(df, -128.0f)), hn::Set(df, 127.0f));
      hn::StoreU(hn::DemoteTo(d8, hn::NearestInt(v)), d8, reinterpret_cast<int8_t*>(dst));
      break;
    }
    case fastblur::ElementType::i16: {
      const hn::Rebind<int16_t, decltype(di)> d16;
      v = hn::Min(hn::Max(hn::IfThenZeroElse(hn::IsNaN(v), v), hn::Set(df, -32768.0f)), hn::Set(df, 32767.0f));
      hn::StoreU(hn::DemoteTo(d16, hn::NearestInt(v)), d16, reinterpret_cast<int16_t*>(dst));
      break;
    }
    case fastblur::ElementType::f16: {
      const hn::Rebind<hwy::float16_t, D> dh;
      hn::StoreU(hn::DemoteTo(dh, v), dh, reinterpret_cast<hwy::float16_t*>(dst));
      break;
    }
    default:
      hn::StoreU(v, df, reinterpret_cast<float*>(dst));
  }
}

}  // namespace fastblur::core::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // FASTBLUR_CORE_ELEMENT_CONVERT_INL_H_
