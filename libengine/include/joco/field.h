// Descriptions of array fields, shared by Model and Data: element type, shape, and what a valid
// element is. Generic code (allocation, .jmb, validation, dumps, oracle comparison) works on these.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

namespace joco {

// Element types of array fields. The numeric codes are part of the .jmb format.
enum class ScalarType : uint8_t { kFloat64 = 1, kFloat32 = 2, kInt32 = 3, kUInt8 = 4, kChar = 5 };

template <class T>
constexpr ScalarType scalar_type_of() {
  if constexpr (std::is_same_v<T, double>)
    return ScalarType::kFloat64;
  else if constexpr (std::is_same_v<T, float>)
    return ScalarType::kFloat32;
  else if constexpr (std::is_same_v<T, int>)
    return ScalarType::kInt32;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return ScalarType::kUInt8;
  else if constexpr (std::is_same_v<T, char>)
    return ScalarType::kChar;
  else
    static_assert(sizeof(T) == 0, "unsupported field element type");
}

size_t scalar_size(ScalarType type);
const char* scalar_type_name(ScalarType type);

// What a valid element of an integer field is.
struct FieldCheck {
  enum Kind : uint8_t {
    kAny,        // no constraint
    kFlag,       // 0 or 1
    kNonNeg,     // >= 0 (a count)
    kId,         // in [0, bound)
    kIdOrNone,   // in [-1, bound)
    kAdr,        // in [0, bound] (a start address; the span is checked separately)
    kAdrOrNone,  // in [-1, bound]
    kEnum,       // in [lo, bound]
  };
  Kind kind = kAny;
  int lo = 0;
  int bound = 0;

  bool accepts(int64_t value) const;
  // "in [0, 17)" and the like, for error messages.
  std::string describe() const;
};

// The vocabulary of the check column of the field tables.
namespace field_check {
inline constexpr FieldCheck any{FieldCheck::kAny, 0, 0};
inline constexpr FieldCheck flag{FieldCheck::kFlag, 0, 1};
inline constexpr FieldCheck nonneg{FieldCheck::kNonNeg, 0, 0};
constexpr FieldCheck id(int bound) { return {FieldCheck::kId, 0, bound}; }
constexpr FieldCheck idn(int bound) { return {FieldCheck::kIdOrNone, -1, bound}; }
constexpr FieldCheck adr(int bound) { return {FieldCheck::kAdr, 0, bound}; }
constexpr FieldCheck adrn(int bound) { return {FieldCheck::kAdrOrNone, -1, bound}; }
constexpr FieldCheck enm(int lo, int hi) { return {FieldCheck::kEnum, lo, hi}; }
}  // namespace field_check

// One array field of a Model or Data: its description and where its elements are.
struct ArrayField {
  const char* name;
  ScalarType type;
  int64_t rows;
  int64_t cols;
  FieldCheck check;
  void* data;

  int64_t count() const { return rows * cols; }
  size_t bytes() const { return static_cast<size_t>(count()) * scalar_size(type); }
  // Element i as a double, whatever the element type.
  double value(int64_t i) const;
  // Element i as an integer (integer types only).
  int64_t int_value(int64_t i) const;
};

// One fixed-size field of a struct (Option, Visual, Statistic): name, type, count, address.
struct StructField {
  std::string name;  // "timestep", "global.fovy", ...
  ScalarType type;
  int count;
  void* data;
};

// A struct member that is a scalar when N == 1 and an array otherwise, so that the field tables can
// declare Option's timestep and gravity alike.
template <class T, int N>
using FieldMember = std::conditional_t<N == 1, T, T[N]>;

}  // namespace joco
