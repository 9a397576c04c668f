// The binary model format .jmb (schemas/jmb.md is the byte-level specification).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "joco/model.h"

namespace joco {

inline constexpr uint32_t kJmbFormatVersion = 3;

// The complete .jmb image of a model.
std::vector<uint8_t> write_jmb(const Model& m);

// Parses and validates a .jmb image. `source` names the input in error messages (a path or
// "<stdin>"). Throws InputError naming the first problem: not a .jmb (a MuJoCo .mjb is named as
// such), truncated, wrong version or machine, bad checksum, or a size or field that fails
// validation.
Model read_jmb(std::span<const uint8_t> bytes, const std::string& source);

// Whether bytes start like a .jmb / like a MuJoCo .mjb, for telling inputs apart by content.
bool looks_like_jmb(std::span<const uint8_t> bytes);
bool looks_like_mjb(std::span<const uint8_t> bytes);

// The checksum stored in a model's .jmb image (FNV-1a, 64 bits, over everything before it); also
// the model's identity in trajectory files (model_checksum).
uint64_t model_checksum(const Model& m);

// The checksum of a .jmb body (everything before the stored checksum): what write_jmb appends and
// read_jmb compares. For tools that edit an image (the fuzz target re-seals mutated bytes).
uint64_t jmb_checksum(std::span<const uint8_t> body);

}  // namespace joco
