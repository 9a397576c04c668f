#include "test_support.h"

#include <gtest/gtest.h>
#include <stdlib.h>  // mkdtemp

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>
#include <stdexcept>
#include <system_error>

#ifndef __has_feature
#define __has_feature(x) 0
#endif
#define __has_feature_address_sanitizer __has_feature(address_sanitizer)

namespace joco::test {

std::string testdata(const std::string& relative) {
  return std::string(JOCO_TESTDATA_DIR) + "/" + relative;
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "cannot read " << path;
    return {};
  }
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string read_text(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return std::string(bytes.begin(), bytes.end());
}

TempDir::TempDir(const std::string& prefix) {
  std::string name = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(name.data())) {
    throw std::runtime_error("cannot create a temporary directory " + name + ": " +
                             std::generic_category().message(errno));
  }
  path_ = name;
}

TempDir::~TempDir() {
  std::error_code ignored;  // a test that failed half-way must not throw from here
  std::filesystem::remove_all(path_, ignored);
}

namespace {
thread_local int64_t allocations = 0;
}  // namespace

AllocationCounter::AllocationCounter() : start_(allocations) {}
AllocationCounter::~AllocationCounter() = default;
int64_t AllocationCounter::count() const { return allocations - start_; }

void note_allocation() { ++allocations; }

}  // namespace joco::test

// Replacing the global allocation functions (in this library, linked into every test executable)
// lets AllocationCounter see every heap allocation made by C++ code.
void* operator new(std::size_t n) {
  joco::test::note_allocation();
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, std::align_val_t a) {
  joco::test::note_allocation();
  const std::size_t align = static_cast<std::size_t>(a);
  if (void* p = std::aligned_alloc(align, (n + align - 1) / align * align)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
// The nothrow forms too (std::stable_sort's temporary buffer uses them): every form must come
// from the same allocator as the deletes below, or sanitizers report a mismatch.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  joco::test::note_allocation();
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t& tag) noexcept {
  return operator new(n, tag);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  joco::test::note_allocation();
  const std::size_t align = static_cast<std::size_t>(a);
  return std::aligned_alloc(align, (n + align - 1) / align * align);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t& tag) noexcept {
  return operator new(n, a, tag);
}
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

// The C allocator too (Eigen and C libraries allocate with malloc). glibc exports its real
// implementation as __libc_*; sanitizers interpose malloc themselves, so leave it to them there.
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !__has_feature_address_sanitizer
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* malloc(std::size_t n) {
  joco::test::note_allocation();
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t size) {
  joco::test::note_allocation();
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t n) {
  joco::test::note_allocation();
  return __libc_realloc(p, n);
}
}
#endif
