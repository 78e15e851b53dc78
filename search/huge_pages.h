// Memory for the big tables that searches reach at random (the solver's
// transposition table, the graph's arenas): in 2 MiB pages where the system
// gives them, so that a probe costs one cache miss rather than a miss and a
// page-table walk.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

namespace wallgo::search {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

struct HugePageFree {
  void operator()(void* p) const { std::free(p); }
};

// Asks for huge pages for the whole 2 MiB pages inside [p, p + bytes): for
// memory taken elsewhere (calloc's zero pages, which stay lazy).
inline void AdviseHugePages(void* p, size_t bytes) {
#ifdef MADV_HUGEPAGE
  const auto at = reinterpret_cast<uintptr_t>(p);
  const uintptr_t begin =
      (at + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  const uintptr_t end = (at + bytes) / kHugePageBytes * kHugePageBytes;
  if (end > begin) {
    madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
#else
  (void)p, (void)bytes;
#endif
}

// `count` default-made objects of a trivially destructible T, aligned to a
// huge page when the table spans one (Linux's transparent huge pages are
// given on request: madvise).
template <typename T>
std::unique_ptr<T[], HugePageFree> AllocateHugePages(size_t count) {
  static_assert(std::is_trivially_destructible_v<T>);
  const size_t bytes = count * sizeof(T);
  const size_t align = bytes >= kHugePageBytes ? kHugePageBytes : alignof(T);
  const size_t rounded = (bytes + align - 1) / align * align;
  void* memory = std::aligned_alloc(align, rounded);
  if (memory == nullptr) throw std::bad_alloc();
  AdviseHugePages(memory, rounded);  // whole pages only: none when smaller
  T* objects = static_cast<T*>(memory);
  std::uninitialized_value_construct_n(objects, count);
  return std::unique_ptr<T[], HugePageFree>(objects);
}

}  // namespace wallgo::search
